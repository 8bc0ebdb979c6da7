package dev.toolscout.bench.frameworks;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.engine.FindResult;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.eval.EvalRunner;
import dev.toolscout.eval.VectorToolSearch;
import dev.toolscout.eval.dataset.DatasetTool;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.selection.Shortened;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One development set's queries through the frameworks' built-in tool search and ToolScout's, side by side, in one
 * run over the same tools (issue 34):
 *
 * <ul>
 *   <li>{@code langchain4j}: LangChain4j's {@code VectorToolSearchStrategy} through its own {@code
 *       search(ToolSearchRequest)} ({@link LangChain4jSearch}), with the same embedding model, plain;
 *   <li>{@code find}: {@link ToolScout#find} (what {@code tool_discovery__find} and the frameworks' adapters answer
 *       a search with);
 *   <li>{@code select}: {@link ToolScout#select} (what a request's first call carries), route included.
 * </ul>
 *
 * Each returns at most {@value #K} tools. Scores use the dataset's ids and {@link Tally} (toolscout-eval's metrics);
 * tokens are those of every definition a retriever returned, counted by the product's counter. A query longer than
 * the ranking reads ({@link InputLimits#MAX_MESSAGE_CHARS}) is given to all three as its first part ({@link
 * Shortened#rankedPart}), as the product would rank it. Not thread-safe.
 */
public final class FrameworkComparison {
    /** How many tools each retriever returns. */
    public static final int K = 10;

    /** The retrievers, in the table's order. */
    public static final List<String> RETRIEVERS = List.of("langchain4j", "find", "select");

    /**
     * One set's figures.
     *
     * @param shortened queries given as their first part (longer than the ranking reads)
     */
    public record Result(String set, int tools, int queries, int shortened, List<Tally.Scores> scores) {
        public Result {
            scores = List.copyOf(scores);
        }

        public Tally.Scores of(String retriever) {
            return scores.stream()
                    .filter(s -> s.retriever().equals(retriever))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "retriever must be one of " + RETRIEVERS + ", got: '" + retriever + "'"));
        }
    }

    private final PrintWriter log;

    public FrameworkComparison(PrintWriter log) {
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Runs the plan's queries through every retriever.
     *
     * @param scout the product opened as {@code plan} says (its tools, model and selector configuration)
     * @param plain the plan's embedding model without ToolScout's query adapter, for LangChain4j
     * @param tokens the product's token counter
     */
    public Result run(String set, EvalRunner.Plan plan, ToolScout scout, EmbeddingModel plain, TokenCounter tokens)
            throws IOException {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(scout, "scout");
        Map<String, DatasetTool> byFullName = new HashMap<>();
        Map<String, DatasetTool> byAction = new HashMap<>();
        for (DatasetTool t : plan.dataset().tools()) {
            byFullName.put(t.spec().fullName(), t);
            byAction.put(t.spec().name().action(), t);
        }
        log.printf(
                Locale.ROOT,
                "bench-frameworks: %s: %,d tools, %,d scored queries (%s)%n",
                set,
                plan.tools().size(),
                plan.queries().size(),
                plan.qrels());
        log.flush();
        // LangChain4j's tool texts are embedded once (or read from eval's cache of them, same model and texts)
        LangChain4jSearch lc4j = new LangChain4jSearch(
                plain, VectorToolSearch.documentVectors(plain, plan.tools(), plan.dataDir()), plan.tools(), K);
        Tally lt = new Tally("langchain4j");
        Tally ft = new Tally("find");
        Tally st = new Tally("select");
        int shortened = 0;
        int done = 0;
        for (ScoredQuery q : plan.queries()) {
            String text = q.text();
            if (text.length() > InputLimits.MAX_MESSAGE_CHARS) {
                text = Shortened.rankedPart(text);
                shortened++;
            }
            List<DatasetTool> found = resolve(lc4j.search(text), byAction);
            lt.add(ids(found), q.steps(), tokens.definitionTokens(specs(found)));

            FindResult f = scout.find(Principal.ANONYMOUS, text, K);
            List<DatasetTool> matched =
                    resolve(f.tools().stream().map(FindResult.ToolMatch::name).toList(), byFullName);
            ft.add(ids(matched), q.steps(), tokens.definitionTokens(specs(matched)));

            SelectResult s = scout.select(SelectRequest.of(text).withK(K));
            List<DatasetTool> selected = resolve(
                    s.selected().stream().map(SelectResult.SelectedTool::name).toList(), byFullName);
            // every definition the request carries, the engine's own tools included
            st.add(ids(selected), q.steps(), tokens.definitionTokens(s.specs()));
            if (++done % 500 == 0) {
                log.printf(
                        Locale.ROOT,
                        "bench-frameworks: %s: %,d of %,d queries%n",
                        set,
                        done,
                        plan.queries().size());
                log.flush();
            }
        }
        Result r = new Result(
                set,
                plan.tools().size(),
                plan.queries().size(),
                shortened,
                List.of(lt.scores(), ft.scores(), st.scores()));
        for (Tally.Scores sc : r.scores()) {
            log.printf(
                    Locale.ROOT,
                    "bench-frameworks: %s: %-11s R@5 %5.1f  N@10 %5.1f  C@10 %5.1f  tokens %,6.0f  no dataset tool for %,d"
                            + " queries%n",
                    set,
                    sc.retriever(),
                    sc.r5(),
                    sc.ndcg10(),
                    sc.c10(),
                    sc.tokens(),
                    sc.empty());
        }
        if (shortened > 0) {
            log.printf(
                    Locale.ROOT,
                    "bench-frameworks: %s: %,d queries longer than the ranking reads, given as their first part%n",
                    set,
                    shortened);
        }
        log.flush();
        return r;
    }

    /** The dataset tools of {@code names}, in order; a name that is no dataset tool's (an engine's own) is skipped. */
    static List<DatasetTool> resolve(List<String> names, Map<String, DatasetTool> byName) {
        List<DatasetTool> out = new ArrayList<>(names.size());
        for (String n : names) {
            DatasetTool t = byName.get(n);
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }

    private static List<String> ids(List<DatasetTool> tools) {
        return tools.stream().map(DatasetTool::id).toList();
    }

    private static List<ToolSpec> specs(List<DatasetTool> tools) {
        return tools.stream().map(DatasetTool::spec).toList();
    }
}
