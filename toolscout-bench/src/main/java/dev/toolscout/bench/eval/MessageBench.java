package dev.toolscout.bench.eval;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.eval.EvalRunner;
import dev.toolscout.eval.Metrics;
import dev.toolscout.eval.VectorToolSearch;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.model.Principal;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.QueryClauses;
import dev.toolscout.selection.Selector;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Selection latency on a dataset's own messages ({@code toolscout bench --queries-from}), against the peers on
 * the same messages in the same run. Each round times one message on every variant, in an order rotated every
 * round, so a busy moment of the machine falls on all of them alike:
 *
 * <ul>
 *   <li>{@code select}: the product's default selection (K 10), clause search included: as the caller hands it in
 *       (the bench command: {@code ToolScout.select}, the route included), else {@link Selector#select};
 *   <li>{@code langchain4j}: LangChain4j's {@code VectorToolSearchStrategy} configuration ({@link
 *       VectorToolSearch}: the model's plain query vector, exact cosine over every tool's {@code name:
 *       description}, top 10);
 *   <li>{@code dense}: the product's dense list alone (its query vector and HNSW index, no lexical search, no
 *       clause search);
 *   <li>{@code embed}: one query embedding of the message by the product's model, the unit of the ratios.
 * </ul>
 *
 * Messages are the plan's scored queries, taken in turn (again from the first when more are measured than the
 * set has). Not thread-safe; runs on the caller's thread.
 */
public final class MessageBench {
    /** The variants, in the order of the first round. */
    public static final List<String> VARIANTS = List.of("select", "langchain4j", "dense", "embed");

    /**
     * @param measured messages timed per variant
     * @param warmup untimed rounds before them
     */
    public record Options(int measured, int warmup) {
        public Options {
            if (measured < 10) {
                throw new IllegalArgumentException("--queries must be at least 10, got: " + measured);
            }
            if (warmup < 0) {
                throw new IllegalArgumentException("--warmup must be at least 0, got: " + warmup);
            }
        }
    }

    /** One variant's latency in milliseconds. */
    public record Latency(String variant, double p50, double p90, double p99, double mean) {}

    /**
     * @param messages the distinct messages of the set
     * @param multiClause the share of them (percent) that the clause search splits
     * @param meanWords their mean length in words
     */
    public record Result(
            String dataset,
            String qrels,
            int tools,
            int messages,
            double multiClause,
            double meanWords,
            int measured,
            List<Latency> latency) {
        public Latency of(String variant) {
            return latency.stream()
                    .filter(l -> l.variant().equals(variant))
                    .findFirst()
                    .orElseThrow();
        }

        /** {@code a}'s percentile {@code p} (50 or 99) over {@code b}'s. */
        public double ratio(String a, String b, int p) {
            return Math.round(pick(of(a), p) / pick(of(b), p) * 100) / 100.0;
        }

        private static double pick(Latency l, int p) {
            return switch (p) {
                case 50 -> l.p50();
                case 90 -> l.p90();
                case 99 -> l.p99();
                default -> throw new IllegalArgumentException("percentile must be 50, 90 or 99, got: " + p);
            };
        }
    }

    private final Options o;
    private final PrintWriter log;

    public MessageBench(Options o, PrintWriter log) {
        this.o = Objects.requireNonNull(o, "o");
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Times the plan's messages through {@code e}, the product's engine opened as {@code plan} says.
     *
     * @param product the engine's embedding model (its query vectors for the dense list and the embed unit)
     */
    public Result run(EvalRunner.Plan plan, EvalRunner.Product e, EmbeddingModel product) throws IOException {
        return run(plan, e, product, m -> e.selector().select(Selector.Request.of(m, Principal.ANONYMOUS)));
    }

    /**
     * As {@link #run(EvalRunner.Plan, EvalRunner.Product, EmbeddingModel)}, timing {@code select} as the {@code
     * select} variant: the product's whole selection as a user calls it (the engine's {@code ToolScout.select},
     * which also routes the message), where {@code e}'s selector is only its ranking part.
     */
    public Result run(EvalRunner.Plan plan, EvalRunner.Product e, EmbeddingModel product, Consumer<String> select)
            throws IOException {
        Objects.requireNonNull(select, "select");
        List<String> messages = plan.queries().stream().map(ScoredQuery::text).toList();
        if (messages.isEmpty()) {
            throw new IllegalArgumentException(
                    "--queries-from " + plan.dataset().dir() + ": " + plan.qrels() + " scores no query");
        }
        // the engine made it; a ranking handed in from elsewhere (a test's) may not have
        Files.createDirectories(plan.dataDir());
        VectorToolSearch lc4j =
                VectorToolSearch.open(LocalEmbeddingModels.createPlain(plan.modelId()), plan.tools(), plan.dataDir());
        int multi = 0;
        long words = 0;
        for (String m : messages) {
            multi += QueryClauses.split(m).isEmpty() ? 0 : 1;
            words += m.isBlank() ? 0 : m.strip().split("\\s+").length;
        }
        log.printf(
                Locale.ROOT,
                "bench: %,d tools, %,d messages (%s), %.0f%% of several clauses, %.1f words on average;"
                        + " %,d warm-up and %,d measured rounds%n",
                plan.tools().size(),
                messages.size(),
                plan.qrels(),
                100.0 * multi / messages.size(),
                (double) words / messages.size(),
                o.warmup(),
                o.measured());
        log.flush();
        try (HybridRanker denseRanker = new HybridRanker(e.index())) {
            Selector dense = new Selector(
                    e.catalog(),
                    denseRanker,
                    product,
                    e.access(),
                    e.tokens(),
                    plan.selector().withFusion(Fusion.DEFAULT.withMethod(Fusion.Method.DENSE)));
            List<Consumer<String>> run = List.of(
                    select,
                    m -> lc4j.search(m, 10),
                    m -> dense.select(Selector.Request.of(m, Principal.ANONYMOUS)),
                    product::embedQuery);
            double[][] ms = new double[VARIANTS.size()][o.measured()];
            for (int round = 0; round < o.warmup() + o.measured(); round++) {
                String m = messages.get(round % messages.size());
                for (int j = 0; j < run.size(); j++) {
                    int v = (round + j) % run.size();
                    long t0 = System.nanoTime();
                    run.get(v).accept(m);
                    long t = System.nanoTime() - t0;
                    if (round >= o.warmup()) {
                        ms[v][round - o.warmup()] = t / 1e6;
                    }
                }
            }
            List<Latency> out = new ArrayList<>();
            for (int v = 0; v < VARIANTS.size(); v++) {
                double sum = 0;
                for (double x : ms[v]) {
                    sum += x;
                }
                out.add(new Latency(
                        VARIANTS.get(v),
                        at(ms[v], 50),
                        at(ms[v], 90),
                        at(ms[v], 99),
                        Metrics.roundMillis(sum / ms[v].length)));
            }
            Result r = new Result(
                    plan.dataset().dir().toString(),
                    plan.qrels(),
                    plan.tools().size(),
                    messages.size(),
                    Math.round(1000.0 * multi / messages.size()) / 10.0,
                    Math.round(10.0 * words / messages.size()) / 10.0,
                    o.measured(),
                    out);
            for (Latency l : out) {
                log.printf(Locale.ROOT, "  %-12s p50 %7.2f ms  p99 %7.2f ms%n", l.variant(), l.p50(), l.p99());
            }
            log.flush();
            return r;
        }
    }

    private static double at(double[] v, int p) {
        return Metrics.roundMillis(Metrics.percentile(v, p));
    }
}
