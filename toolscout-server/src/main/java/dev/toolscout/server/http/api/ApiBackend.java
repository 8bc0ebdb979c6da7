package dev.toolscout.server.http.api;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.ServerRegistry;
import java.util.Objects;

/**
 * What the routes work on once the engine is open: the library's {@link ToolScout} (selection, tools, policy)
 * and the server's registry of upstream MCP servers ({@code /v1/servers}), which the library does not have.
 *
 * @param servers the registry, or {@code null} when the server runs no upstream manager
 */
public record ApiBackend(ToolScout scout, ServerRegistry servers) {
  public ApiBackend {
    Objects.requireNonNull(scout, "scout");
  }
}
