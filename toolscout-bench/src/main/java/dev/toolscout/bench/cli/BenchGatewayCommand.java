package dev.toolscout.bench.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.bench.server.GatewayAbuseBench;
import dev.toolscout.bench.server.GatewayBench;
import dev.toolscout.eval.Metrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolscout bench-gateway}: the MCP gateway's call-through overhead against calling the upstream directly. */
@Command(
        name = "bench-gateway",
        mixinStandardHelpOptions = true,
        description = "Measure what the MCP gateway adds to a tool call: the same upstream tool called directly (MCP "
                + "Java SDK over stdio) and through the gateway (Streamable HTTP, in process; stdio, `toolscout mcp` in its "
                + "own JVM), interleaved in one run. Progress goes to stderr. See docs/BENCHMARKS.md.")
final class BenchGatewayCommand implements Callable<Integer> {
    enum Format {
        table,
        json
    }

    enum Transport {
        stdio,
        http,
        both
    }

    @Option(
            names = "--upstream",
            paramLabel = "COMMAND",
            description = "The upstream MCP server's command line (default: node and the everything reference server "
                    + "installed in toolscout-mcp/src/test/node; without it, e.g. \"" + GatewayBench.NPX_EVERYTHING
                    + "\").")
    String upstream;

    @Option(
            names = "--tool",
            paramLabel = "NAME",
            defaultValue = "echo",
            description = "The upstream tool to call (default: ${DEFAULT-VALUE}).")
    String tool;

    @Option(
            names = "--args",
            paramLabel = "JSON",
            defaultValue = "{\"message\":\"hello\"}",
            description = "The tool's arguments, a JSON object (default: ${DEFAULT-VALUE}).")
    String args;

    @Option(
            names = "--calls",
            paramLabel = "N",
            defaultValue = "2000",
            description = "Measured calls per variant (default: ${DEFAULT-VALUE}).")
    int calls;

    @Option(
            names = "--warmup",
            paramLabel = "N",
            defaultValue = "500",
            description = "Warm-up calls per variant (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(
            names = "--transport",
            paramLabel = "stdio|http|both",
            defaultValue = "both",
            description = "The gateway's transport to measure: stdio, http or both (default: ${DEFAULT-VALUE}).")
    Transport transport;

    @Option(
            names = "--format",
            paramLabel = "table|json",
            defaultValue = "table",
            description = "table or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Where the gateways' data directories go (default: a new temporary folder, removed after).")
    Path dataDir;

    enum Abuse {
        sessions,
        query_size,
        hanging
    }

    @Option(
            names = "--abuse",
            paramLabel = "sessions|query_size|hanging",
            description =
                    "Instead: what an abusive client costs a running gateway (--url, --pid): abandoned sessions, "
                            + "oversized find queries, or calls to a hanging tool while another client finds (docs/SECURITY.md).")
    Abuse abuse;

    @Option(names = "--url", paramLabel = "URL", description = "--abuse: the gateway, e.g. http://127.0.0.1:8765/mcp.")
    java.net.URI url;

    @Option(
            names = "--pid",
            paramLabel = "PID",
            description = "--abuse: the gateway's process id (memory, files, CPU).")
    Long pid;

    @Option(
            names = "--sessions",
            paramLabel = "N",
            defaultValue = "2000",
            description = "--abuse sessions: sessions to open and abandon (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(
            names = "--wait",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description = "--abuse sessions: how long to wait for them to be freed (default ${DEFAULT-VALUE}).")
    int waitSeconds;

    @Option(
            names = "--query-sizes",
            paramLabel = "SIZES",
            defaultValue = "16k,64k,1m",
            description = "--abuse query_size: find query sizes in characters (default ${DEFAULT-VALUE}).")
    String querySizes;

    @Option(
            names = "--hanging-calls",
            paramLabel = "N",
            defaultValue = "80",
            description = "--abuse hanging: concurrent calls to the hanging tool (default ${DEFAULT-VALUE}).")
    int hangingCalls;

    @Option(
            names = "--hanging-server",
            paramLabel = "NAME",
            defaultValue = "hang",
            description = "--abuse hanging: the upstream server whose --tool never answers (default ${DEFAULT-VALUE}; "
                    + "toolscout-mcp/src/test/node/faults/hang.mjs, tool slow_lookup).")
    String hangingServer;

    @Option(
            names = "--window",
            paramLabel = "SECONDS",
            defaultValue = "20",
            description = "--abuse hanging: how long the other client finds (default ${DEFAULT-VALUE}).")
    int window;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (abuse != null) {
            if (url == null || pid == null) {
                throw new IllegalArgumentException("--abuse needs the running gateway's --url and --pid");
            }
            GatewayAbuseBench b =
                    new GatewayAbuseBench(url, pid, spec.commandLine().getErr());
            ObjectNode r = switch (abuse) {
                case sessions -> b.sessions(sessions, java.time.Duration.ofSeconds(waitSeconds));
                case query_size -> b.querySizes(GatewayAbuseBench.sizes(querySizes));
                case hanging ->
                    b.hanging(
                            hangingServer,
                            "echo".equals(tool) ? "slow_lookup" : tool,
                            hangingCalls,
                            java.time.Duration.ofSeconds(window));
            };
            spec.commandLine().getOut().println(Json.pretty(r));
            spec.commandLine().getOut().flush();
            return 0;
        }
        Map<String, Object> arguments = parseArgs(args);
        List<String> command;
        if (upstream != null) {
            command = GatewayBench.words(upstream);
        } else {
            Path everything = GatewayBench.installedEverything();
            if (everything == null) {
                throw new IllegalArgumentException("the everything reference server is not installed beside this build "
                        + "(npm ci in toolscout-mcp/src/test/node); pass --upstream, e.g. --upstream \""
                        + GatewayBench.NPX_EVERYTHING + "\"");
            }
            command = List.of("node", everything.toString(), "stdio");
        }
        boolean temporary = dataDir == null;
        Path dir = temporary ? Files.createTempDirectory("toolscout-bench-gateway") : dataDir.toAbsolutePath();
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench-gateway: upstream " + String.join(" ", command) + "; working in " + dir);
        err.flush();
        GatewayBench.Result r;
        try {
            r = new GatewayBench(
                            new GatewayBench.Options(
                                    command,
                                    tool,
                                    arguments,
                                    calls,
                                    warmup,
                                    transport != Transport.stdio,
                                    transport != Transport.http,
                                    dir),
                            err)
                    .run();
        } finally {
            if (temporary) {
                deleteQuietly(dir);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) {
            out.println(Json.pretty(json(r)));
        } else {
            table(r, out);
        }
        out.flush();
        return 0;
    }

    private static Map<String, Object> parseArgs(String s) {
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(s);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "--args must be a JSON object, got: " + s + " (" + e.getOriginalMessage() + ")", e);
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("--args must be a JSON object, got: " + s);
        }
        return Json.MAPPER.convertValue(n, new TypeReference<Map<String, Object>>() {});
    }

    static ObjectNode json(GatewayBench.Result r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("calls", r.calls());
        n.put("warmup", r.warmup());
        n.put("upstream", r.upstream());
        n.put("tool", r.tool());
        n.put("gateway_tool", r.gatewayTool());
        n.set("direct", stats(r.direct(), null));
        if (r.gatewayHttp() != null) {
            n.set("gateway_http", stats(r.gatewayHttp(), r.direct()));
            n.set("gateway_http_call_tool", stats(r.gatewayHttpCallTool(), r.direct()));
            n.set("upstream_manager", stats(r.upstreamManager(), r.direct()));
        }
        if (r.gatewayStdio() != null) {
            n.set("gateway_stdio", stats(r.gatewayStdio(), r.direct()));
        }
        return n;
    }

    private static ObjectNode stats(GatewayBench.Stats s, GatewayBench.Stats direct) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("p50_ms", s.p50());
        o.put("p90_ms", s.p90());
        o.put("p99_ms", s.p99());
        o.put("mean_ms", s.mean());
        if (direct != null) {
            o.put("overhead_p50_ms", Metrics.roundMillis(s.p50() - direct.p50()));
            o.put("overhead_p99_ms", Metrics.roundMillis(s.p99() - direct.p99()));
            o.put("ratio_p50", Math.round(s.p50() / direct.p50() * 100) / 100.0);
        }
        return o;
    }

    private static void table(GatewayBench.Result r, PrintWriter out) {
        out.printf(
                Locale.ROOT,
                "upstream: %s%ntool: %s (through the gateway: %s), %,d calls per variant after %,d "
                        + "warm-up, interleaved%n%n",
                r.upstream(),
                r.tool(),
                r.gatewayTool(),
                r.calls(),
                r.warmup());
        out.printf(
                Locale.ROOT,
                "%-34s %9s %9s %9s %9s %11s %11s %7s%n",
                "variant",
                "p50 ms",
                "p90 ms",
                "p99 ms",
                "mean ms",
                "+p50 ms",
                "+p99 ms",
                "x p50");
        row(out, "direct (SDK stdio client)", r.direct(), null);
        if (r.gatewayHttp() != null) {
            row(out, "gateway http, " + r.gatewayTool(), r.gatewayHttp(), r.direct());
            row(out, "gateway http, mcp__call_tool", r.gatewayHttpCallTool(), r.direct());
            row(out, "(gateway's upstream client alone)", r.upstreamManager(), r.direct());
        }
        if (r.gatewayStdio() != null) {
            row(out, "gateway stdio, " + r.gatewayTool(), r.gatewayStdio(), r.direct());
        }
    }

    private static void row(PrintWriter out, String name, GatewayBench.Stats s, GatewayBench.Stats direct) {
        if (direct == null) {
            out.printf(
                    Locale.ROOT,
                    "%-34s %9.3f %9.3f %9.3f %9.3f %11s %11s %7s%n",
                    name,
                    s.p50(),
                    s.p90(),
                    s.p99(),
                    s.mean(),
                    "",
                    "",
                    "");
        } else {
            out.printf(
                    Locale.ROOT,
                    "%-34s %9.3f %9.3f %9.3f %9.3f %+11.3f %+11.3f %7.2f%n",
                    name,
                    s.p50(),
                    s.p90(),
                    s.p99(),
                    s.mean(),
                    s.p50() - direct.p50(),
                    s.p99() - direct.p99(),
                    s.p50() / direct.p50());
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }
}
