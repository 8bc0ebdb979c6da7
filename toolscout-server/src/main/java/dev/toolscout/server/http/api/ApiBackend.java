package dev.toolscout.server.http.api;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.ServerRegistry;
import java.util.Objects;

/**
 * What the routes work on once the engine is open: the library's {@link ToolScout} (selection, tools, policy)
 * and the server's registry of upstream MCP servers ({@code /v1/servers}), which the library does not have.
 *
 * @param servers the registry, or {@code null} when the server runs no upstream manager
 * @param agent the agent loop ({@code /v1/conversations/{id}/messages}), or {@code null} when no LLM provider is
 *     configured
 */
public record ApiBackend(ToolScout scout, ServerRegistry servers, dev.toolscout.agent.Agent agent) {
    public ApiBackend {
        Objects.requireNonNull(scout, "scout");
    }

    /** A backend without the agent loop (no provider configured). */
    public ApiBackend(ToolScout scout, ServerRegistry servers) {
        this(scout, servers, null);
    }
}
