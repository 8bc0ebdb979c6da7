/**
 * The files ToolScout reads from disk: catalog files (JSON or YAML, {@code docs/CATALOG_FORMAT.md}) and saved MCP
 * {@code tools/list} responses read into {@link dev.toolscout.model.ToolSpec}s for {@link
 * dev.toolscout.engine.ToolScout#upsert}, skill folders ({@code SKILL.md}) and access policy files ({@code
 * docs/ACCESS_POLICY.md}). API: an application that keeps its tools in such files loads them with {@link
 * dev.toolscout.engine.files.CatalogFiles#load}.
 */
package dev.toolscout.engine.files;
