package dev.toolscout.server.cli;

import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.server.Engine;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --servers FILE}: upstream MCP servers in Claude Desktop's {@code mcpServers} shape. */
final class ServersOptions {
  @Option(
      names = "--servers",
      paramLabel = "FILE",
      description = "Upstream MCP servers to connect, in Claude Desktop's mcpServers JSON shape "
          + "(see docs/MCP.md). Servers registered with `toolscout mcp add` are connected too.")
  Path servers;

  @Option(names = "--servers-wait", paramLabel = "SECONDS", defaultValue = "30",
      description = "How long to wait for the servers' first connection (default ${DEFAULT-VALUE} s).")
  int waitSeconds;

  /** Read and checked before the engine opens, so a bad file changes nothing. */
  List<ServerConfig> declared() {
    return servers == null ? List.of() : ServersFile.load(servers.toAbsolutePath());
  }

  /**
   * Connects the declared and the stored servers; reports the ones that failed on {@code err}. Unless
   * {@code always}, nothing is connected when no server is declared: the tools of the stored servers are in
   * the catalog from their last connection, and ranking them needs no server running.
   */
  void start(Engine e, List<ServerConfig> declared, PrintWriter err, boolean always) {
    if (!always && declared.isEmpty()) {
      return;
    }
    if (waitSeconds < 0 || waitSeconds > 600) {
      throw new IllegalArgumentException("--servers-wait must be between 0 and 600 seconds, got: " + waitSeconds);
    }
    for (UpstreamManager.Registration r : e.startMcp(declared, Duration.ofSeconds(waitSeconds))) {
      if (r instanceof UpstreamManager.Registration.Failure f) {
        err.println("toolscout: MCP server '" + f.name() + "' is not available: " + f.error());
      }
    }
    err.flush();
  }
}
