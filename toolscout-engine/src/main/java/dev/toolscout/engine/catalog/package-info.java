/**
 * Catalog files (JSON or YAML, {@code docs/CATALOG_FORMAT.md}) and saved MCP {@code tools/list} responses read
 * into {@link dev.toolscout.model.ToolSpec}s, for {@link dev.toolscout.engine.ToolScout#upsert}. API: an
 * application that keeps its tools in such files loads them with {@link
 * dev.toolscout.engine.catalog.CatalogFiles#load}.
 */
package dev.toolscout.engine.catalog;
