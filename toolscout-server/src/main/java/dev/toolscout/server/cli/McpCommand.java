package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.mcp.McpActions;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.ServerRegistry;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.server.StdioCommands;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout mcp}: the MCP gateway over stdio (what Claude Desktop and Claude Code start), and the
 * management of upstream servers: {@code mcp list}, {@code mcp add}, {@code mcp remove}, {@code mcp disable}, {@code
 * mcp enable}.
 */
@Command(
        name = "mcp",
        mixinStandardHelpOptions = true,
        description = "Run the MCP gateway over stdio; manage upstream MCP servers (see docs/MCP.md).",
        subcommands = {
            McpCommand.ListServers.class,
            McpCommand.Add.class,
            McpCommand.Remove.class,
            McpCommand.Disable.class,
            McpCommand.Enable.class
        })
final class McpCommand implements Callable<Integer> {
    @Mixin
    PrincipalOptions who;

    @Mixin
    EngineOptions engine;

    @Mixin
    ServersOptions servers;

    @Mixin
    ApprovalOptions approval;

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Option(
            names = "--conversation",
            paramLabel = "ID",
            description =
                    "The conversation this "
                            + "run belongs to: an earlier run's id resumes its active skills and disclosed tools (default: a new one).")
    String conversation;

    @Override
    public Integer call() throws Exception {
        if (conversation != null) {
            dev.toolscout.conversation.Conversations.checkId(conversation);
        }
        var declared = servers.declared();
        McpGateway.Approval mode = approval.mode();
        CountDownLatch ended = new CountDownLatch(1);
        InputStream in = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    ended.countDown();
                }
                return n;
            }

            @Override
            public int read() throws IOException {
                int n = super.read();
                if (n < 0) {
                    ended.countDown();
                }
                return n;
            }
        };
        try (McpRuntime e = McpRuntime.open(engine.options().withModelPreload().builder())) {
            servers.start(e, declared, spec.commandLine().getErr(), ServersOptions.Use.GATEWAY);
            try (McpGateway gateway = new McpGateway(e.scout(), e.actions(), who.principal()).approval(mode)) {
                if (conversation != null) {
                    gateway.conversation(conversation);
                }
                gateway.serveStdio(in, System.out);
                ended.await();
            }
        }
        return 0;
    }

    /** {@code toolscout mcp list}: the servers and their status; never a secret. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description =
                    "Connect the registered servers (and --servers) and show their status. Secrets are never shown.")
    static final class ListServers implements Callable<Integer> {
        @Mixin
        EngineOptions engine;

        @Mixin
        ServersOptions servers;

        @Option(names = "--format", defaultValue = "table", description = "table or json (default ${DEFAULT-VALUE}).")
        String format;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            if (!format.equals("table") && !format.equals("json")) {
                throw new IllegalArgumentException("--format must be table or json, got: '" + format + "'");
            }
            var declared = servers.declared();
            PrintWriter out = spec.commandLine().getOut();
            try (McpRuntime e = McpRuntime.open(engine.options().builder())) {
                servers.start(e, declared, spec.commandLine().getErr(), ServersOptions.Use.ANSWER_ABOUT_SERVERS);
                ServerRegistry registry = e.registry();
                List<ServerStatus> all = registry.servers();
                if (format.equals("json")) {
                    ArrayNode arr = Json.MAPPER.createArrayNode();
                    all.forEach(s -> {
                        ObjectNode o = McpActions.statusJson(s, s.tools());
                        if (registry.isDisabled(s.name())) {
                            o.put("status", "disabled");
                        }
                        o.put("disabled", registry.isDisabled(s.name()));
                        arr.add(o);
                    });
                    ObjectNode o = Json.MAPPER.createObjectNode();
                    o.put("count", all.size());
                    o.set("servers", arr);
                    out.println(Json.pretty(o));
                } else if (all.isEmpty()) {
                    out.println("no MCP servers registered: add one with `toolscout mcp add` or pass --servers FILE");
                } else {
                    out.printf("%-20s %-10s %-6s %5s  %s%n", "NAME", "STATUS", "VIA", "TOOLS", "ENDPOINT / LAST ERROR");
                    for (ServerStatus s : all) {
                        out.printf(
                                "%-20s %-10s %-6s %5d  %s%n",
                                s.name(),
                                registry.isDisabled(s.name())
                                        ? "disabled"
                                        : s.state().name().toLowerCase(Locale.ROOT),
                                s.transport(),
                                s.tools(),
                                s.lastError() == null ? s.endpoint() : s.endpoint() + "  (" + s.lastError() + ")");
                    }
                }
            }
            return 0;
        }
    }

    /** {@code toolscout mcp add}: registers a server in the store (secrets sealed). */
    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = "Register an upstream MCP server; it is kept across restarts. "
                    + "Examples: mcp add memory -- npx -y @modelcontextprotocol/server-memory; "
                    + "mcp add search --url https://example.com/mcp --api-key-env SEARCH_KEY")
    static final class Add implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME", description = "Server name; its tools are named <name>__<tool>.")
        String name;

        @Parameters(
                index = "1..*",
                paramLabel = "COMMAND",
                description = "The command line of a stdio server (after --).")
        List<String> command;

        @Option(names = "--url", paramLabel = "URL", description = "The URL of a Streamable HTTP (or SSE) server.")
        URI url;

        @Option(names = "--sse", description = "The server speaks only the legacy SSE transport.")
        boolean sse;

        @Option(names = "--header", paramLabel = "NAME=VALUE", description = "An HTTP header (repeatable).")
        Map<String, String> headers = new LinkedHashMap<>();

        @Option(names = "--env", paramLabel = "NAME=VALUE", description = "An environment variable of a stdio server.")
        Map<String, String> env = new LinkedHashMap<>();

        @Option(
                names = "--api-key-env",
                paramLabel = "VAR",
                description = "Read the API key from this environment variable (keeps it out of shell history).")
        String apiKeyEnv;

        @Option(names = "--timeout", paramLabel = "SECONDS", description = "Per-request timeout (default 30).")
        Integer timeoutSeconds;

        @Option(
                names = "--allow-offline",
                description = "Store the server even when it cannot be reached now (it is retried whenever ToolScout "
                        + "starts). Without it, a server that does not answer is refused and nothing is stored.")
        boolean allowOffline;

        @Option(
                names = "--secret-arg",
                paramLabel = "FLAG|N",
                description =
                        "Also a secret (sealed, shown as ***): "
                                + "the value of this flag, or the argument at this 0-based position after the command (repeatable).")
        List<String> secretArgs = new java.util.ArrayList<>();

        @Option(
                names = "--secret-header",
                paramLabel = "NAME",
                description = "Also a secret: this header's value " + "(repeatable).")
        List<String> secretHeaders = new java.util.ArrayList<>();

        @Option(
                names = "--secret-env",
                paramLabel = "NAME",
                description = "Also a secret: this environment " + "variable's value (repeatable).")
        List<String> secretEnv = new java.util.ArrayList<>();

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            String key = null;
            if (apiKeyEnv != null) {
                key = System.getenv(apiKeyEnv);
                if (key == null || key.isBlank()) {
                    throw new IllegalArgumentException("--api-key-env " + apiKeyEnv + ": the variable is not set");
                }
            }
            ServerConfig c;
            boolean hasCommand = command != null && !command.isEmpty();
            if (url != null && hasCommand) {
                throw new IllegalArgumentException("give --url or a command, not both");
            } else if (url != null) {
                c = new ServerConfig(
                        name,
                        sse ? ServerConfig.Transport.SSE : ServerConfig.Transport.HTTP,
                        null,
                        null,
                        null,
                        null,
                        url,
                        headers,
                        key,
                        null);
            } else if (hasCommand) {
                c = new ServerConfig(
                        name,
                        ServerConfig.Transport.STDIO,
                        command.get(0),
                        command.subList(1, command.size()),
                        env,
                        null,
                        null,
                        null,
                        key,
                        null);
            } else {
                throw new IllegalArgumentException("give --url URL or a command after --, e.g. "
                        + "`toolscout mcp add memory -- npx -y @modelcontextprotocol/server-memory`");
            }
            if (timeoutSeconds != null) {
                c = c.withTimeout(Duration.ofSeconds(timeoutSeconds));
            }
            c = c.withSecretMarks(new ServerConfig.SecretMarks(secretArgs, secretHeaders, secretEnv));
            String problem = StdioCommands.problem(c);
            if (problem != null) {
                throw new IllegalArgumentException("server '" + name + "': " + problem + "; nothing was stored");
            }
            PrintWriter out = spec.commandLine().getOut();
            try (McpRuntime e = McpRuntime.open(engine.options().builder())) {
                e.start(List.of(), Duration.ZERO); // the new server gets its own wait below
                Duration wait = c.timeout().plusSeconds(5);
                ServerStatus s = e.registry().add(c, wait, allowOffline);
                String state = s.state().name().toLowerCase(Locale.ROOT);
                if (!ServerRegistry.reachable(s) && !allowOffline) {
                    PrintWriter err = spec.commandLine().getErr();
                    err.println(spec.qualifiedName() + ": error: server '" + s.name() + "' (" + s.transport()
                            + ") did not "
                            + "answer"
                            + (s.state() == ServerStatus.State.CONNECTING ? " within " + wait.toSeconds() + " s" : "")
                            + (s.lastError() == null ? "" : ": " + s.lastError())
                            + "; nothing was stored (--allow-offline stores it anyway, to be retried at every start)");
                    err.flush();
                    return 1;
                }
                out.println("registered '" + s.name() + "' (" + s.transport() + "): " + state + ", " + s.tools()
                        + " tools" + (s.lastError() == null ? "" : "; " + s.lastError()));
                return 0;
            }
        }
    }

    /** {@code toolscout mcp remove NAME}. */
    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Remove a registered MCP server and its tools.")
    static final class Remove implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (McpRuntime e = McpRuntime.open(engine.options().builder())) {
                e.start(List.of(), Duration.ZERO);
                if (!e.registry().remove(name)) {
                    throw new IllegalArgumentException("no MCP server named '" + name + "' is registered");
                }
                spec.commandLine().getOut().println("removed '" + name + "'");
            }
            return 0;
        }
    }

    /** {@code toolscout mcp disable NAME}: the server stays registered, but disconnected and without tools. */
    @Command(
            name = "disable",
            mixinStandardHelpOptions = true,
            description = "Disable an MCP server (a registered "
                    + "one, or one of --servers): it is not connected and its tools leave the catalog, across restarts, until "
                    + "`toolscout mcp enable`.")
    static final class Disable implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Mixin
        EngineOptions engine;

        @Mixin
        ServersOptions servers;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            return setDisabled(engine, servers, spec, name, true);
        }
    }

    /** {@code toolscout mcp enable NAME}. */
    @Command(name = "enable", mixinStandardHelpOptions = true, description = "Enable a disabled MCP server again.")
    static final class Enable implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Mixin
        EngineOptions engine;

        @Mixin
        ServersOptions servers;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            return setDisabled(engine, servers, spec, name, false);
        }
    }

    /** Disables or enables server {@code name}, a registered one or one of --servers; prints what it did. */
    private static int setDisabled(
            EngineOptions engine, ServersOptions servers, CommandSpec spec, String name, boolean disable)
            throws Exception {
        var declared = servers.declared();
        try (McpRuntime e = McpRuntime.open(engine.options().builder())) {
            e.start(declared, Duration.ZERO);
            var done = disable ? e.registry().disable(name) : e.registry().enable(name, Duration.ZERO);
            if (done.isEmpty()) {
                throw new IllegalArgumentException(
                        "no MCP server named '" + name + "' is registered (nor in --servers)");
            }
            spec.commandLine().getOut().println((disable ? "disabled '" : "enabled '") + name + "'");
        }
        return 0;
    }
}
