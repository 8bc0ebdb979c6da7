package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.RankingParts;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.eval.EvalRunner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolscout eval}: retrieval quality on a dataset in the normalized layout. */
@Command(
        name = "eval",
        mixinStandardHelpOptions = true,
        description = "Evaluate retrieval on a dataset in the normalized layout (tools.jsonl, queries.jsonl, "
                + "qrels*.tsv) through the product's catalog, index and selector. Progress goes to stderr.")
final class EvalCommand implements Callable<Integer> {
    enum Format {
        table,
        json
    }

    @Option(
            names = "--dataset",
            required = true,
            paramLabel = "DIR",
            description = "Dataset folder (holding normalized/, or the normalized folder itself).")
    Path dataset;

    @Option(
            names = "--qrels",
            paramLabel = "FILE",
            description = "qrels file (default: the only one, else qrels.test.tsv).")
    String qrels;

    @Option(
            names = "--learn-qrels",
            paramLabel = "FILE",
            description =
                    "Learn these queries and their gold tools first (as `toolscout learn` does, in the isolated "
                            + "data directory), then score --qrels: printed beside the same queries without learning. No query may be"
                            + " in both files; scripts/split-qrels.py splits one qrels file in two by a fixed hash of the query id.")
    String learnQrels;

    @Option(
            names = "--k",
            split = ",",
            paramLabel = "K,K",
            defaultValue = "5,10",
            description = "Cut-offs for recall and completeness (default: ${DEFAULT-VALUE}).")
    List<Integer> ks;

    @Option(
            names = "--retriever",
            defaultValue = "hybrid",
            converter = RetrieverConverter.class,
            description = "hybrid (default, the product's configuration), bm25 or dense (its retrievers alone), "
                    + "dense-plain (the embedding model alone: dense without the query adapter), hybrid-plain (hybrid "
                    + "without the query adapter), whole (hybrid without the "
                    + "clause search: every message ranked whole), or langchain4j (LangChain4j's VectorToolSearchStrategy: "
                    + "cosine over name: description, same model).")
    EvalRunner.Retriever retriever;

    static final class RetrieverConverter implements picocli.CommandLine.ITypeConverter<EvalRunner.Retriever> {
        @Override
        public EvalRunner.Retriever convert(String value) {
            try {
                return EvalRunner.Retriever.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Option(names = "--by-name", description = "Collapse ranked and gold ids to tool names (first occurrence).")
    boolean byName;

    @Option(names = "--model", paramLabel = "ID", description = "Embedding model id (default: the product default).")
    String model;

    @Option(names = "--limit", paramLabel = "N", description = "Score only the first N queries.")
    Integer limit;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where the per-dataset data directories go (default: <data dir>/eval).")
    Path workDir;

    @Option(
            names = "--per-query",
            paramLabel = "FILE",
            description = "Also write one JSON line per scored query to FILE: its gold tools, the top 10 and each gold"
                    + " tool's rank (null when it is not in the ranked list, at most " + EvalRunner.DEPTH + " long).")
    Path perQuery;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        for (int k : ks) {
            if (k < 1 || k > EvalRunner.DEPTH) {
                throw new IllegalArgumentException(
                        "--k values must be between 1 and " + EvalRunner.DEPTH + ", got: " + k);
            }
        }
        if (limit != null && limit < 1) {
            throw new IllegalArgumentException("--limit must be at least 1, got: " + limit);
        }
        Path work =
                workDir != null ? workDir : new EngineOptions().resolveDataDir().resolve("eval");
        String modelId = model != null ? model : dev.toolscout.embeddings.LocalEmbeddingModels.DEFAULT_ID;
        EvalRunner runner = new EvalRunner(
                new EvalRunner.Options(
                        dataset, qrels, ks, retriever, byName, modelId, work, limit, perQuery, learnQrels),
                spec.commandLine().getErr());
        EvalRunner.Plan plan = runner.plan();
        EvalRunner.Result r;
        // the product's engine, opened here (the composition root) as the plan says and handed to the runner
        try (ToolScout scout = ToolScout.builder()
                .dataDir(plan.dataDir())
                .tools(plan.tools())
                .model(plan.modelId())
                .selector(plan.selector())
                .preloadModel(false)
                .build()) {
            // the index as a running engine keeps it once idle (a fresh directory is written in batches)
            scout.maintenance().compactIndex();
            RankingParts e = scout.rankingParts();
            r = runner.run(
                    plan,
                    new EvalRunner.Product(e.catalog(), e.selector(), e.index(), e.access(), e.tokens(), e.learned()));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) {
            out.println(Json.pretty(json(r)));
        } else {
            if (r.withoutLearning() != null) {
                table(out, r.withoutLearning(), "without learning");
                table(out, r, "learned from " + learnQrels);
                EvalRunner.Gain g = r.learningGain();
                out.printf(
                        Locale.ROOT,
                        "learning changed NDCG@10 by %+.1f (2 SE %.1f), R@5 by %+.1f (2 SE %.1f)%n",
                        g.ndcg10(),
                        g.ndcg10TwoSe(),
                        g.recall5(),
                        g.recall5TwoSe());
            } else {
                table(out, r, null);
            }
        }
        out.flush();
        return 0;
    }

    private static void table(PrintWriter out, EvalRunner.Result r, String label) {
        out.printf(
                Locale.ROOT,
                "%s (%s), %s, %d queries%s%n",
                r.dataset(),
                r.qrels(),
                r.retriever(),
                r.queries(),
                label == null ? "" : ", " + label);
        r.recall()
                .forEach((k, v) -> out.printf(
                        Locale.ROOT,
                        "  R@%-3d %6.1f   C@%-3d %6.1f%n",
                        k,
                        v,
                        k,
                        r.complete().get(k)));
        out.printf(Locale.ROOT, "  NDCG@10 %5.1f   MRR %5.1f%n", r.ndcg10(), r.mrr());
        out.printf(
                Locale.ROOT,
                "  tokens saved by the top 10: %.1f%%   latency p50 %.2f ms, p99 %.2f ms%n",
                r.tokensSavedPct(),
                r.latencyP50(),
                r.latencyP99());
        if (r.shortened() > 0) {
            out.printf(
                    Locale.ROOT,
                    "  shortened %d of %d queries: longer than the ranking reads (%,d characters), each ranked on its"
                            + " first part%n",
                    r.shortened(),
                    r.queries(),
                    dev.toolscout.selection.Selector.MAX_MESSAGE_CHARS);
        }
    }

    /**
     * The result as JSON; with learning, the learned figures at the top level and the same queries without learning
     * under {@code without_learning}.
     */
    static ObjectNode json(EvalRunner.Result r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("queries", r.queries());
        r.recall().forEach((k, v) -> n.put("recall@" + k, v));
        n.put("ndcg@10", r.ndcg10());
        r.complete().forEach((k, v) -> n.put("complete@" + k, v));
        n.put("mrr", r.mrr());
        n.put("tokens_saved_pct", r.tokensSavedPct());
        n.put("latency_ms_p50", r.latencyP50());
        n.put("latency_ms_p99", r.latencyP99());
        // as the text output says it on stderr: queries ranked on their first part only
        n.put("shortened", r.shortened());
        if (r.withoutLearning() != null) {
            n.set("without_learning", json(r.withoutLearning()));
            ObjectNode g = n.putObject("learning_gain");
            g.put("ndcg@10", r.learningGain().ndcg10());
            g.put("ndcg@10_2se", r.learningGain().ndcg10TwoSe());
            g.put("recall@5", r.learningGain().recall5());
            g.put("recall@5_2se", r.learningGain().recall5TwoSe());
        }
        return n;
    }
}
