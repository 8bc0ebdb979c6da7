package dev.toolscout.eval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Tool-retrieval metrics over one ranking, as defined in {@code datasets/README.md}: gains are binary (a
 * tool is gold or not), a ranking is a list of distinct tool ids, best first. Pure functions; {@link
 * Accumulator} averages them over queries.
 */
public final class Metrics {
    private Metrics() {}

    /** The share of the gold tools found in the first {@code k} of {@code ranked}, in [0, 1]. */
    public static double recallAt(int k, List<String> ranked, Set<String> gold) {
        checkArgs(k, ranked, gold);
        return stepRecallAt(k, ranked, steps(gold));
    }

    /**
     * Normalized discounted cumulative gain at {@code k} with binary gains: {@code DCG = sum over gold tools at
     * rank r <= k of 1 / log2(r + 1)}, divided by the DCG of an ideal ranking that puts {@code min(|gold|, k)}
     * gold tools first. In [0, 1].
     */
    public static double ndcgAt(int k, List<String> ranked, Set<String> gold) {
        checkArgs(k, ranked, gold);
        return stepNdcgAt(k, ranked, steps(gold));
    }

    /** Completeness: 1 when every gold tool is in the first {@code k} of {@code ranked}, else 0. */
    public static double completeAt(int k, List<String> ranked, Set<String> gold) {
        checkArgs(k, ranked, gold);
        return stepCompleteAt(k, ranked, steps(gold));
    }

    /**
     * Any-of recall: the share of {@code steps} (each a set of equivalent tools, any one of which serves it) that
     * have a tool in the first {@code k} of {@code ranked}, in [0, 1]. With one tool per step it is {@link
     * #recallAt}.
     */
    public static double stepRecallAt(int k, List<String> ranked, List<Set<String>> steps) {
        checkSteps(k, ranked, steps);
        return (double) stepsFound(k, ranked, steps) / steps.size();
    }

    /** Any-of completeness: 1 when every step has a tool in the first {@code k} of {@code ranked}, else 0. */
    public static double stepCompleteAt(int k, List<String> ranked, List<Set<String>> steps) {
        checkSteps(k, ranked, steps);
        return stepsFound(k, ranked, steps) == steps.size() ? 1 : 0;
    }

    /**
     * Any-of nDCG at {@code k}: a ranked tool gains {@code 1 / log2(r + 1)} when it serves a step no earlier tool
     * served (the first such step, in the given order; one step per tool), divided by the DCG of {@code min(|steps|,
     * k)} such tools first. With one tool per step it is {@link #ndcgAt}.
     */
    public static double stepNdcgAt(int k, List<String> ranked, List<Set<String>> steps) {
        checkSteps(k, ranked, steps);
        boolean[] served = new boolean[steps.size()];
        double dcg = 0;
        int n = Math.min(k, ranked.size());
        for (int i = 0; i < n; i++) {
            String id = ranked.get(i);
            for (int j = 0; j < steps.size(); j++) {
                if (!served[j] && steps.get(j).contains(id)) {
                    served[j] = true;
                    dcg += discount(i + 1);
                    break;
                }
            }
        }
        double ideal = 0;
        for (int r = 1; r <= Math.min(k, steps.size()); r++) {
            ideal += discount(r);
        }
        return dcg / ideal;
    }

    /** Each gold tool as a step of its own. */
    private static List<Set<String>> steps(Set<String> gold) {
        List<Set<String>> out = new ArrayList<>(gold.size());
        gold.forEach(g -> out.add(Set.of(g)));
        return out;
    }

    /** {@code ms} to three decimals (milliseconds to the microsecond), as the benches report latencies. */
    public static double roundMillis(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }

    /**
     * The nearest-rank percentile of {@code values} (not modified): the smallest value with at least {@code p}
     * percent of the values at or below it; 0 for no values.
     */
    public static double percentile(double[] values, int p) {
        if (p < 1 || p > 100) {
            throw new IllegalArgumentException("percentile must be between 1 and 100, got: " + p);
        }
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static double discount(int rank) {
        return 1 / (Math.log(rank + 1) / Math.log(2));
    }

    private static int stepsFound(int k, List<String> ranked, List<Set<String>> steps) {
        Set<String> top = new HashSet<>(ranked.subList(0, Math.min(k, ranked.size())));
        int found = 0;
        for (Set<String> step : steps) {
            for (String id : step) {
                if (top.contains(id)) {
                    found++;
                    break;
                }
            }
        }
        return found;
    }

    private static void checkArgs(int k, List<String> ranked, Set<String> gold) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got: " + k);
        }
        Objects.requireNonNull(ranked, "ranked");
        Objects.requireNonNull(gold, "gold");
        if (gold.isEmpty()) {
            throw new IllegalArgumentException(
                    "gold must hold at least one tool (queries without gold are not scored)");
        }
    }

    private static void checkSteps(int k, List<String> ranked, List<Set<String>> steps) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got: " + k);
        }
        Objects.requireNonNull(ranked, "ranked");
        Objects.requireNonNull(steps, "steps");
        if (steps.isEmpty() || steps.stream().anyMatch(Set::isEmpty)) {
            throw new IllegalArgumentException(
                    "steps must hold at least one step, each with at least one tool, got: " + steps);
        }
    }

    /** Means over queries, in percent (0-100). */
    public record Scores(int queries, double r5, double r10, double ndcg10, double c5, double c10) {}

    /** Sums the per-query metrics of {@link Scores}; not thread-safe. */
    public static final class Accumulator {
        private int queries;
        private double r5;
        private double r10;
        private double ndcg10;
        private double c5;
        private double c10;

        /** Adds one query's ranking (at least its first 10 ids) and its gold set. */
        public void add(List<String> ranked, Set<String> gold) {
            r5 += recallAt(5, ranked, gold);
            r10 += recallAt(10, ranked, gold);
            ndcg10 += ndcgAt(10, ranked, gold);
            c5 += completeAt(5, ranked, gold);
            c10 += completeAt(10, ranked, gold);
            queries++;
        }

        /** The means so far, in percent; all zero when no query was added. */
        public Scores scores() {
            if (queries == 0) {
                return new Scores(0, 0, 0, 0, 0, 0);
            }
            double f = 100.0 / queries;
            return new Scores(queries, r5 * f, r10 * f, ndcg10 * f, c5 * f, c10 * f);
        }
    }
}
