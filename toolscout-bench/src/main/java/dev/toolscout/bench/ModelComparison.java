package dev.toolscout.bench;

import dev.toolscout.bench.eval.ExactSearch;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.eval.Metrics;
import dev.toolscout.eval.dataset.DatasetTool;
import dev.toolscout.eval.dataset.NormalizedDataset;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.ToolSpec;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Compares the local embedding models on the development sets by dense retrieval alone: every tool embedded
 * from {@link ToolText#embeddingText}, every query embedded alone, tools ranked by exact cosine. Prints
 * Markdown tables (quality per set and model, then query latency and document throughput) to stdout and
 * progress to stderr.
 *
 * <p>Usage: {@code ModelComparison <datasets-root> [--models id,id,...] [--without-original-names]} where the
 * root holds the folders described in {@code datasets/README.md}. {@code --without-original-names} embeds
 * tools without their dataset id in the name words (to measure what opaque ids such as {@code apigen_tool_17}
 * cost). Latency is wall-clock per {@code embedQuery} call after a
 * warm-up; throughput is {@code embedDocuments} over batches of {@value #BATCH}. Both depend on the machine
 * and its load; the stated figures come with the core count and load average they were measured at.
 */
public final class ModelComparison {
    static final int BATCH = 64;
    static final int METATOOL_SINGLE_CAP = 3_000;
    private static final int WARMUP = 50;

    /** One development set: a dataset folder, a qrels file, and an optional cap on scored queries. */
    record EvalSet(String label, String dir, String qrels, int cap) {}

    static final List<EvalSet> SETS = List.of(
            new EvalSet("toollens test", "toollens/normalized", "qrels.test.tsv", 0),
            new EvalSet(
                    "metatool single (first 3,000)",
                    "metatool-toole/normalized",
                    "qrels.single.tsv",
                    METATOOL_SINGLE_CAP),
            new EvalSet("metatool multi", "metatool-toole/normalized", "qrels.multi.tsv", 0),
            new EvalSet("seal-tools out-of-domain", "seal-tools/normalized", "qrels.test_out_domain.tsv", 0),
            new EvalSet("toolret apibank", "toolret-subsets-via-mftr/apibank/normalized", "qrels.tsv", 0),
            new EvalSet("toolret apigen", "toolret-subsets-via-mftr/apigen/normalized", "qrels.tsv", 0),
            new EvalSet(
                    "toolret gorilla-hf", "toolret-subsets-via-mftr/gorilla-huggingface/normalized", "qrels.tsv", 0),
            new EvalSet("toolret toolink", "toolret-subsets-via-mftr/toolink/normalized", "qrels.tsv", 0));

    private ModelComparison() {}

    public static void main(String[] args) {
        if (args.length < 1 || args[0].startsWith("--")) {
            System.err.println(
                    "usage: ModelComparison <datasets-root> [--models id,id,...] [--without-original-names]");
            System.err.println("models: " + String.join(", ", LocalEmbeddingModels.ids()));
            System.exit(2);
        }
        Path root = Path.of(args[0]);
        List<String> models = LocalEmbeddingModels.ids();
        Function<ToolSpec, String> toolText = ToolText::embeddingText;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--models") && i + 1 < args.length) {
                models = List.of(args[++i].split(","));
            } else if (args[i].equals("--without-original-names")) {
                toolText = spec -> ToolText.embeddingText(
                        spec.toBuilder().originalName(null).build());
            } else {
                System.err.println("unknown argument: " + args[i]);
                System.exit(2);
            }
        }
        run(root, models, toolText);
    }

    private static void run(Path root, List<String> modelIds, Function<ToolSpec, String> toolText) {
        long start = System.nanoTime();
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Map<String, NormalizedDataset> datasets = new LinkedHashMap<>();
        Map<EvalSet, List<ScoredQuery>> queries = new LinkedHashMap<>();
        for (EvalSet set : SETS) {
            NormalizedDataset d = datasets.computeIfAbsent(set.dir(), dir -> read(root.resolve(dir)));
            List<ScoredQuery> scored = d.scoredQueries(set.qrels());
            if (set.cap() > 0 && scored.size() > set.cap()) {
                scored = scored.subList(0, set.cap());
            }
            queries.put(set, scored);
        }

        Map<String, Map<EvalSet, Metrics.Scores>> quality = new LinkedHashMap<>();
        Map<String, Speed> speed = new LinkedHashMap<>();
        // documents are embedded without the query prefix, so models that differ only in it share document vectors
        Map<String, Map<String, List<float[]>>> docVectorsByWeights = new HashMap<>();
        Map<String, Double> docsPerSecondByWeights = new HashMap<>();
        for (String id : modelIds) {
            // the plain models: this compares embedders, not ToolScout's adapter learned on ToolLens
            EmbeddingModel model = LocalEmbeddingModels.createPlain(id);
            String weights = documentRecipe(id);
            warmUp(
                    model,
                    queries.values().iterator().next(),
                    datasets.values().iterator().next(),
                    toolText);

            Map<String, List<float[]>> docVectors = docVectorsByWeights.get(weights);
            if (docVectors == null) {
                docVectors = new HashMap<>();
                long texts = 0;
                long nanos = 0;
                for (Map.Entry<String, NormalizedDataset> e : datasets.entrySet()) {
                    List<String> toolTexts = e.getValue().tools().stream()
                            .map(t -> toolText.apply(t.spec()))
                            .toList();
                    long t0 = System.nanoTime();
                    List<float[]> vectors = new ArrayList<>(toolTexts.size());
                    for (int i = 0; i < toolTexts.size(); i += BATCH) {
                        vectors.addAll(
                                model.embedDocuments(toolTexts.subList(i, Math.min(toolTexts.size(), i + BATCH))));
                    }
                    nanos += System.nanoTime() - t0;
                    texts += toolTexts.size();
                    docVectors.put(e.getKey(), vectors);
                    progress("%s: embedded %d tools of %s", id, toolTexts.size(), e.getKey());
                }
                docVectorsByWeights.put(weights, docVectors);
                docsPerSecondByWeights.put(weights, texts / (nanos / 1e9));
            }

            Map<EvalSet, Metrics.Scores> perSet = new LinkedHashMap<>();
            List<Long> latencies = new ArrayList<>();
            for (EvalSet set : SETS) {
                NormalizedDataset d = datasets.get(set.dir());
                List<DatasetTool> tools = d.tools();
                ExactSearch search = new ExactSearch(
                        tools.stream().map(t -> t.spec().fullName()).toList(), docVectors.get(set.dir()));
                Metrics.Accumulator acc = new Metrics.Accumulator();
                for (ScoredQuery q : queries.get(set)) {
                    long t0 = System.nanoTime();
                    float[] v = model.embedQuery(q.text());
                    latencies.add(System.nanoTime() - t0);
                    List<String> ranked = search.topK(v, 10).stream()
                            .map(i -> tools.get(i).id())
                            .toList();
                    acc.add(ranked, q.gold());
                }
                perSet.put(set, acc.scores());
                progress("%s: %s N@10 %.1f", id, set.label(), acc.scores().ndcg10());
            }
            quality.put(id, perSet);
            speed.put(
                    id,
                    new Speed(
                            percentile(latencies, 50),
                            percentile(latencies, 99),
                            latencies.size(),
                            docsPerSecondByWeights.get(weights)));
        }

        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        print(quality, speed, queries, datasets);
        System.out.printf(
                Locale.ROOT,
                "%nMeasured on %d cores, load average %.1f before and %.1f after; total %.0f s.%n",
                Runtime.getRuntime().availableProcessors(),
                loadBefore,
                loadAfter,
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * Models whose documents embed identically share one recipe here, so their tools are embedded once: the
     * instruct variant only changes how queries are embedded.
     */
    private static String documentRecipe(String modelId) {
        return modelId.equals(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q_INSTRUCT)
                ? LocalEmbeddingModels.BGE_SMALL_EN_V15_Q
                : modelId;
    }

    private record Speed(double p50Millis, double p99Millis, int queries, double docsPerSecond) {}

    private static NormalizedDataset read(Path dir) {
        NormalizedDataset d = NormalizedDataset.read(dir);
        progress(
                "read %s: %d tools, %d queries, %d warnings",
                dir, d.tools().size(), d.queries().size(), d.warnings().size());
        return d;
    }

    private static void warmUp(
            EmbeddingModel model,
            List<ScoredQuery> queries,
            NormalizedDataset tools,
            Function<ToolSpec, String> toolText) {
        for (int i = 0; i < Math.min(WARMUP, queries.size()); i++) {
            model.embedQuery(queries.get(i).text());
        }
        List<String> texts = tools.tools().stream()
                .limit(BATCH)
                .map(t -> toolText.apply(t.spec()))
                .toList();
        model.embedDocuments(texts);
    }

    /** The nearest-rank percentile of {@code nanos}, in milliseconds ({@link Metrics#percentile}). */
    static double percentile(List<Long> nanos, int p) {
        return Metrics.percentile(nanos.stream().mapToDouble(n -> n / 1e6).toArray(), p);
    }

    private static void print(
            Map<String, Map<EvalSet, Metrics.Scores>> quality,
            Map<String, Speed> speed,
            Map<EvalSet, List<ScoredQuery>> queries,
            Map<String, NormalizedDataset> datasets) {
        System.out.println("| set | queries | tools | model | R@5 | R@10 | N@10 | C@5 | C@10 |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (EvalSet set : SETS) {
            for (Map.Entry<String, Map<EvalSet, Metrics.Scores>> m : quality.entrySet()) {
                Metrics.Scores s = m.getValue().get(set);
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %d | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f |%n",
                        set.label(),
                        queries.get(set).size(),
                        datasets.get(set.dir()).tools().size(),
                        m.getKey(),
                        s.r5(),
                        s.r10(),
                        s.ndcg10(),
                        s.c5(),
                        s.c10());
            }
        }
        System.out.println();
        System.out.println(
                "| model | mean R@5 | mean R@10 | mean N@10 | mean C@10 | query p50 ms | query p99 ms | docs/s |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (Map.Entry<String, Map<EvalSet, Metrics.Scores>> m : quality.entrySet()) {
            double[] mean = new double[4];
            for (Metrics.Scores s : m.getValue().values()) {
                mean[0] += s.r5();
                mean[1] += s.r10();
                mean[2] += s.ndcg10();
                mean[3] += s.c10();
            }
            int n = m.getValue().size();
            Speed sp = speed.get(m.getKey());
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.0f |%n",
                    m.getKey(),
                    mean[0] / n,
                    mean[1] / n,
                    mean[2] / n,
                    mean[3] / n,
                    sp.p50Millis(),
                    sp.p99Millis(),
                    sp.docsPerSecond());
        }
        System.out.println();
        int[] calls =
                speed.values().stream().mapToInt(Speed::queries).distinct().toArray();
        System.out.println("Latency: wall-clock per embedQuery call after a warm-up, over "
                + Arrays.toString(calls)
                + " calls per model; docs/s: embedDocuments in batches of "
                + BATCH
                + " over every tool of every set.");
    }

    private static void progress(String format, Object... args) {
        System.err.println(String.format(Locale.ROOT, format, args));
    }
}
