package dev.toolscout.server.http.api;

import dev.toolscout.catalog.StateStore;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.ServerRegistry;
import java.util.Objects;

/**
 * What the routes work on once the engine is open: the library's {@link ToolScout} (selection, tools, policy)
 * and the server's registry of upstream MCP servers ({@code /v1/servers}), which the library does not have.
 *
 * @param servers the registry, or {@code null} when the server runs no upstream manager
 * @param store the state store, for the agent loop's usage records ({@code GET /v1/usage/requests}), or {@code
 *     null}
 */
public record ApiBackend(ToolScout scout, ServerRegistry servers, StateStore store) {
  public ApiBackend {
    Objects.requireNonNull(scout, "scout");
  }

  /** Without the state store: no usage records ({@code /v1/usage/requests} answers 404). */
  public ApiBackend(ToolScout scout, ServerRegistry servers) {
    this(scout, servers, null);
  }
}
