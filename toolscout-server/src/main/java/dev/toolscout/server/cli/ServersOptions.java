package dev.toolscout.server.cli;

import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.server.StdioCommands;
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

    @Option(
            names = "--servers-wait",
            paramLabel = "SECONDS",
            description = "How long to wait for the servers' first connection: default 30 s for select, find and "
                    + "mcp list; 5 s for the gateways (mcp, serve), whose clients see late servers' tools arrive with "
                    + "tools/list_changed.")
    Integer waitSeconds;

    /** The default wait of select, find and mcp list: their answer needs the tools now. */
    static final int WAIT_FOR_ANSWER = 30;
    /** The default wait of the gateways: a late server's tools reach clients through tools/list_changed. */
    static final int WAIT_FOR_GATEWAY = 5;

    /** Read and checked before the engine opens, so a bad file changes nothing. */
    List<ServerConfig> declared() {
        check();
        return servers == null ? List.of() : ServersFile.load(servers.toAbsolutePath());
    }

    /** What a command needs of the servers, which decides whether they are connected and how long it waits. */
    enum Use {
        /**
         * One answer from the catalog (select, find): servers are connected only when some are declared, since
         * the stored servers' tools are in the catalog from their last connection and ranking them needs none
         * running; waits {@value ServersOptions#WAIT_FOR_ANSWER} s unless told.
         */
        ANSWER_FROM_CATALOG,
        /**
         * One answer about the servers themselves (mcp list): always connects; waits {@value
         * ServersOptions#WAIT_FOR_ANSWER} s unless told.
         */
        ANSWER_ABOUT_SERVERS,
        /**
         * A long-running gateway (mcp, serve): always connects; waits {@value ServersOptions#WAIT_FOR_GATEWAY} s
         * unless told and takes a late server's tools when it is ready.
         */
        GATEWAY
    }

    /**
     * Connects the declared and the stored servers as {@code use} says; reports the ones that failed on {@code
     * err}.
     */
    void start(McpRuntime e, List<ServerConfig> declared, PrintWriter err, Use use) {
        boolean gateway = use == Use.GATEWAY;
        if (use == Use.ANSWER_FROM_CATALOG && declared.isEmpty()) {
            return;
        }
        int wait = waitSeconds != null ? waitSeconds : gateway ? WAIT_FOR_GATEWAY : WAIT_FOR_ANSWER;
        // a command that does not exist is one line here, not a start retried with backoff for the whole run
        List<ServerConfig> runnable = new java.util.ArrayList<>();
        for (ServerConfig c : declared) {
            String problem = StdioCommands.problem(c);
            if (problem == null) {
                runnable.add(c);
            } else {
                err.println("toolscout: MCP server '" + c.name() + "' is not started: " + problem
                        + (servers == null ? "" : " (" + servers + ")"));
            }
        }
        for (UpstreamManager.Registration r : e.start(runnable, Duration.ofSeconds(wait))) {
            if (r instanceof UpstreamManager.Registration.Failure f) {
                err.println("toolscout: MCP server '" + f.name() + "' is not available: " + f.error());
            } else if (r instanceof UpstreamManager.Registration.Success s
                    && s.status().state() == dev.toolscout.mcp.upstream.ServerStatus.State.CONNECTING) {
                err.println("toolscout: MCP server '" + s.name() + "' is still connecting after " + wait + " s"
                        + (gateway
                                ? "; its tools join when it is ready"
                                : "; its tools are not in this answer (--servers-wait to wait longer)"));
            }
        }
        err.flush();
    }

    /** Checks the option before anything is opened. */
    void check() {
        if (waitSeconds != null && (waitSeconds < 0 || waitSeconds > 600)) {
            throw new IllegalArgumentException("--servers-wait must be between 0 and 600 seconds, got: " + waitSeconds);
        }
    }
}
