package dev.toolscout.bench.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.bench.frameworks.FrameworkComparison;
import dev.toolscout.bench.frameworks.Tally;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.eval.EvalRunner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench-frameworks}: the development sets through the frameworks' built-in tool search and ToolScout's, side
 * by side ({@link FrameworkComparison}); {@code scripts/frameworks-all.sh} names the sets.
 */
@Command(
        name = "bench-frameworks",
        mixinStandardHelpOptions = true,
        description = "Retrieval on datasets in the normalized layout through LangChain4j's VectorToolSearchStrategy "
                + "(its own search API, the same embedding model), ToolScout.find and ToolScout.select, in one run: "
                + "R@5, nDCG@10, C@10 and the tokens of the definitions each returns (" + FrameworkComparison.K
                + " tools each), as a Markdown table. Progress goes to stderr. scripts/frameworks-all.sh runs the "
                + "development sets.")
final class BenchFrameworksCommand implements Callable<Integer> {
    enum Format {
        markdown,
        json
    }

    /** One {@code --set}: {@code LABEL|DIR|QRELS|LIMIT} (LIMIT may be empty), as scripts/dev-sets.sh writes them. */
    record SetOption(String label, Path dir, String qrels, Integer limit) {
        static SetOption parse(String value) {
            String[] p = value.split("\\|", -1);
            if (p.length != 4 || p[0].isBlank() || p[1].isBlank() || p[2].isBlank()) {
                throw new IllegalArgumentException(
                        "--set must be LABEL|DIR|QRELS|LIMIT (LIMIT may be empty), got: '" + value + "'");
            }
            Integer limit = null;
            if (!p[3].isBlank()) {
                try {
                    limit = Integer.parseInt(p[3].strip());
                } catch (NumberFormatException e) {
                    limit = 0;
                }
                if (limit < 1) {
                    throw new IllegalArgumentException("--set's LIMIT must be a whole number of at least 1, got: '"
                            + p[3] + "' in '" + value + "'");
                }
            }
            return new SetOption(p[0], Path.of(p[1]), p[2], limit);
        }
    }

    @Option(
            names = "--set",
            required = true,
            paramLabel = "LABEL|DIR|QRELS|LIMIT",
            description = "A set: its label, dataset folder, qrels file and query limit (may be empty). Repeatable.")
    List<String> sets;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where the per-dataset data directories go (default: <data dir>/eval, shared with eval).")
    Path workDir;

    @Option(
            names = "--format",
            defaultValue = "markdown",
            description = "markdown or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<SetOption> parsed = sets.stream().map(SetOption::parse).toList();
        PrintWriter err = spec.commandLine().getErr();
        Path work = workDir != null ? workDir : defaultDataDir().resolve("eval");
        // every set is read and checked before the first is embedded, which can take minutes
        List<EvalRunner.Plan> plans = new ArrayList<>();
        for (SetOption s : parsed) {
            plans.add(new EvalRunner(
                            new EvalRunner.Options(
                                    s.dir(),
                                    s.qrels(),
                                    List.of(5, 10),
                                    EvalRunner.Retriever.hybrid,
                                    false,
                                    LocalEmbeddingModels.DEFAULT_ID,
                                    work,
                                    s.limit()),
                            err)
                    .plan());
        }
        FrameworkComparison comparison = new FrameworkComparison(err);
        List<FrameworkComparison.Result> results = new ArrayList<>();
        for (int i = 0; i < parsed.size(); i++) {
            EvalRunner.Plan plan = plans.get(i);
            EmbeddingModel plain = LocalEmbeddingModels.createPlain(plan.modelId());
            // the product's engine opened as eval opens it (the same data directory: its tools embedded once)
            try (ToolScout scout = ToolScout.builder()
                    .dataDir(plan.dataDir())
                    .tools(plan.tools())
                    .model(plan.modelId())
                    .selector(plan.selector())
                    .preloadModel(false)
                    .build()) {
                scout.maintenance().compactIndex();
                results.add(comparison.run(
                        parsed.get(i).label(),
                        plan,
                        scout,
                        plain,
                        scout.rankingParts().tokens()));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) {
            out.println(Json.pretty(json(results)));
        } else {
            markdown(out, results);
        }
        out.flush();
        return 0;
    }

    /**
     * The table: one row per set; each metric's cell holds the retrievers' figures in {@link
     * FrameworkComparison#RETRIEVERS}' order.
     */
    static void markdown(PrintWriter out, List<FrameworkComparison.Result> results) {
        String order = "LangChain4j / find / select";
        out.printf(
                Locale.ROOT,
                "| set | tools | queries | R@5 (%s) | N@10 (%s) | C@10 (%s) | tokens (%s) |%n",
                order,
                order,
                order,
                order);
        out.println("|---|---:|---:|---|---|---|---|");
        for (FrameworkComparison.Result r : results) {
            out.printf(
                    Locale.ROOT,
                    "| %s | %,d | %,d | %s | %s | %s | %s |%n",
                    r.set(),
                    r.tools(),
                    r.queries(),
                    cell(r, Tally.Scores::r5, "%.1f"),
                    cell(r, Tally.Scores::ndcg10, "%.1f"),
                    cell(r, Tally.Scores::c10, "%.1f"),
                    cell(r, Tally.Scores::tokens, "%,.0f"));
        }
    }

    private static String cell(FrameworkComparison.Result r, ToDoubleFunction<Tally.Scores> f, String fmt) {
        List<String> parts = new ArrayList<>();
        for (String retriever : FrameworkComparison.RETRIEVERS) {
            parts.add(String.format(Locale.ROOT, fmt, f.applyAsDouble(r.of(retriever))));
        }
        return String.join(" / ", parts);
    }

    static ArrayNode json(List<FrameworkComparison.Result> results) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (FrameworkComparison.Result r : results) {
            ObjectNode n = a.addObject();
            n.put("set", r.set());
            n.put("tools", r.tools());
            n.put("queries", r.queries());
            n.put("shortened", r.shortened());
            ObjectNode by = n.putObject("retrievers");
            for (Tally.Scores s : r.scores()) {
                ObjectNode o = by.putObject(s.retriever());
                o.put("recall@5", s.r5());
                o.put("ndcg@10", s.ndcg10());
                o.put("complete@10", s.c10());
                o.put("tokens", s.tokens());
                o.put("empty", s.empty());
            }
        }
        return a;
    }

    /** The product's data directory when no catalog is named ({@code toolscout eval}'s): what eval shares. */
    private static Path defaultDataDir() {
        String env = System.getenv("TOOLSCOUT_DATA_DIR");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".toolscout");
    }
}
