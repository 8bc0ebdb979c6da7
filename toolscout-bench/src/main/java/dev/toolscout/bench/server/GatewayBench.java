package dev.toolscout.bench.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.eval.Metrics;
import dev.toolscout.mcp.McpActions;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolNaming;
import dev.toolscout.server.cli.ToolScoutCli;
import dev.toolscout.server.http.GatewayHttpServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code toolscout bench-gateway} measurement: how much time the MCP gateway adds to a tool call, against
 * calling the same upstream server directly, all in one run on one machine.
 *
 * <p>Variants, each a real MCP client of the official Java SDK ({@link McpSyncClient}) holding its own copy
 * of the upstream server:
 *
 * <ul>
 *   <li><b>direct</b>: the SDK's {@link StdioClientTransport} starts the upstream server and calls the tool
 *       on it, as an agent without ToolScout would;
 *   <li><b>gateway_http</b>: Streamable HTTP to a {@link GatewayHttpServer} in this process, whose {@link
 *       McpGateway} calls the upstream through the {@link UpstreamManager}, by the tool's gateway name
 *       ({@code upstream__echo}) after {@code tool_discovery__find} disclosed it;
 *   <li><b>gateway_http_call_tool</b>: the same session, through {@code mcp__call_tool} instead;
 *   <li><b>upstream_manager</b>: that gateway's own upstream client ({@link UpstreamManager#callCatalogTool})
 *       called in process with no MCP server in front, which splits the gateway's time into the upstream
 *       round trip and the hop from the client;
 *   <li><b>gateway_stdio</b>: the SDK's stdio transport starts {@code toolscout mcp} in a JVM of its own (as
 *       Claude Desktop runs it), which starts the upstream; calls by the gateway name.
 * </ul>
 *
 * <p>The variants run interleaved: each round makes one call on every variant, in an order rotated every
 * round, so a busy moment of a shared machine falls on all of them alike. Every call's result is checked:
 * an error result fails the run rather than being timed as a fast answer.
 *
 * <p>The gateways open data directories under {@link Options#workDir()} holding no catalog tools but the
 * upstream's (the in-process one is opened with an empty tool list, the stdio one with an empty catalog
 * file), so the demo catalog is neither embedded nor searched. Not thread-safe: one run at a time.
 */
public final class GatewayBench {
    /** The upstream server's name in the gateways; its tools are {@code upstream__<tool>}. */
    public static final String SERVER = "upstream";
    /** The reference server the default runs, relative to the repository. */
    static final String EVERYTHING =
            "toolscout-mcp/src/test/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js";
    /** What to run when the reference server is not installed beside the build. */
    public static final String NPX_EVERYTHING = "npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration INIT_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    /**
     * @param upstream the upstream server's command line, split into words
     * @param tool the upstream tool to call, by the server's own name for it
     * @param args its arguments
     * @param calls measured calls per variant
     * @param warmup calls per variant before measuring
     * @param http whether to measure the gateway over Streamable HTTP
     * @param stdio whether to measure the gateway over stdio
     * @param workDir where the gateways' data directories go
     */
    public record Options(
            List<String> upstream,
            String tool,
            Map<String, Object> args,
            int calls,
            int warmup,
            boolean http,
            boolean stdio,
            Path workDir) {
        public Options {
            if (upstream == null || upstream.isEmpty()) {
                throw new IllegalArgumentException("--upstream must be a command line, got none");
            }
            upstream = List.copyOf(upstream);
            if (tool == null || tool.isBlank()) {
                throw new IllegalArgumentException(
                        "--tool must name a tool of the upstream server, got: '" + tool + "'");
            }
            args = args == null ? Map.of() : Map.copyOf(args);
            if (calls < 10 || calls > 1_000_000) {
                throw new IllegalArgumentException("--calls must be between 10 and 1000000, got: " + calls);
            }
            if (warmup < 0 || warmup > 1_000_000) {
                throw new IllegalArgumentException("--warmup must be between 0 and 1000000, got: " + warmup);
            }
            if (!http && !stdio) {
                throw new IllegalArgumentException("measure the gateway over http, stdio or both");
            }
        }
    }

    /** One variant's latencies, in milliseconds. */
    public record Stats(int calls, double p50, double p90, double p99, double mean) {
        static Stats of(double[] ms) {
            double sum = 0;
            for (double v : ms) {
                sum += v;
            }
            return new Stats(
                    ms.length,
                    Metrics.roundMillis(Metrics.percentile(ms, 50)),
                    Metrics.roundMillis(Metrics.percentile(ms, 90)),
                    Metrics.roundMillis(Metrics.percentile(ms, 99)),
                    Metrics.roundMillis(sum / ms.length));
        }
    }

    /**
     * The figures of one run; a variant that was not measured is {@code null}.
     *
     * @param gatewayTool the tool's name in the gateway
     */
    public record Result(
            String upstream,
            String tool,
            String gatewayTool,
            int calls,
            int warmup,
            Stats direct,
            Stats gatewayHttp,
            Stats gatewayHttpCallTool,
            Stats upstreamManager,
            Stats gatewayStdio) {}

    private final Options o;
    private final PrintWriter log;

    public GatewayBench(Options o, PrintWriter log) {
        this.o = o;
        this.log = log;
    }

    /**
     * The everything reference server installed beside this build ({@code npm ci} in toolscout-mcp/src/test/node),
     * looked for above the working directory and above this code's location; {@code null} when there is none.
     */
    public static Path installedEverything() {
        List<Path> starts = new ArrayList<>();
        starts.add(Path.of("").toAbsolutePath());
        try {
            starts.add(Path.of(GatewayBench.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            // no code location (an unusual class loader): the working directory is enough
        }
        for (Path start : starts) {
            for (Path p = start; p != null; p = p.getParent()) {
                Path f = p.resolve(EVERYTHING);
                if (Files.isRegularFile(f)) {
                    return f.normalize();
                }
            }
        }
        return null;
    }

    /** Splits a command line into words: blanks separate, single or double quotes group, no other expansion. */
    public static List<String> words(String commandLine) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < commandLine.length(); i++) {
            char c = commandLine.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("--upstream has an unclosed " + quote + " quote: " + commandLine);
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }

    /** One measured path to the tool: what it calls, how, and its samples. */
    private record Variant(String name, String tool, Supplier<McpSchema.CallToolResult> call, double[] ms) {
        static Variant of(String name, McpSyncClient client, McpSchema.CallToolRequest request, int n) {
            return new Variant(name, request.name(), () -> client.callTool(request), new double[n]);
        }
    }

    public Result run() throws Exception {
        McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
        List<AutoCloseable> open = new ArrayList<>();
        try {
            // (a) direct: the SDK's own stdio transport on the upstream, as an agent without ToolScout runs it
            Deque<String> directErr = new ArrayDeque<>();
            McpSyncClient direct = client(stdioTransport(o.upstream(), json, directErr), "direct", open, directErr);
            List<McpSchema.Tool> upstreamTools = listAll(direct);
            List<String> originals =
                    upstreamTools.stream().map(McpSchema.Tool::name).toList();
            if (!originals.contains(o.tool())) {
                throw new IllegalArgumentException(
                        "--tool: the upstream has no tool '" + o.tool() + "'; it has: " + String.join(", ", originals));
            }
            // the gateway's rule for its names of the upstream's tools, applied to the same tool list
            String gatewayName = ToolNaming.wireNames(ToolNaming.serverPrefix(SERVER), originals)
                    .get(o.tool());
            String description = upstreamTools.stream()
                    .filter(t -> t.name().equals(o.tool()))
                    .findFirst()
                    .map(McpSchema.Tool::description)
                    .orElse(null);
            String query = description == null || description.isBlank() ? o.tool() : description;

            List<Variant> variants = new ArrayList<>();
            int n = o.calls();
            variants.add(Variant.of("direct", direct, request(o.tool(), o.args()), n));

            if (o.http()) {
                // (b) an in-process gateway over Streamable HTTP, with its own copy of the upstream
                McpRuntime e = McpRuntime.open(ToolScout.builder()
                        .preloadModel(false)
                        .dataDir(o.workDir().resolve("gateway-http"))
                        .tools(List.of()));
                open.add(e);
                startUpstream(e);
                McpGateway gateway = new McpGateway(e.scout(), e.actions(), Principal.ANONYMOUS);
                open.add(gateway);
                GatewayHttpServer server = GatewayHttpServer.start(
                        gateway, GatewayAuth.local(Principal.ANONYMOUS), GatewayHttpServer.DEFAULT_HOST, 0);
                open.add(server);
                log.println("bench-gateway: in-process gateway at " + server.url());
                log.flush();
                McpClientTransport t = HttpClientStreamableHttpTransport.builder(
                                "http://" + server.address().getHostString() + ":"
                                        + server.address().getPort())
                        .endpoint(GatewayHttpServer.ENDPOINT)
                        .jsonMapper(json)
                        .build();
                McpSyncClient c = client(t, "gateway over http", open);
                disclose(c, gatewayName, query, "gateway over http");
                variants.add(Variant.of("gateway_http", c, request(gatewayName, o.args()), n));
                Map<String, Object> viaCallTool = new LinkedHashMap<>();
                viaCallTool.put("server_name", SERVER);
                viaCallTool.put("tool_name", o.tool());
                viaCallTool.put("params", o.args());
                variants.add(Variant.of("gateway_http_call_tool", c, request(McpActions.CALL, viaCallTool), n));
                // the gateway's own upstream client without the MCP server in front: splits the gateway's time into
                // the upstream round trip and the hop from the client
                UpstreamManager manager = e.registry().manager();
                variants.add(new Variant(
                        "upstream_manager",
                        gatewayName,
                        () -> manager.callCatalogTool(gatewayName, o.args()),
                        new double[n]));
            }

            if (o.stdio()) {
                // (c) `toolscout mcp` in a JVM of its own, started by the SDK's stdio transport as a desktop client
                // does
                Deque<String> gatewayErr = new ArrayDeque<>();
                McpSyncClient c = client(
                        stdioTransport(gatewayCommand(), json, gatewayErr), "gateway over stdio", open, gatewayErr);
                disclose(c, gatewayName, query, "gateway over stdio");
                variants.add(Variant.of("gateway_stdio", c, request(gatewayName, o.args()), n));
            }

            measure(variants);
            return new Result(
                    String.join(" ", o.upstream()),
                    o.tool(),
                    gatewayName,
                    n,
                    o.warmup(),
                    stats(variants, "direct"),
                    stats(variants, "gateway_http"),
                    stats(variants, "gateway_http_call_tool"),
                    stats(variants, "upstream_manager"),
                    stats(variants, "gateway_stdio"));
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                try {
                    open.get(i).close();
                } catch (Exception ex) {
                    log.println(
                            "bench-gateway: closing " + open.get(i).getClass().getSimpleName() + " failed: " + ex);
                }
            }
            log.flush();
        }
    }

    private void measure(List<Variant> variants) {
        int rounds = o.warmup() + o.calls();
        int step = Math.max(1, rounds / 10);
        log.printf(
                Locale.ROOT,
                "bench-gateway: %d warm-up + %d measured calls on each of %s, interleaved%n",
                o.warmup(),
                o.calls(),
                variants.stream().map(Variant::name).toList());
        log.flush();
        for (int i = 0; i < rounds; i++) {
            for (int j = 0; j < variants.size(); j++) {
                Variant v = variants.get((i + j) % variants.size());
                long t0 = System.nanoTime();
                McpSchema.CallToolResult r = v.call().get();
                long t1 = System.nanoTime();
                if (r == null || Boolean.TRUE.equals(r.isError())) {
                    throw new IllegalStateException(v.name() + ": " + v.tool() + " answered with an error: "
                            + (r == null ? "no result" : text(r)));
                }
                if (i >= o.warmup()) {
                    v.ms()[i - o.warmup()] = (t1 - t0) / 1e6;
                }
            }
            if ((i + 1) % step == 0) {
                log.printf(Locale.ROOT, "bench-gateway: %d/%d rounds%n", i + 1, rounds);
                log.flush();
            }
        }
    }

    private static Stats stats(List<Variant> variants, String name) {
        return variants.stream()
                .filter(v -> v.name().equals(name))
                .findFirst()
                .map(v -> Stats.of(v.ms()))
                .orElse(null);
    }

    private static McpSchema.CallToolRequest request(String tool, Map<String, Object> args) {
        return McpSchema.CallToolRequest.builder(tool).arguments(args).build();
    }

    private static McpSyncClient client(McpClientTransport t, String what, List<AutoCloseable> open) {
        return client(t, what, open, null);
    }

    private static McpSyncClient client(
            McpClientTransport t, String what, List<AutoCloseable> open, Deque<String> stderrTail) {
        McpSyncClient c = McpClient.sync(t)
                .requestTimeout(REQUEST_TIMEOUT)
                .initializationTimeout(INIT_TIMEOUT)
                .clientInfo(McpSchema.Implementation.builder("toolscout-bench-gateway", "0.1.0")
                        .build())
                .build();
        open.add(c::closeGracefully);
        try {
            c.initialize();
        } catch (RuntimeException e) {
            String err = "";
            if (stderrTail != null) {
                synchronized (stderrTail) {
                    err = String.join("\n", stderrTail);
                }
            }
            throw new IllegalStateException(
                    what + ": the MCP handshake failed: " + e.getMessage()
                            + (err.isEmpty() ? "" : "; its stderr ended with:\n" + err),
                    e);
        }
        return c;
    }

    /** The SDK's stdio transport; the last lines the process writes to stderr are kept in {@code tail}. */
    private static StdioClientTransport stdioTransport(List<String> command, McpJsonMapper json, Deque<String> tail) {
        ServerParameters p = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .build();
        StdioClientTransport t = new StdioClientTransport(p, json);
        // kept out of the output (the SDK would log every line); the tail goes into error messages
        t.setStdErrorHandler(line -> {
            synchronized (tail) {
                tail.addLast(line);
                if (tail.size() > 20) {
                    tail.removeFirst();
                }
            }
        });
        return t;
    }

    private void startUpstream(McpRuntime e) {
        ServerConfig c = ServerConfig.stdio(
                SERVER,
                o.upstream().get(0),
                o.upstream().subList(1, o.upstream().size()));
        for (UpstreamManager.Registration r : e.start(List.of(c), INIT_TIMEOUT)) {
            if (r instanceof UpstreamManager.Registration.Failure f) {
                throw new IllegalStateException("the in-process gateway cannot reach the upstream: " + f.error());
            }
        }
    }

    /** {@code java ... ToolScoutCli mcp} with this JVM's class path and flags, on an empty catalog. */
    private List<String> gatewayCommand() throws IOException {
        Path dir = o.workDir().resolve("gateway-stdio");
        Files.createDirectories(dir);
        Path servers = o.workDir().resolve("servers.json");
        ObjectNode root = JSON.createObjectNode();
        ObjectNode s = root.putObject("mcpServers").putObject(SERVER);
        s.put("command", o.upstream().get(0));
        o.upstream().subList(1, o.upstream().size()).forEach(s.putArray("args")::add);
        Files.writeString(servers, JSON.writeValueAsString(root));
        Path catalog = o.workDir().resolve("empty-catalog.json");
        Files.writeString(catalog, "{\"tools\": []}");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the flags this JVM runs with (the launcher's: class-data archive, vector module, native access), so the
        // gateway starts as a user's does; not an agent or a debugger, which would clash with this JVM's, nor a
        // class-data cache's training output, which only the launcher's training run writes
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib:")
                    && !a.startsWith("-javaagent:")
                    && !a.startsWith("-Xrunjdwp")
                    && !a.startsWith("-XX:ArchiveClassesAtExit")
                    && !a.startsWith("-XX:AOTCacheOutput")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                ToolScoutCli.class.getName(),
                "mcp",
                "--servers",
                servers.toString(),
                "--data-dir",
                dir.toString(),
                "--catalog",
                catalog.toString()));
        return cmd;
    }

    /**
     * Finds the tool with {@code tool_discovery__find}, as a client following the gateway's instructions does,
     * and checks that it is in the session's tool list afterwards.
     */
    private void disclose(McpSyncClient c, String gatewayName, String query, String what) {
        McpSchema.CallToolResult found =
                c.callTool(request("tool_discovery__find", Map.of("query", query, "limit", 50)));
        if (Boolean.TRUE.equals(found.isError())) {
            throw new IllegalStateException(what + ": tool_discovery__find failed: " + text(found));
        }
        List<String> listed = listAll(c).stream().map(McpSchema.Tool::name).toList();
        if (!listed.contains(gatewayName)) {
            throw new IllegalStateException(
                    what + ": tool_discovery__find did not disclose " + gatewayName + "; the session lists " + listed);
        }
    }

    private static List<McpSchema.Tool> listAll(McpSyncClient c) {
        List<McpSchema.Tool> out = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 100; page++) {
            McpSchema.ListToolsResult r = c.listTools(cursor);
            out.addAll(r.tools());
            cursor = r.nextCursor();
            if (cursor == null || cursor.isEmpty()) {
                break;
            }
        }
        return out;
    }

    private static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        if (r.content() != null) {
            for (McpSchema.Content c : r.content()) {
                if (c instanceof McpSchema.TextContent t) {
                    sb.append(t.text());
                }
            }
        }
        String s = sb.toString();
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
