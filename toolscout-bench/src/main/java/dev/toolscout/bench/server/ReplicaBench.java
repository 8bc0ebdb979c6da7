package dev.toolscout.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.server.cli.ToolScoutCli;
import dev.toolscout.store.PostgresStateStore;
import dev.toolscout.store.PostgresUrl;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replicas of {@code toolscout serve} on one PostgreSQL store, each its own process (this JVM's class path): the lag
 * from one replica's acknowledgement of a tool to another's first selection that includes it; a replica killed with
 * SIGKILL and restarted (texts embedded, time to ready); replicas started at once on a store of many tools (texts
 * embedded, time to ready); and {@code POST /v1/select} load spread over 1, 2, 3 replicas. Every run works in a new
 * schema of the given database and drops it at the end. Not thread-safe; one run per instance.
 */
public final class ReplicaBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What to run.
     *
     * @param database a PostgreSQL database ({@code postgresql://user@host:port/db}); the bench makes and drops its
     *     own schemas in it
     * @param writes tools written through replica A for the lag figures
     * @param startTools the size of the store the replicas start on at once (0: skip that part)
     * @param replicas the replica counts of the load run
     * @param clients concurrent clients of the load run
     * @param requests measured requests per replica count
     */
    public record Options(
            String database,
            int writes,
            int startTools,
            List<Integer> replicas,
            int clients,
            int requests,
            int warmup,
            Path workDir,
            long seed) {
        public Options {
            PostgresUrl.parse(database);
            replicas = List.copyOf(replicas);
            if (writes < 1
                    || startTools < 0
                    || clients < 1
                    || requests < 1
                    || warmup < 0
                    || replicas.stream().anyMatch(n -> n < 1 || n > 3)) {
                throw new IllegalArgumentException(
                        "--writes, --clients and --requests must be at least 1, --start-tools and "
                                + "--warmup at least 0, --replicas 1 to 3 each; got: " + writes + ", " + clients + ", "
                                + requests + ", "
                                + startTools + ", " + warmup + ", " + replicas);
            }
        }
    }

    /**
     * Lag percentiles (ms) over {@code writes}; B's catch-up of those writes by stage, from its {@code /metrics}; and
     * the texts B and C embedded meanwhile (0: every vector came from the store, as A stored it).
     */
    public record Lag(
            int writes, double p50Ms, double p99Ms, double maxMs, List<Stage> stages, long textsEmbeddedByReaders) {}

    /**
     * One stage of B's catch-up over the lag's writes ({@code toolscout_replica_catchup_seconds}, see the server's
     * metrics): how many changes it timed, the mean, and p50 and p99 as the upper bound of the histogram bucket they
     * fall in (buckets 0.5 ms to 10 s, about 1.5x apart).
     */
    public record Stage(String stage, long count, double meanMs, double p50Ms, double p99Ms) {}

    /** A replica's start: seconds from process start to {@code /readyz} 200, and texts it embedded. */
    public record Start(String replica, double readySeconds, long textsEmbedded) {}

    /** Load over {@code replicas} replicas: throughput, latency, and each replica's share. */
    public record Load(int replicas, double perSecond, double p50Ms, double p99Ms, List<Double> p99MsPerReplica) {}

    public record Result(
            Lag lag,
            Start restartAfterKill,
            int writesWhileKilled,
            List<Start> startedAtOnce,
            int startTools,
            List<Load> load) {}

    private final Options o;
    private final PrintWriter progress;
    private final String key = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            .build();

    public ReplicaBench(Options o, PrintWriter progress) {
        this.o = o;
        this.progress = progress;
    }

    private void say(String line) {
        progress.println("bench-replicas: " + line);
        progress.flush();
    }

    public Result run() throws Exception {
        Files.createDirectories(o.workDir());
        Path keys = o.workDir().resolve("keys.json");
        Files.writeString(keys, "{\"keys\": [{\"key\": \"" + key + "\", \"user\": \"bench\", \"role\": \"admin\"}]}");
        Files.setPosixFilePermissions(keys, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        String schema = newSchema();
        List<Proc> procs = new ArrayList<>();
        try {
            String store = withSchema(schema);
            say("starting replica a on a new store (it embeds the demo catalog)");
            Proc a = start("a", store, keys, procs).awaitReady();
            say("starting replicas b and c");
            Proc b = start("b", store, keys, procs);
            Proc c = start("c", store, keys, procs);
            b.awaitReady();
            c.awaitReady();
            Lag lag = lag(a, b, c);
            say(String.format(
                    Locale.ROOT,
                    "lag over %d writes: p50 %.0f ms, p99 %.0f ms; texts embedded by b and c meanwhile: %d",
                    lag.writes(),
                    lag.p50Ms(),
                    lag.p99Ms(),
                    lag.textsEmbeddedByReaders()));
            say("b's catch-up by stage (p50 and p99 are histogram bucket bounds):");
            say("| stage | changes | mean ms | p50 ms | p99 ms |");
            say("|---|---|---|---|---|");
            for (Stage st : lag.stages()) {
                say(String.format(
                        Locale.ROOT,
                        "| %s | %d | %.1f | %s | %s |",
                        st.stage(),
                        st.count(),
                        st.meanMs(),
                        bucket(st.p50Ms()),
                        bucket(st.p99Ms())));
            }
            // kill -9 of b while a writes, then a restart: it catches up from the store
            int whileKilled = 20;
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < whileKilled; i++) {
                        putTool(
                                a,
                                "killed__tool_" + i,
                                "Archive the quarterly compliance report number " + i + " for the auditors.");
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(200);
            b.kill();
            writer.join();
            long t0 = System.nanoTime();
            b.start().awaitReady();
            Start restart =
                    new Start("b", (System.nanoTime() - t0) / 1e9, (long) metric(b, "toolscout_texts_embedded"));
            awaitSelected(
                    b,
                    "archive the quarterly compliance report number " + (whileKilled - 1) + " for the auditors",
                    "killed__tool_" + (whileKilled - 1));
            say("b restarted after kill -9: ready in " + String.format(Locale.ROOT, "%.1f", restart.readySeconds())
                    + " s, " + restart.textsEmbedded() + " texts embedded");
            List<Load> load = new ArrayList<>();
            for (int n : o.replicas()) {
                load.add(load(procs.subList(0, n)));
            }
            for (Proc p : procs) {
                p.close();
            }
            procs.clear();
            List<Start> atOnce = o.startTools() > 0 ? startAtOnce(keys, procs) : List.of();
            return new Result(lag, restart, whileKilled, atOnce, o.startTools(), load);
        } finally {
            for (Proc p : procs) {
                p.close();
            }
            dropSchemas();
        }
    }

    private Lag lag(Proc a, Proc b, Proc c) throws Exception {
        Map<String, double[]> before = histograms(b);
        double embeddedBefore = metric(b, "toolscout_texts_embedded") + metric(c, "toolscout_texts_embedded");
        double[] ms = new double[o.writes()];
        for (int i = 0; i < o.writes(); i++) {
            String tool = "lag__probe_" + i;
            String text = "Calibrate the spectrometer probe number " + i + " before the lab run.";
            putTool(a, tool, text);
            long acked = System.nanoTime();
            awaitSelected(b, text, tool);
            ms[i] = (System.nanoTime() - acked) / 1e6;
            if ((i + 1) % 50 == 0) {
                say("lag: " + (i + 1) + " of " + o.writes() + " writes");
            }
        }
        Arrays.sort(ms);
        // the last write is searchable on B; its figures reach B's metrics just after: wait for them
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Map<String, double[]> after = histograms(b);
        while (count(after, "total") - count(before, "total") < o.writes() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            after = histograms(b);
        }
        List<Stage> stages = new ArrayList<>();
        for (String stage : STAGES) {
            stages.add(stage(stage, before, after));
        }
        long embedded = Math.round(
                metric(b, "toolscout_texts_embedded") + metric(c, "toolscout_texts_embedded") - embeddedBefore);
        return new Lag(o.writes(), percentile(ms, 50), percentile(ms, 99), ms[ms.length - 1], stages, embedded);
    }

    /** The stages of toolscout_replica_catchup_seconds, in the order they follow one another. */
    static final List<String> STAGES =
            List.of("delivery", "log_read", "store_read", "queue", "vectors", "index_write", "refresh", "total");

    private static final Pattern BUCKET = Pattern.compile(
            "^toolscout_replica_catchup_seconds_(bucket|count|sum)\\{(?:[^}]*,)?stage=\"([a-z_]+)\"(?:,le=\"([^\"]+)\")?[^}]*} (\\S+)$");

    /**
     * {@code toolscout_replica_catchup_seconds} of {@code p}, per stage: each bucket's bound (seconds) and cumulative
     * count, in the order of the bounds, then the count and the sum (seconds).
     */
    private Map<String, double[]> histograms(Proc p) throws Exception {
        HttpResponse<String> r = http.send(
                request(p, "/metrics").timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        Map<String, List<double[]>> buckets = new LinkedHashMap<>();
        Map<String, double[]> out = new LinkedHashMap<>();
        for (String line : r.body().lines().toList()) {
            Matcher m = BUCKET.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String stage = m.group(2);
            double v = Double.parseDouble(m.group(4));
            switch (m.group(1)) {
                case "bucket" ->
                    buckets.computeIfAbsent(stage, k -> new ArrayList<>()).add(new double[] {
                        m.group(3).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(3)), v
                    });
                case "count" -> out.computeIfAbsent(stage, k -> new double[2])[0] = v;
                default -> out.computeIfAbsent(stage, k -> new double[2])[1] = v;
            }
        }
        Map<String, double[]> all = new LinkedHashMap<>();
        for (Map.Entry<String, List<double[]>> e : buckets.entrySet()) {
            List<double[]> sorted = new ArrayList<>(e.getValue());
            sorted.sort((x, y) -> Double.compare(x[0], y[0]));
            double[] row = new double[sorted.size() * 2 + 2];
            for (int i = 0; i < sorted.size(); i++) {
                row[2 * i] = sorted.get(i)[0];
                row[2 * i + 1] = sorted.get(i)[1];
            }
            double[] cs = out.getOrDefault(e.getKey(), new double[2]);
            row[row.length - 2] = cs[0];
            row[row.length - 1] = cs[1];
            all.put(e.getKey(), row);
        }
        return all;
    }

    private static double count(Map<String, double[]> h, String stage) {
        double[] row = h.get(stage);
        return row == null ? 0 : row[row.length - 2];
    }

    /** A stage's figures between two reads of the histograms: [bound, cumulative count]... then count, sum. */
    private static Stage stage(String stage, Map<String, double[]> before, Map<String, double[]> after) {
        double[] a = after.get(stage);
        if (a == null) {
            return new Stage(stage, 0, Double.NaN, Double.NaN, Double.NaN);
        }
        double[] b = before.getOrDefault(stage, new double[a.length]);
        long n = Math.round(a[a.length - 2] - b[b.length - 2]);
        if (n == 0) {
            return new Stage(stage, 0, Double.NaN, Double.NaN, Double.NaN);
        }
        double mean = (a[a.length - 1] - b[b.length - 1]) / n * 1000;
        return new Stage(stage, n, mean, bound(a, b, n, 0.50), bound(a, b, n, 0.99));
    }

    /** The upper bound (ms) of the bucket holding quantile {@code q} of the {@code n} observations between reads. */
    private static double bound(double[] a, double[] b, long n, double q) {
        double rank = Math.ceil(q * n);
        for (int i = 0; i + 1 < a.length - 2; i += 2) {
            if (a[i + 1] - b[i + 1] >= rank) {
                return a[i] * 1000;
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    private List<Start> startAtOnce(Path keys, List<Proc> procs) throws Exception {
        String schema = newSchema();
        String store = withSchema(schema);
        say("storing " + o.startTools() + " synthetic tools with vectors in a new schema");
        List<ToolSpec> tools = SyntheticCatalog.tools(o.startTools(), o.seed());
        String model = LocalEmbeddingModels.DEFAULT_ID;
        int dimension = LocalEmbeddingModels.dimension(model);
        try (PostgresStateStore s = PostgresStateStore.open(store)) {
            for (int from = 0; from < tools.size(); from += 2_000) {
                List<ToolSpec> chunk = tools.subList(from, Math.min(tools.size(), from + 2_000));
                s.applyCatalogChange(chunk, List.of());
                // vectors as another replica would have stored them (keyed by model and text hash); their values do not
                // matter to what this part measures: that a start embeds nothing, and how long it takes
                Random r = new Random(o.seed() + from);
                Map<String, float[]> vectors = new LinkedHashMap<>();
                for (ToolSpec t : chunk) {
                    float[] v = new float[dimension];
                    double norm = 0;
                    for (int i = 0; i < dimension; i++) {
                        v[i] = (float) r.nextGaussian();
                        norm += v[i] * v[i];
                    }
                    for (int i = 0; i < dimension; i++) {
                        v[i] /= (float) Math.sqrt(norm);
                    }
                    vectors.put(Hashing.sha256Hex(ToolText.embeddingText(t)), v);
                }
                s.saveVectors(model, vectors);
            }
        }
        say("starting three replicas at once on " + o.startTools() + " tools");
        List<Proc> three = new ArrayList<>();
        long t0 = System.nanoTime();
        for (String n : List.of("x", "y", "z")) {
            three.add(start(n, store, keys, procs));
        }
        List<Start> out = new ArrayList<>();
        for (Proc p : three) {
            p.awaitReady();
            out.add(new Start(p.name, (System.nanoTime() - t0) / 1e9, (long) metric(p, "toolscout_texts_embedded")));
        }
        say("started at once: " + out);
        return out;
    }

    private Load load(List<Proc> targets) throws Exception {
        int n = targets.size();
        say("load over " + n + " replica" + (n == 1 ? "" : "s") + ": " + o.clients() + " clients");
        List<String> queries = SyntheticCatalog.queries(Math.max(200, o.requests()), o.seed() + 1);
        // per request: which replica served it (round robin by request number), so each replica's p99 can be told
        HttpBench.Call call = (q, i) -> select(targets.get(i % n), q);
        try (var pool = HttpBench.clients(o.clients())) {
            HttpBench.phase(pool, call, o.clients(), o.warmup(), queries);
            HttpBench.Phase p = HttpBench.phase(pool, call, o.clients(), o.requests(), queries);
            long[] all = p.latencies().clone();
            Arrays.sort(all);
            List<Double> perReplica = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                List<Long> mine = new ArrayList<>();
                for (int i = r; i < p.latencies().length; i += n) {
                    mine.add(p.latencies()[i]);
                }
                double[] ms = mine.stream().mapToDouble(x -> x / 1e6).sorted().toArray();
                perReplica.add(percentile(ms, 99));
            }
            double[] ms = Arrays.stream(all).mapToDouble(x -> x / 1e6).toArray();
            Load l =
                    new Load(n, all.length / (p.wallNanos() / 1e9), percentile(ms, 50), percentile(ms, 99), perReplica);
            say(String.format(
                    Locale.ROOT,
                    "%d replica(s): %.0f req/s, p50 %.1f ms, p99 %.1f ms",
                    n,
                    l.perSecond(),
                    l.p50Ms(),
                    l.p99Ms()));
            return l;
        }
    }

    private static String bucket(double ms) {
        return Double.isNaN(ms)
                ? "-"
                : Double.isInfinite(ms) ? "> 10,000" : "<= " + String.format(Locale.ROOT, "%,.1f", ms);
    }

    private static double percentile(double[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    // --- schemas ---

    private final List<String> schemas = new ArrayList<>();

    private String newSchema() {
        String s = "ts_bench_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
        schemas.add(s);
        return s;
    }

    private String withSchema(String schema) {
        String base = o.database();
        return base + (base.contains("?") ? "&" : "?") + "schema=" + schema;
    }

    private void dropSchemas() {
        PostgresUrl u = PostgresUrl.parse(o.database());
        java.util.Properties props = new java.util.Properties();
        if (u.user() != null) {
            props.setProperty("user", u.user());
        }
        if (u.password() != null) {
            props.setProperty("password", u.password());
        }
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), props);
                Statement st = c.createStatement()) {
            for (String s : schemas) {
                st.execute("DROP SCHEMA IF EXISTS \"" + s + "\" CASCADE");
            }
        } catch (java.sql.SQLException e) {
            say("could not drop the bench's schemas " + schemas + ": " + e.getMessage());
        }
    }

    // --- replicas over HTTP ---

    private Proc start(String name, String store, Path keys, List<Proc> procs) throws IOException {
        Proc p = new Proc(name, store, keys);
        procs.add(p);
        return p.start();
    }

    private void putTool(Proc p, String tool, String description) throws Exception {
        String body = JSON.createObjectNode()
                .put("name", tool)
                .put("description", description)
                .toString();
        HttpResponse<String> r = http.send(
                request(p, "/v1/tools/" + tool)
                        .timeout(Duration.ofSeconds(120))
                        .PUT(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 && r.statusCode() != 201) {
            throw new IllegalStateException(
                    "replica " + p.name + ": PUT " + tool + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    private List<String> select(Proc p, String message) throws Exception {
        String body =
                JSON.createObjectNode().put("message", message).put("k", 5).toString();
        HttpResponse<String> r = http.send(
                request(p, "/v1/select")
                        .timeout(Duration.ofSeconds(120))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(
                    "replica " + p.name + ": select answered " + r.statusCode() + ": " + r.body());
        }
        List<String> out = new ArrayList<>();
        for (JsonNode s : JSON.readTree(r.body()).path("selected")) {
            out.add(s.path("name").asText());
        }
        return out;
    }

    private void awaitSelected(Proc p, String message, String tool) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!select(p, message).contains(tool)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("replica " + p.name + " did not select " + tool + " within 120 s");
            }
        }
    }

    private double metric(Proc p, String metric) throws Exception {
        HttpResponse<String> r = http.send(
                request(p, "/metrics").timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        for (String line : r.body().lines().toList()) {
            if (line.startsWith(metric + " ") || line.startsWith(metric + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new IllegalStateException("replica " + p.name + ": no metric " + metric);
    }

    private HttpRequest.Builder request(Proc p, String path) {
        return HttpRequest.newBuilder(URI.create(p.baseUrl + path))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json");
    }

    /** One {@code serve} process with a data directory of its own under the work directory. */
    private final class Proc implements AutoCloseable {
        private static final Pattern API = Pattern.compile("HTTP API on (http://[^ ]+)/v1");
        final String name;
        private final String store;
        private final Path keys;
        private Process process;
        private Path log;
        private String baseUrl;
        private int starts;

        Proc(String name, String store, Path keys) {
            this.name = name;
            this.store = store;
            this.keys = keys;
        }

        Proc start() throws IOException {
            starts++;
            log = o.workDir().resolve(name + "-" + starts + ".log");
            baseUrl = null;
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            process = new ProcessBuilder(List.of(
                            java.toString(),
                            "--enable-native-access=ALL-UNNAMED",
                            "--add-modules",
                            "jdk.incubator.vector",
                            "-Xlog:disable",
                            "-cp",
                            System.getProperty("java.class.path"),
                            ToolScoutCli.class.getName(),
                            "serve",
                            "--port",
                            "0",
                            "--data-dir",
                            o.workDir().resolve(name).toString(),
                            "--store",
                            store,
                            "--api-keys",
                            keys.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return this;
        }

        Proc awaitReady() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (true) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("replica " + name + " did not get ready; see " + log);
                }
                if (baseUrl == null && Files.exists(log)) {
                    Matcher m = API.matcher(Files.readString(log));
                    if (m.find()) {
                        baseUrl = m.group(1);
                    }
                }
                if (baseUrl != null) {
                    try {
                        if (http.send(
                                                request(this, "/readyz")
                                                        .timeout(Duration.ofSeconds(10))
                                                        .build(),
                                                HttpResponse.BodyHandlers.discarding())
                                        .statusCode()
                                == 200) {
                            return this;
                        }
                    } catch (IOException notYet) {
                        // listening soon
                    }
                }
                Thread.sleep(50);
            }
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(60, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            if (process != null && process.isAlive()) {
                process.destroy();
                try {
                    if (!process.waitFor(60, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    process.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
