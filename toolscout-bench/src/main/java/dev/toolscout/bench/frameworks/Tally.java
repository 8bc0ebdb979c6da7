package dev.toolscout.bench.frameworks;

import dev.toolscout.eval.Metrics;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One retriever's figures over a set's queries, with toolscout-eval's metric code ({@link Metrics}, any-of steps):
 * R@5, nDCG@10 and C@10 in percent, and the mean tokens of the tool definitions it returned per query. Not
 * thread-safe.
 */
public final class Tally {
    /**
     * Means over the queries added.
     *
     * @param empty how many queries it returned no dataset tool for
     */
    public record Scores(
            String retriever, int queries, double r5, double ndcg10, double c10, double tokens, int empty) {}

    private final String retriever;
    private int queries;
    private int empty;
    private double r5;
    private double ndcg10;
    private double c10;
    private long tokens;

    public Tally(String retriever) {
        this.retriever = Objects.requireNonNull(retriever, "retriever");
    }

    /**
     * Adds one query.
     *
     * @param ranked the dataset ids the retriever returned, best first
     * @param steps the query's gold steps (each a set of equivalent ids; one id per step without any-of)
     * @param definitionTokens the tokens of every tool definition it returned
     */
    public void add(List<String> ranked, List<Set<String>> steps, int definitionTokens) {
        if (definitionTokens < 0) {
            throw new IllegalArgumentException("definitionTokens must be >= 0, got: " + definitionTokens);
        }
        r5 += Metrics.stepRecallAt(5, ranked, steps);
        ndcg10 += Metrics.stepNdcgAt(10, ranked, steps);
        c10 += Metrics.stepCompleteAt(10, ranked, steps);
        tokens += definitionTokens;
        empty += ranked.isEmpty() ? 1 : 0;
        queries++;
    }

    /** The means so far (metrics in percent, one decimal; tokens whole); all zero when no query was added. */
    public Scores scores() {
        if (queries == 0) {
            return new Scores(retriever, 0, 0, 0, 0, 0, 0);
        }
        return new Scores(
                retriever,
                queries,
                pct(r5 / queries),
                pct(ndcg10 / queries),
                pct(c10 / queries),
                Math.round((double) tokens / queries),
                empty);
    }

    private static double pct(double v) {
        return Math.round(v * 1000) / 10.0;
    }
}
