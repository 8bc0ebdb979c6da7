package dev.toolscout.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.eval.Metrics;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selector;
import dev.toolscout.store.SqliteStateStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The {@code toolscout bench} measurements, all in one run on one machine:
 *
 * <ul>
 *   <li>select latency p50/p99 at each catalog size, including the query embedding, with the
 *       embedding-only latency of the same queries and the select latency of two-step messages (two queries
 *       as two sentences, which the clause search splits) measured interleaved beside it;
 *   <li>indexing throughput (tools/s: embed, store, index) of the largest really-embedded size;
 *   <li>cold start: a fresh JVM opens the data directory at 10k tools and makes a first selection;
 *   <li>memory: resident memory of a fresh JVM holding the largest catalog, minus one holding an empty one.
 * </ul>
 *
 * Sizes up to {@link Options#embedLimit()} tools are embedded for real. Larger catalogs reuse those real
 * vectors with small random perturbations (stored ahead, keyed by each tool's text hash), because embedding
 * 100k texts on two cores takes many minutes and would measure nothing new; their lexical text is all
 * distinct.
 */
public final class SelectBench {
    /**
     * @param sizes catalog sizes, ascending
     * @param queries measured queries per size
     * @param warmup warm-up queries per size
     * @param embedLimit sizes up to this are embedded for real
     * @param workDir where the data directories go
     */
    public record Options(List<Integer> sizes, int queries, int warmup, int embedLimit, Path workDir, long seed) {
        public Options {
            sizes = sizes.stream().sorted().toList();
            if (sizes.isEmpty() || sizes.get(0) < 1) {
                throw new IllegalArgumentException("sizes must be positive tool counts, got: " + sizes);
            }
            if (queries < 10) {
                throw new IllegalArgumentException("queries must be at least 10, got: " + queries);
            }
        }
    }

    /**
     * Latency at one catalog size, in milliseconds.
     *
     * @param multiP50 select p50 for a two-step message (two of the generated queries joined by ". Then "), which
     *     the clause search ranks whole and clause by clause
     */
    public record SizeResult(
            int tools,
            double selectP50,
            double selectP99,
            double embedP50,
            double embedP99,
            double multiP50,
            double multiP99) {
        public double p50Ratio() {
            return selectP50 / embedP50;
        }

        public double p99Ratio() {
            return selectP99 / embedP99;
        }
    }

    /** A catalog built from vectors given (stored ahead): stored, then indexed, then compacted. */
    public record Build(int tools, double seconds) {
        public double toolsPerS() {
            return tools / seconds;
        }
    }

    /**
     * A one-shot start at one size (the second of two, the first warming the OS page cache): process start to first
     * selection, and the resident memory and heap after 20 selections and a GC.
     */
    public record ColdStart(
            int tools, double seconds, double openMs, double firstSelectMs, double rssMb, double heapMb) {}

    public record Result(
            List<SizeResult> sizes,
            List<Build> builds,
            List<ColdStart> coldStarts,
            double heapMbPer100k,
            double indexToolsPerS,
            int indexedForThroughput,
            int coldStartTools,
            double coldStartS,
            double firstStartS,
            double coldOpenMs,
            double coldFirstSelectMs,
            long reembeddedOnRestart,
            double rssMbPer10k,
            int memoryTools,
            double serverColdStartS) {}

    /**
     * The JVM flags the launcher adds for a command that answers once and exits ({@code select}, {@code route},
     * {@code find}, {@code describe}, {@code list}: the client compiler only, see the launcher script): the cold
     * start is timed as such a command starts, and again with this JVM's own flags as a server ({@code serve})
     * starts.
     */
    static final List<String> ONE_SHOT_JVM = List.of("-XX:TieredStopAtLevel=1", "-Dtoolscout.one-shot=true");

    private final Options o;
    private final PrintWriter log;

    public SelectBench(Options o, PrintWriter log) {
        this.o = o;
        this.log = log;
    }

    public Result run() throws Exception {
        int max = o.sizes().get(o.sizes().size() - 1);
        List<ToolSpec> all = SyntheticCatalog.tools(max, o.seed());
        List<String> queries = SyntheticCatalog.queries(o.queries() + o.warmup(), o.seed() + 1);

        // 1. the largest really-embedded size, from scratch: indexing throughput
        int real = o.sizes().stream()
                .filter(s -> s <= o.embedLimit())
                .reduce((a, b) -> b)
                .orElse(o.sizes().get(0));
        real = Math.min(real, o.embedLimit());
        Path realDir = dir(real);
        double throughput;
        try (ToolScout e = ToolScout.builder()
                .preloadModel(false)
                .dataDir(realDir)
                .tools(List.of())
                .build()) {
            long t0 = System.nanoTime();
            e.upsert(all.subList(0, real));
            throughput = real / ((System.nanoTime() - t0) / 1e9);
            // as a running engine leaves it once idle, and `index` before it exits: what the starts below open
            e.maintenance().compactIndex();
            log.printf(Locale.ROOT, "indexed %,d tools (embedded for real) at %.0f tools/s%n", real, throughput);
            log.flush();
        }
        Map<String, float[]> realVectors = vectors(realDir, all.subList(0, real));

        // 2. latency at each size
        List<SizeResult> results = new ArrayList<>();
        List<Build> builds = new ArrayList<>();
        for (int size : o.sizes()) {
            Path d = size == real ? realDir : dir(size);
            if (size != real) {
                seedVectors(d, all.subList(0, size), realVectors, all.subList(0, real));
                try (ToolScout e = ToolScout.builder()
                        .preloadModel(false)
                        .dataDir(d)
                        .tools(List.of())
                        .build()) {
                    long t0 = System.nanoTime();
                    e.upsert(all.subList(0, size));
                    double stored = (System.nanoTime() - t0) / 1e9;
                    e.maintenance().compactIndex();
                    Build b = new Build(size, (System.nanoTime() - t0) / 1e9);
                    builds.add(b);
                    log.printf(
                            Locale.ROOT,
                            "built %,d tools in %.1f s (%.0f tools/s; stored and searchable after %.1f s, then compacted;"
                                    + " %d embedded)%n",
                            size,
                            b.seconds(),
                            b.toolsPerS(),
                            stored,
                            e.maintenance().embeddedCount());
                }
            }
            try (ToolScout e =
                    ToolScout.builder().preloadModel(false).dataDir(d).build()) {
                results.add(latency(e, size, queries));
            }
        }

        // 3. cold start and memory in fresh JVMs, at each size: two starts each, the first also bringing the data
        // directory's files into the OS page cache (as any earlier use would have); the second is the figure
        int coldSize = o.sizes().contains(10_000) ? 10_000 : real;
        List<ColdStart> colds = new ArrayList<>();
        int coldTools = coldSize;
        JsonNode first = null;
        JsonNode cold = null;
        JsonNode big = null;
        for (int size : o.sizes()) {
            Path d = size == real ? realDir : dir(size);
            JsonNode warm = probe(d, 20, ONE_SHOT_JVM);
            JsonNode c = probe(d, 20, ONE_SHOT_JVM);
            ColdStart cs = new ColdStart(
                    size,
                    c.path("process_start_to_first_select_ms").asDouble() / 1000.0,
                    c.path("open_ms").asDouble(),
                    c.path("first_select_ms").asDouble(),
                    c.path("rss_kb").asDouble() / 1024,
                    c.path("heap_used_kb").asDouble() / 1024);
            colds.add(cs);
            log.printf(
                    Locale.ROOT,
                    "cold start at %,d tools: %.2f s (open %.0f ms, first select %.0f ms; the start before it %.2f s), "
                            + "%d re-embedded; then %.0f MB RSS, %.0f MB heap%n",
                    size,
                    cs.seconds(),
                    cs.openMs(),
                    cs.firstSelectMs(),
                    warm.path("process_start_to_first_select_ms").asDouble() / 1000.0,
                    c.path("reembedded").asLong() + warm.path("reembedded").asLong(),
                    cs.rssMb(),
                    cs.heapMb());
            log.flush();
            if (size == coldSize || first == null) {
                first = warm;
                cold = c;
                coldTools = size;
            }
            big = c;
        }
        Path coldDir = coldTools == real ? realDir : dir(coldTools);
        JsonNode server = probe(coldDir, 0, List.of());
        double firstS = first.path("process_start_to_first_select_ms").asDouble() / 1000.0;
        double coldS = cold.path("process_start_to_first_select_ms").asDouble() / 1000.0;
        double serverS = server.path("process_start_to_first_select_ms").asDouble() / 1000.0;
        log.printf(
                Locale.ROOT,
                "started as a server (full tiered compilation) at %,d tools: %.2f s%n",
                coldTools,
                serverS);
        Path empty = o.workDir().resolve("empty");
        try (ToolScout e = ToolScout.builder()
                .preloadModel(false)
                .dataDir(empty)
                .tools(List.of())
                .build()) {
            e.upsert(all.subList(0, 1));
        }
        JsonNode base = probe(empty, 20, ONE_SHOT_JVM);
        double rssPer10k = (big.path("rss_kb").asDouble() - base.path("rss_kb").asDouble()) / 1024.0 / (max / 10_000.0);
        double heapPer100k =
                (big.path("heap_used_kb").asDouble() - base.path("heap_used_kb").asDouble())
                        / 1024.0
                        / (max / 100_000.0);
        log.printf(
                Locale.ROOT,
                "memory: %.0f MB RSS and %.0f MB heap with %,d tools, %.0f MB and %.0f MB with 1 tool: %.1f MB RSS and %.1f MB"
                        + " heap per 100k tools%n",
                big.path("rss_kb").asDouble() / 1024,
                big.path("heap_used_kb").asDouble() / 1024,
                max,
                base.path("rss_kb").asDouble() / 1024,
                base.path("heap_used_kb").asDouble() / 1024,
                rssPer10k * 10,
                heapPer100k);
        log.flush();
        return new Result(
                results,
                builds,
                colds,
                heapPer100k,
                throughput,
                real,
                coldTools,
                coldS,
                firstS,
                cold.path("open_ms").asDouble(),
                cold.path("first_select_ms").asDouble(),
                cold.path("reembedded").asLong()
                        + first.path("reembedded").asLong()
                        + server.path("reembedded").asLong(),
                rssPer10k,
                max,
                serverS);
    }

    private Path dir(int size) {
        return o.workDir().resolve("tools-" + size);
    }

    private SizeResult latency(ToolScout e, int size, List<String> queries) {
        Principal p = Principal.ANONYMOUS;
        for (String q : queries.subList(0, o.warmup())) {
            e.rankingParts().model().embedQuery(q);
            e.rankingParts().selector().select(Selector.Request.of(q, p));
        }
        for (int i = 0; i + 1 < o.warmup(); i += 2) {
            e.rankingParts().selector().select(Selector.Request.of(twoSteps(queries.get(i), queries.get(i + 1)), p));
        }
        List<String> measured = queries.subList(o.warmup(), queries.size());
        double[] sel = new double[measured.size()];
        double[] emb = new double[measured.size()];
        double[] multi = new double[measured.size()];
        for (int i = 0; i < measured.size(); i++) {
            // interleaved, so all three see the same machine noise; "embed" of a query is a separate call from the
            // select's own embedding (there is no query cache)
            String q = measured.get(i);
            String two = twoSteps(q, measured.get((i + 1) % measured.size()));
            long t0 = System.nanoTime();
            e.rankingParts().model().embedQuery(q);
            long t1 = System.nanoTime();
            e.rankingParts().selector().select(Selector.Request.of(q, p));
            long t2 = System.nanoTime();
            e.rankingParts().selector().select(Selector.Request.of(two, p));
            long t3 = System.nanoTime();
            emb[i] = (t1 - t0) / 1e6;
            sel[i] = (t2 - t1) / 1e6;
            multi[i] = (t3 - t2) / 1e6;
        }
        SizeResult r = new SizeResult(
                size, pct(sel, 50), pct(sel, 99), pct(emb, 50), pct(emb, 99), pct(multi, 50), pct(multi, 99));
        log.printf(
                Locale.ROOT,
                "%,8d tools: select p50 %.2f ms p99 %.2f ms | embed p50 %.2f ms p99 %.2f ms | "
                        + "ratio p50 %.2f p99 %.2f | two-step select p50 %.2f ms p99 %.2f ms%n",
                size,
                r.selectP50(),
                r.selectP99(),
                r.embedP50(),
                r.embedP99(),
                r.p50Ratio(),
                r.p99Ratio(),
                r.multiP50(),
                r.multiP99());
        log.flush();
        return r;
    }

    /** A two-step message: two generated queries as two sentences, the second opened by "Then". */
    static String twoSteps(String first, String second) {
        return first + ". Then " + second;
    }

    static double pct(double[] v, int p) {
        return Metrics.roundMillis(Metrics.percentile(v, p));
    }

    private static String textHash(ToolSpec t) {
        return Hashing.sha256Hex(ToolText.embeddingText(t));
    }

    private static Map<String, float[]> vectors(Path dir, List<ToolSpec> tools) {
        List<String> hashes = tools.stream().map(SelectBench::textHash).toList();
        try (SqliteStateStore s = SqliteStateStore.open(dir.resolve("state.db"))) {
            return s.loadVectors(modelId(dir), hashes);
        }
    }

    /** Stores a vector for every tool: the real one where there is one, else a perturbed copy of one. */
    private void seedVectors(Path dir, List<ToolSpec> tools, Map<String, float[]> real, List<ToolSpec> realTools)
            throws IOException {
        Files.createDirectories(dir);
        Random r = new Random(o.seed() + tools.size());
        List<float[]> pool = realTools.stream().map(t -> real.get(textHash(t))).toList();
        Map<String, float[]> out = new HashMap<>();
        try (SqliteStateStore s = SqliteStateStore.open(dir.resolve("state.db"))) {
            for (int i = 0; i < tools.size(); i++) {
                String h = textHash(tools.get(i));
                float[] v = real.get(h);
                if (v == null) {
                    v = SyntheticCatalog.perturbed(pool.get(i % pool.size()), r);
                }
                out.put(h, v);
                if (out.size() == 10_000) {
                    s.saveVectors(modelId(dir), out);
                    out.clear();
                }
            }
            s.saveVectors(modelId(dir), out);
        }
    }

    private static String modelId(Path dir) {
        return dev.toolscout.embeddings.LocalEmbeddingModels.DEFAULT_ID;
    }

    /**
     * Runs {@link BenchProbe} in a fresh JVM, with {@code extraJvm} after this JVM's flags, and returns its JSON
     * line plus {@code wall_s}.
     */
    private JsonNode probe(Path dir, int queries, List<String> extraJvm) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        // the same JVM flags as this run (the launcher's: class-data cache, native libraries, vector module), so the
        // probe starts as a user's command does
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.addAll(extraJvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
        long t0 = System.nanoTime();
        // the probe times its start from here: the OS's process start time is whole seconds off on Linux
        cmd.addAll(List.of(
                BenchProbe.class.getName(),
                dir.toString(),
                Integer.toString(queries),
                Long.toString(System.currentTimeMillis())));
        Process pr = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String last = null;
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(pr.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("{")) {
                    last = line;
                }
            }
        }
        int code = pr.waitFor();
        double wall = (System.nanoTime() - t0) / 1e9;
        if (code != 0 || last == null) {
            throw new IllegalStateException("bench probe on " + dir + " failed with exit code " + code);
        }
        com.fasterxml.jackson.databind.node.ObjectNode n =
                (com.fasterxml.jackson.databind.node.ObjectNode) new ObjectMapper().readTree(last);
        n.put("wall_s", Metrics.roundMillis(wall));
        return n;
    }
}
