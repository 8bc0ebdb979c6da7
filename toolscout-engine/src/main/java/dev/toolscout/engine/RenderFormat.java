package dev.toolscout.engine;

/** The wire forms {@link ToolScout#render} produces: what {@code toolscout select --format} prints. */
public enum RenderFormat {
    /**
     * {@code {"selected": [{"name", "score", "reason"}], "core_included", "excluded_count", "reason",
     * "discovery_suggested", "tokens": {"selected", "all", "saved_pct"}}}: the selection itself; a message longer than
     * the ranking reads adds {@code "shortened": {"from_chars", "to_chars", "note"}}.
     */
    JSON,
    /** {@code {"system": <prompt section>, "tools": [<Anthropic tool>]}}: Anthropic's Messages API. */
    ANTHROPIC,
    /**
     * {@code {"system", "tools"}} for Claude's tool search done by the client (docs/HTTP_API.md, "Claude's tool
     * search"): the selected tools loaded, then {@code tool_discovery__find} (never deferred), then every other tool
     * the principal may see with {@code "defer_loading": true}, by name; at most {@value
     * dev.toolscout.render.DeferredTools#MAX_TOOLS} in all. Needs the principal: {@link ToolScout#render(SelectResult,
     * RenderFormat, dev.toolscout.model.Principal)}.
     */
    ANTHROPIC_DEFERRED,
    /** {@code {"messages": [{"role": "system", ...}], "tools": [<OpenAI function tool>]}}: OpenAI's Chat API. */
    OPENAI,
    /** {@code {"tools": [<MCP tool>]}}: an MCP {@code tools/list} result. */
    MCP
}
