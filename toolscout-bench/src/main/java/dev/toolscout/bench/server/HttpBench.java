package dev.toolscout.bench.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Principal;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The query embedding alone, the in-process {@link ToolScout#select} and {@code POST /v1/select} at the same
 * concurrency, in one run, on one engine served by the same Jetty and API as {@code toolscout serve} on a loopback
 * port and called by the JDK's HTTP client (HTTP/1.1, connections kept alive between requests). "Embedding alone" is
 * the engine's own model called directly ({@code embedQuery}, the one model call a one-clause selection makes) from
 * as many client threads. For each number of clients every variant runs in each round, in an order that rotates from round to round, so that warm-up, JIT and the
 * machine's other load fall on all alike. Each client sends its next request when the last one is answered;
 * throughput is requests over the wall time of the rounds, the percentiles are over every request's own latency.
 * Not thread-safe; one run per instance.
 */
public final class HttpBench {
    /**
     * What to run.
     *
     * @param tools 0 for the bundled demo catalog, else a synthetic catalog of that many tools
     * @param clients the concurrency levels, e.g. 1, 8, 32
     * @param requests measured requests per variant and level
     * @param warmup warm-up requests per variant and level
     * @param rounds how many alternating rounds the measured requests are split into
     */
    public record Options(
            int tools, List<Integer> clients, int requests, int warmup, int rounds, Path workDir, long seed) {
        public Options {
            clients = List.copyOf(clients);
            if (clients.isEmpty() || clients.stream().anyMatch(c -> c < 1 || c > 256)) {
                throw new IllegalArgumentException("--clients must be 1 to 256 each, got: " + clients);
            }
            if (requests < 1 || warmup < 0 || rounds < 1 || tools < 0) {
                throw new IllegalArgumentException(
                        "--requests must be at least 1 and --warmup, --tools at least 0, got: " + requests + ", "
                                + warmup + ", " + tools);
            }
        }
    }

    /**
     * One variant at one concurrency.
     *
     * @param cpuMs this process's CPU time per request (every thread: the clients', the server's, the JIT's and the
     *     GC's), the figure other load on the machine changes least; over HTTP it includes the client's side
     */
    public record Figures(double perSecond, double p50Ms, double p99Ms, double cpuMs) {
        public Figures(double perSecond, double p50Ms, double p99Ms) {
            this(perSecond, p50Ms, p99Ms, Double.NaN);
        }
    }

    /**
     * The variants at one concurrency; {@code ratio} is HTTP
     * throughput over in-process throughput.
     *
     * @param embedOnly the query embedding alone, called directly from as many threads
     */
    public record Level(int clients, Figures inProcess, Figures http, Figures embedOnly) {
        public double ratio() {
            return http.perSecond() / inProcess.perSecond();
        }

        /** In-process selections/s over embeddings/s. */
        public double inProcessOverEmbed() {
            return inProcess.perSecond() / embedOnly.perSecond();
        }

        /** HTTP selections/s over embeddings/s. */
        public double httpOverEmbed() {
            return http.perSecond() / embedOnly.perSecond();
        }
    }

    public record Result(int tools, int requests, List<Level> levels) {}

    /**
     * {@code POST /v1/select} against running servers (replicas behind no balancer): each client's requests go to
     * {@code baseUrls} in turn, by request number. Throughput and latency over all, per number of clients; no
     * in-process variant (the servers are other processes).
     *
     * @param apiKey sent as {@code Authorization: Bearer}, or null
     */
    public List<Figures> runAgainst(List<URI> baseUrls, String apiKey) throws Exception {
        List<String> queries = SyntheticCatalog.queries(Math.max(200, o.requests()), o.seed() + 1);
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30))
                .build();
        List<URI> selects = baseUrls.stream()
                .map(u -> URI.create(u.toString().replaceAll("/+$", "") + "/v1/select"))
                .toList();
        Call overHttp = postSelect(client, selects, apiKey);
        List<Figures> out = new ArrayList<>();
        for (int c : o.clients()) {
            Samples over = new Samples();
            try (ExecutorService pool = clients(c)) {
                phase(pool, overHttp, c, o.warmup(), queries);
                for (int round = 0; round < o.rounds(); round++) {
                    over.add(phase(pool, overHttp, c, perRound(), queries));
                }
            }
            Figures f = over.figures();
            progress.printf(
                    java.util.Locale.ROOT,
                    "bench-http: %d clients over %d server(s): %.0f/s, p99 %.1f ms%n",
                    c,
                    selects.size(),
                    f.perSecond(),
                    f.p99Ms());
            progress.flush();
            out.add(f);
        }
        return out;
    }

    private final Options o;
    private final PrintWriter progress;

    public HttpBench(Options o, PrintWriter progress) {
        this.o = o;
        this.progress = progress;
    }

    public Result run() throws Exception {
        Path dataDir = o.workDir().resolve("data");
        List<String> queries = SyntheticCatalog.queries(Math.max(200, o.requests()), o.seed() + 1);
        GatewayAuth auth = GatewayAuth.local(Principal.ANONYMOUS);
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30))
                .build();
        ToolScout.Builder b = ToolScout.builder().dataDir(dataDir).preloadModel(false);
        if (o.tools() > 0) {
            progress.println("bench-http: embedding " + o.tools() + " synthetic tools (once per work directory)");
            progress.flush();
            b.tools(SyntheticCatalog.tools(o.tools(), o.seed()));
        }
        try (ToolScout scout = b.build()) {
            scout.rankingParts().model().embedQuery("warm up the model");
            HttpApi api = new HttpApi(auth, HttpApi.Options.DEFAULT);
            try (GatewayHttpServer http = GatewayHttpServer.start(null, auth, GatewayHttpServer.DEFAULT_HOST, 0, api)) {
                api.open(new ApiBackend(scout, null));
                List<Call> calls = calls(scout, http, client);
                List<Level> levels = new ArrayList<>();
                for (int c : o.clients()) {
                    levels.add(level(c, calls, queries));
                }
                return new Result(scout.size(), perRound() * o.rounds(), levels);
            }
        }
    }

    /** Embedding alone, in-process selection and HTTP selection on one engine. */
    private static List<Call> calls(ToolScout scout, GatewayHttpServer http, HttpClient client) {
        var model = scout.rankingParts().model();
        Call embed = (q, i) -> model.embedQuery(q);
        Call inProcess = (q, i) -> scout.select(SelectRequest.of(q));
        return List.of(embed, inProcess, postSelect(client, List.of(URI.create(http.baseUrl() + "/v1/select")), null));
    }

    /** {@code POST /v1/select} with the query as its message, to {@code selects} in turn by request number. */
    private static Call postSelect(HttpClient client, List<URI> selects, String apiKey) {
        return (q, i) -> {
            URI select = selects.get(i % selects.size());
            HttpRequest.Builder r = HttpRequest.newBuilder(select)
                    .timeout(Duration.ofMinutes(2))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JsonNodeFactory.instance
                            .objectNode()
                            .put("message", q)
                            .toString()));
            if (apiKey != null) {
                r.header("Authorization", "Bearer " + apiKey);
            }
            HttpResponse<String> resp = client.send(r.build(), HttpResponse.BodyHandlers.ofString());
            if (resp.statusCode() != 200) {
                throw new IllegalStateException(
                        "POST " + select + " answered " + resp.statusCode() + ": " + resp.body());
            }
        };
    }

    /** Every variant at {@code c} clients, interleaved in rounds. */
    private Level level(int c, List<Call> calls, List<String> queries) throws Exception {
        progress.println("bench-http: " + c + " client" + (c == 1 ? "" : "s") + ": warming up");
        progress.flush();
        int cells = calls.size();
        List<Samples> samples = new ArrayList<>();
        List<ExecutorService> pools = new ArrayList<>();
        try {
            // one pool per cell, so each variant's threads are warm in its own way
            for (int cell = 0; cell < cells; cell++) {
                pools.add(clients(c));
                samples.add(new Samples());
            }
            for (int cell = 0; cell < cells; cell++) {
                phase(pools.get(cell), calls.get(cell), c, o.warmup(), queries);
            }
            int perRound = perRound();
            for (int round = 0; round < o.rounds(); round++) {
                // the order rotates, and reverses every other round, so no cell always runs on the warmer machine
                for (int k = 0; k < cells; k++) {
                    int shifted = (k + round / 2) % cells;
                    int cell = round % 2 == 0 ? shifted : cells - 1 - shifted;
                    samples.get(cell).add(phase(pools.get(cell), calls.get(cell), c, perRound, queries));
                }
            }
        } finally {
            pools.forEach(ExecutorService::close);
        }
        // the cells in the order of calls(): embed-only, in-process, HTTP
        Level l = new Level(
                c,
                samples.get(1).figures(),
                samples.get(2).figures(),
                samples.get(0).figures());
        progress.printf(
                java.util.Locale.ROOT,
                "bench-http: %d clients: embed-only %.0f/s, in-process %.0f/s (%.2fx), HTTP %.0f/s (%.2fx)%n",
                c,
                l.embedOnly().perSecond(),
                l.inProcess().perSecond(),
                l.inProcessOverEmbed(),
                l.http().perSecond(),
                l.httpOverEmbed());
        progress.flush();
        return l;
    }

    static ExecutorService clients(int n) {
        AtomicInteger id = new AtomicInteger();
        return Executors.newFixedThreadPool(
                n,
                r -> Thread.ofPlatform()
                        .name("bench-client-" + id.getAndIncrement())
                        .unstarted(r));
    }

    private int perRound() {
        return Math.max(1, o.requests() / o.rounds());
    }

    /** One request: {@code query}, the phase's {@code i}-th. */
    @FunctionalInterface
    interface Call {
        void run(String query, int i) throws Exception;
    }

    /**
     * One phase: {@code n} requests in all from the {@code clients} threads of {@code pool}, each request's latency
     * and the wall time. The threads outlive the phase, as an application's do: a thread's first selection pays for
     * state it keeps (the model's buffers, say), which a fresh thread per phase would charge to every phase.
     */
    static Phase phase(ExecutorService pool, Call call, int clients, int n, List<String> queries)
            throws InterruptedException {
        long[] latencies = new long[n];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(clients);
        for (int t = 0; t < clients; t++) {
            pool.execute(() -> {
                try {
                    ready.countDown();
                    start.await();
                    for (int i; (i = next.getAndIncrement()) < n && failure.get() == null; ) {
                        long t0 = System.nanoTime();
                        call.run(queries.get(i % queries.size()), i);
                        latencies[i] = System.nanoTime() - t0;
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            });
        }
        ready.await();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        start.countDown();
        done.await();
        long wall = System.nanoTime() - t0;
        long cpu = processCpuNanos() - cpu0;
        if (failure.get() != null) {
            throw new IllegalStateException("a request failed: " + failure.get().getMessage(), failure.get());
        }
        return new Phase(latencies, wall, cpu);
    }

    /** This process's CPU time so far, all threads; -1 where the JVM cannot tell. */
    private static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : -1;
    }

    record Phase(long[] latencies, long wallNanos, long cpuNanos) {}

    /** The phases of one variant at one level, added up. */
    private static final class Samples {
        private final List<long[]> latencies = new ArrayList<>();
        private long wall;
        private long cpu;
        private int count;

        void add(Phase p) {
            latencies.add(p.latencies());
            wall += p.wallNanos();
            cpu += p.cpuNanos();
            count += p.latencies().length;
        }

        Figures figures() {
            long[] all =
                    latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            return new Figures(count / (wall / 1e9), percentile(all, 50), percentile(all, 99), cpu / 1e6 / count);
        }

        private static double percentile(long[] sorted, int p) {
            int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
        }
    }
}
