package dev.toolscout.bench.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.bench.server.HttpBench;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout bench-http}: {@code POST /v1/select} against the in-process selection and the query embedding
 * alone, side by side.
 */
@Command(
        name = "bench-http",
        mixinStandardHelpOptions = true,
        description = "Measure POST /v1/select (the HTTP API of `serve`, in process on a loopback port) against the "
                + "in-process selection and the query embedding alone at the same concurrency, interleaved in one run: "
                + "throughput, p50 and p99 per number of clients, and the ratios. Progress goes to stderr. See "
                + "docs/BENCHMARKS.md.")
final class BenchHttpCommand implements Callable<Integer> {
    enum Format {
        table,
        json
    }

    @Option(
            names = "--tools",
            paramLabel = "N",
            defaultValue = "0",
            description = "A synthetic catalog of N tools; 0 for the bundled demo catalog (default: ${DEFAULT-VALUE}).")
    int tools;

    @Option(
            names = "--clients",
            split = ",",
            paramLabel = "N,N,...",
            defaultValue = "1,8,32,128",
            description = "Concurrent clients (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(
            names = "--requests",
            paramLabel = "N",
            defaultValue = "4000",
            description = "Measured requests per variant and number of clients (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(
            names = "--warmup",
            paramLabel = "N",
            defaultValue = "1000",
            description = "Warm-up requests per variant and number of clients (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(
            names = "--rounds",
            paramLabel = "N",
            defaultValue = "4",
            description = "Alternating rounds the measured requests are split into (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Where the data directory goes; reusing one skips embedding (default: a new temporary folder).")
    Path workDir;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(
            names = "--url",
            paramLabel = "BASE_URL",
            description =
                    "A running server's base URL (e.g. http://10.0.0.11:8765), repeatable: measure POST /v1/select "
                            + "against these servers instead, each client's requests going to them in turn (replicas on one store, "
                            + "docs/DEPLOYMENT.md); no in-process variant.")
    List<java.net.URI> urls;

    @Option(
            names = "--api-key",
            paramLabel = "KEY",
            description = "With --url: the API key to send (default: " + "$TOOLSCOUT_API_KEY, else none).")
    String apiKey;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        HttpBench.Options options = new HttpBench.Options(
                tools,
                clients,
                requests,
                warmup,
                rounds,
                workDir != null ? workDir : Files.createTempDirectory("toolscout-bench-http"),
                seed);
        PrintWriter err = spec.commandLine().getErr();
        if (urls != null && !urls.isEmpty()) {
            for (java.net.URI u : urls) {
                if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                    throw new IllegalArgumentException(
                            "--url must be an http(s) base URL such as http://127.0.0.1:8765, got: '" + u + "'");
                }
            }
            String key = apiKey != null ? apiKey : System.getenv("TOOLSCOUT_API_KEY");
            List<HttpBench.Figures> figures = new HttpBench(options, err).runAgainst(urls, key);
            PrintWriter out = spec.commandLine().getOut();
            ObjectNode n = JsonNodeFactory.instance.objectNode();
            ArrayNode u = n.putArray("urls");
            urls.forEach(x -> u.add(x.toString()));
            ArrayNode levels = n.putArray("levels");
            for (int i = 0; i < figures.size(); i++) {
                levels.addObject()
                        .put("clients", clients.get(i))
                        .put("per_s", round(figures.get(i).perSecond()))
                        .put("p50_ms", round(figures.get(i).p50Ms()))
                        .put("p99_ms", round(figures.get(i).p99Ms()));
            }
            out.println(Json.pretty(n));
            out.flush();
            return 0;
        }
        err.println("bench-http: working in " + options.workDir());
        HttpBench.Result r = new HttpBench(options, err).run();
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) {
            out.println(Json.pretty(json(r)));
        } else {
            out.printf(
                    Locale.ROOT,
                    "POST /v1/select against in-process select and the query embedding alone, %,d tools, %,d requests"
                            + " per cell (cpu: the process's CPU ms per request)%n",
                    r.tools(),
                    r.requests());
            out.printf(
                    Locale.ROOT,
                    "%8s %14s %10s %10s %14s %10s %10s %7s %13s %10s %10s %9s %9s %9s %9s %9s%n",
                    "clients",
                    "in-proc req/s",
                    "p50 ms",
                    "p99 ms",
                    "HTTP req/s",
                    "p50 ms",
                    "p99 ms",
                    "ratio",
                    "embed req/s",
                    "p50 ms",
                    "p99 ms",
                    "in/embed",
                    "HTTP/emb",
                    "in cpu",
                    "HTTP cpu",
                    "emb cpu");
            for (HttpBench.Level l : r.levels()) {
                out.printf(
                        Locale.ROOT,
                        "%8d %14.1f %10.2f %10.2f %14.1f %10.2f %10.2f %6.2fx %13.1f %10.2f %10.2f %8.2fx %8.2fx %9.2f %9.2f %9.2f%n",
                        l.clients(),
                        l.inProcess().perSecond(),
                        l.inProcess().p50Ms(),
                        l.inProcess().p99Ms(),
                        l.http().perSecond(),
                        l.http().p50Ms(),
                        l.http().p99Ms(),
                        l.ratio(),
                        l.embedOnly().perSecond(),
                        l.embedOnly().p50Ms(),
                        l.embedOnly().p99Ms(),
                        l.inProcessOverEmbed(),
                        l.httpOverEmbed(),
                        l.inProcess().cpuMs(),
                        l.http().cpuMs(),
                        l.embedOnly().cpuMs());
            }
        }
        out.flush();
        return 0;
    }

    static ObjectNode json(HttpBench.Result r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("tools", r.tools());
        n.put("requests", r.requests());
        ArrayNode levels = n.putArray("levels");
        for (HttpBench.Level l : r.levels()) {
            ObjectNode o = levels.addObject();
            o.put("clients", l.clients());
            o.put("in_process_per_s", round(l.inProcess().perSecond()));
            o.put("in_process_p50_ms", round(l.inProcess().p50Ms()));
            o.put("in_process_p99_ms", round(l.inProcess().p99Ms()));
            o.put("http_per_s", round(l.http().perSecond()));
            o.put("http_p50_ms", round(l.http().p50Ms()));
            o.put("http_p99_ms", round(l.http().p99Ms()));
            o.put("ratio", Math.round(l.ratio() * 100) / 100.0);
            o.put("embed_per_s", round(l.embedOnly().perSecond()));
            o.put("embed_p50_ms", round(l.embedOnly().p50Ms()));
            o.put("embed_p99_ms", round(l.embedOnly().p99Ms()));
            o.put("in_process_over_embed", Math.round(l.inProcessOverEmbed() * 100) / 100.0);
            o.put("http_over_embed", Math.round(l.httpOverEmbed() * 100) / 100.0);
            // CPU ms per request of the whole process: what other load on the machine changes least
            o.put("embed_cpu_ms", round(l.embedOnly().cpuMs()));
            o.put("in_process_cpu_ms", round(l.inProcess().cpuMs()));
            o.put("http_cpu_ms", round(l.http().cpuMs()));
        }
        return n;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
