package dev.toolscout.selection;

import dev.toolscout.access.AllowedSet;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.indexing.Hit;
import dev.toolscout.indexing.ToolIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * Runs the lexical and the dense retriever inside an allowed set and fuses their lists. The lexical search
 * needs no query vector, so it runs on another thread while the caller embeds the query: the request then
 * costs about the embedding plus the dense search, not the sum of all three. A message of several clauses
 * ({@link QueryClauses}) is also ranked clause by clause: the message and its clauses are embedded by one call
 * ({@link EmbeddingModel#embedQueries}, which the local model answers with one model call), their lexical
 * searches run meanwhile, and the lists are merged by {@link Fusion#clausePenalty()}. Thread-safe.
 *
 * <p>Owns its threads: one ranker serves a whole engine (the selector and the discovery tools share it), and
 * whoever made it closes it ({@link #close()}), which ends its threads; ranking after that is an error.
 */
public final class HybridRanker implements AutoCloseable {
    /**
     * A clause whose words are at least this share of the message's is not ranked on its own: its ranking would
     * repeat the message's.
     */
    static final double NEARLY_WHOLE = 0.9;

    /**
     * How many of a clause's best tools join the merged ranking at their own value for the clause, without the
     * clause penalty: each step of a request has a share of the places, decided by how well its tools match that
     * step, not by how they compare with the message's tools (docs/EVALUATION.md, "Cover every step": against
     * the best tool at half the penalty, metatool multi C@10 +0.8, seal-tools +1.8, one-tool sets unchanged).
     */
    static final int CLAUSE_SHARE = 2;

    /** Virtual threads: one short task per search (a message's and each clause's), no pool to size. */
    private final ExecutorService searchThreads = Executors.newVirtualThreadPerTaskExecutor();

    private final ToolIndex index;

    /** A ranker over {@code index}; close it when done with it. */
    public HybridRanker(ToolIndex index) {
        this.index = index;
    }

    /**
     * Ends this ranker's threads: rankings already running finish, new ones are refused with {@link
     * java.util.concurrent.RejectedExecutionException}. Idempotent.
     */
    @Override
    public void close() {
        searchThreads.shutdown();
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return searchThreads.isShutdown();
    }

    /**
     * Ranks the allowed tools; when the fusion {@linkplain Fusion#decomposes() decomposes} and the query has
     * several clauses, each clause (but one {@linkplain #NEARLY_WHOLE nearly the whole message}) is ranked too and
     * merged as {@link #mergeClauses} says. A ZSCORE fusion ranks a message of one clause with its {@link
     * Fusion#oneClauseAlpha()} ({@link Fusion#forClauses}), with or without the clause search.
     *
     * @param vectors embeds the message and the clauses it is given, the message's vector first (as {@link
     *     EmbeddingModel#embedQueries}; a clause without a vector is ranked by its words alone); called once,
     *     while the lexical searches run, and not at all when the fusion uses the lexical list alone
     * @param nameOf the tool name of an ordinal, for deterministic tie-breaking
     * @return the union of the retrievers' top {@code fusion.depth()}, best first, ties by name
     */
    public List<Ranked> rank(
            String query,
            BiFunction<String, List<String>, List<float[]>> vectors,
            AllowedSet allowed,
            Fusion fusion,
            IntFunction<String> nameOf) {
        return rank(query, vectors, allowed, fusion, nameOf, null);
    }

    /**
     * As {@link #rank(String, BiFunction, AllowedSet, Fusion, IntFunction)}, handing {@code messageHits} the whole
     * message's lexical hits inside {@code allowed} when the ranking searched them (a ZSCORE or LEXICAL fusion over a
     * non-empty set), so a caller that needs them (the router: does any word match a tool) need not search again.
     *
     * @param messageHits called at most once, or {@code null}
     */
    public List<Ranked> rank(
            String query,
            BiFunction<String, List<String>, List<float[]>> vectors,
            AllowedSet allowed,
            Fusion fusion,
            IntFunction<String> nameOf,
            java.util.function.Consumer<List<Hit>> messageHits) {
        java.util.function.Consumer<List<Hit>> seen = messageHits != null ? messageHits : h -> {};
        if (allowed.isEmpty()) {
            return List.of();
        }
        List<String> clauses = fusion.method() == Fusion.Method.ZSCORE ? QueryClauses.split(query) : List.of();
        List<String> ranked = fusion.decomposes() ? withoutNearlyWhole(query, clauses) : List.of();
        Fusion f = ranked.isEmpty() ? fusion.forClauses(clauses.size()) : fusion;
        int depth = f.depth();
        if (f.method() == Fusion.Method.LEXICAL) {
            List<Hit> hits = index.lexical(query, allowed, depth);
            seen.accept(hits);
            return fuse(hits, List.of(), f, nameOf);
        }
        if (f.method() == Fusion.Method.DENSE) {
            return fuse(List.of(), dense(vectors.apply(query, List.of()).get(0), allowed, depth), f, nameOf);
        }
        List<FutureTask<List<Hit>>> lexical = new ArrayList<>(ranked.size() + 1);
        lexical.add(lexicalSearch(query, allowed, depth));
        for (String c : ranked) {
            lexical.add(lexicalSearch(c, allowed, depth));
        }
        List<float[]> v;
        try {
            v = vectors.apply(query, ranked);
        } catch (RuntimeException e) {
            lexical.forEach(l -> l.cancel(false));
            throw e;
        }
        if (v.size() != ranked.size() + 1) {
            throw new IllegalStateException(
                    "the embedder returned " + v.size() + " vectors for a message and " + ranked.size() + " clauses");
        }
        // the clauses' vector searches start now, beside the message's on this thread: on a message of eight clauses
        // they were most of the ranking's own time (docs/BENCHMARKS.md, "Real messages")
        List<FutureTask<List<Hit>>> clauseDense = new ArrayList<>(ranked.size());
        for (int i = 0; i < ranked.size(); i++) {
            float[] clauseVector = v.get(i + 1);
            FutureTask<List<Hit>> t = new FutureTask<>(() -> dense(clauseVector, allowed, depth));
            if (clauseVector != null) {
                searchThreads.execute(t);
            } // else nothing to search: run below, on this thread, to its empty list
            clauseDense.add(t);
        }
        List<Hit> messageDense = dense(v.get(0), allowed, depth);
        // the searches no thread has started run here, from the last (the threads take them from the first)
        for (int i = clauseDense.size() - 1; i >= 0; i--) {
            clauseDense.get(i).run();
        }
        List<Hit> messageLexical = result(lexical.get(0));
        seen.accept(messageLexical);
        List<Ranked> whole = fuse(messageLexical, messageDense, f, nameOf);
        if (ranked.isEmpty()) {
            return whole;
        }
        List<List<Ranked>> lists = new ArrayList<>(ranked.size());
        for (int i = 0; i < ranked.size(); i++) {
            // a clause the model gave no vector (past what it reads of a long message) is ranked by its words alone, at
            // their full weight: not half of it beside an empty list of meanings
            Fusion clauseFusion = v.get(i + 1) == null ? f.withAlpha(0) : f;
            lists.add(fuse(result(lexical.get(i + 1)), result(clauseDense.get(i)), clauseFusion, nameOf));
        }
        return mergeClauses(whole, ranked, lists, f.clausePenalty(), nameOf);
    }

    /**
     * The clauses worth ranking on their own: all but one whose words are at least {@link #NEARLY_WHOLE} of the
     * message's (package-private for tests).
     */
    static List<String> withoutNearlyWhole(String message, List<String> clauses) {
        if (clauses.isEmpty()) {
            return clauses;
        }
        int words = QueryClauses.words(message);
        List<String> out = new ArrayList<>(clauses.size());
        for (String c : clauses) {
            if (QueryClauses.words(c) < NEARLY_WHOLE * words) {
                out.add(c);
            }
        }
        return out;
    }

    private List<Hit> dense(float[] vector, AllowedSet allowed, int depth) {
        return vector == null ? List.of() : index.dense(vector, allowed, depth);
    }

    /** A lexical search started on a virtual thread; {@link #result} runs it on the caller's if none took it yet. */
    private FutureTask<List<Hit>> lexicalSearch(String text, AllowedSet allowed, int depth) {
        FutureTask<List<Hit>> t = new FutureTask<>(() -> index.lexical(text, allowed, depth));
        searchThreads.execute(t);
        return t;
    }

    /**
     * The search's hits. On a busy machine the virtual thread may not have started by the time the caller needs
     * them: the caller then runs the search itself rather than wait for a core to free up (a task runs once;
     * running a started one does nothing, and the caller waits for it).
     */
    private static List<Hit> result(FutureTask<List<Hit>> t) {
        t.run();
        try {
            return t.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a lexical search", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Merges the whole query's ZSCORE ranking with its clauses' (package-private for tests). A tool's
     * fused value (the score before the logistic) is the best of its value for the whole query and, for each
     * clause, its value for the clause less {@code penalty} (nothing for the clause's first {@link #CLAUSE_SHARE}
     * tools, so each step of a request brings its own best tools at the value its step gives them); a tool the
     * whole query's list lacks starts from that list's lowest value. A tool whose best value came from a clause carries the clause, and that
     * clause's ranks and similarity. Best first, ties by name; ties between the whole query and a clause go to
     * the whole query.
     */
    static List<Ranked> mergeClauses(
            List<Ranked> whole,
            List<String> clauses,
            List<List<Ranked>> clauseLists,
            double penalty,
            IntFunction<String> nameOf) {
        Map<Integer, Ranked> best = new HashMap<>();
        Map<Integer, Double> value = new HashMap<>();
        for (Ranked r : whole) {
            best.put(r.ord(), r);
            value.put(r.ord(), logit(r.score()));
        }
        // the whole list is best first: its last value is its lowest
        double floor = whole.isEmpty()
                ? Double.NEGATIVE_INFINITY
                : logit(whole.get(whole.size() - 1).score());
        for (int i = 0; i < clauseLists.size(); i++) {
            String clause = clauses.get(i);
            List<Ranked> list = clauseLists.get(i);
            for (int j = 0; j < list.size(); j++) {
                Ranked r = list.get(j);
                double v = Math.max(logit(r.score()) - (j < CLAUSE_SHARE ? 0 : penalty), floor);
                Double had = value.get(r.ord());
                if (had == null || v > had) {
                    value.put(r.ord(), v);
                    best.put(
                            r.ord(),
                            new Ranked(
                                    r.ord(),
                                    1 / (1 + Math.exp(-v)),
                                    r.lexicalRank(),
                                    r.denseRank(),
                                    r.similarity(),
                                    clause));
                }
            }
        }
        // sorted by the value held beside each tool (looking it up in the map for every comparison boxed an ordinal
        // each time: on a message of eight clauses, the merge's largest cost)
        // (and the name it ties by, looked up once: many tools of a long message share the floor's value)
        record Valued(Ranked ranked, double value, String name) {}
        List<Valued> valued = new ArrayList<>(best.size());
        best.forEach((ord, r) -> valued.add(new Valued(r, value.get(ord), nameOf.apply(ord))));
        valued.sort((x, y) -> {
            int c = Double.compare(y.value(), x.value());
            return c != 0 ? c : x.name().compareTo(y.name());
        });
        List<Ranked> out = new ArrayList<>(valued.size());
        valued.forEach(x -> out.add(x.ranked()));
        return out;
    }

    /** The inverse of the logistic that ZSCORE scores go through (clamped: a score of exactly 0 or 1). */
    private static double logit(double score) {
        double s = Math.min(1 - 1e-15, Math.max(1e-15, score));
        return Math.log(s / (1 - s));
    }

    /** Fuses two ranked lists (package-private for tests). */
    static List<Ranked> fuse(List<Hit> lexical, List<Hit> dense, Fusion fusion, IntFunction<String> nameOf) {
        Fusion.Method method = fusion.method();
        double[] ln = normalize(lexical, method, true);
        double[] dn = normalize(dense, method, false);
        double alpha = method == Fusion.Method.ZSCORE ? adaptiveAlpha(fusion.alpha(), ln, dn) : fusion.alpha();
        // ZSCORE: a tool one retriever did not return scores as that retriever's lowest (it ranks below its
        // list), and never above 0, the standardized score of a list whose scores were all equal
        double lMiss = method == Fusion.Method.ZSCORE ? minOrZero(ln) : 0;
        double dMiss = method == Fusion.Method.ZSCORE ? minOrZero(dn) : 0;
        Map<Integer, double[]> acc = new HashMap<>(); // ord -> {lexNorm, denseNorm, lexRank, denseRank, similarity}
        for (int i = 0; i < lexical.size(); i++) {
            double[] a = acc.computeIfAbsent(lexical.get(i).ord(), k -> new double[] {0, 0, 0, 0, Double.NaN});
            a[0] = ln[i];
            a[2] = i + 1;
        }
        for (int i = 0; i < dense.size(); i++) {
            Hit h = dense.get(i);
            double[] a = acc.computeIfAbsent(h.ord(), k -> new double[] {0, 0, 0, 0, Double.NaN});
            a[1] = dn[i];
            a[3] = i + 1;
            a[4] = h.score();
        }
        List<Ranked> out = new ArrayList<>(acc.size());
        acc.forEach((ord, a) -> {
            boolean inLex = a[2] > 0;
            boolean inDense = a[3] > 0;
            double score;
            switch (method) {
                case LEXICAL -> {
                    if (!inLex) {
                        return;
                    }
                    score = a[0];
                }
                case DENSE -> {
                    if (!inDense) {
                        return;
                    }
                    score = Math.max(0, a[4]);
                }
                // logistic: any real sum to 0-1, order kept
                case ZSCORE ->
                    score = 1
                            / (1
                                    + Math.exp(-((1 - alpha) * (inLex ? a[0] : lMiss)
                                            + alpha * (inDense ? a[1] : dMiss))));
                default -> throw new IllegalStateException("unknown fusion method " + method);
            }
            out.add(new Ranked(ord, score, (int) a[2], (int) a[3], a[4]));
        });
        out.sort((x, y) -> {
            int c = Double.compare(y.score(), x.score());
            return c != 0 ? c : nameOf.apply(x.ord()).compareTo(nameOf.apply(y.ord()));
        });
        return out;
    }

    /**
     * ZSCORE's per-query dense weight: {@code alpha} scaled by how far each list's best hit stands out (its
     * standardized score, floored at 0). With one list empty or both confidences 0, {@code alpha} itself.
     */
    static double adaptiveAlpha(double alpha, double[] lexicalZ, double[] denseZ) {
        if (lexicalZ.length < 2 || denseZ.length < 2) {
            return alpha;
        }
        double cl = Math.max(0, lexicalZ[0]);
        double cd = Math.max(0, denseZ[0]);
        double w = alpha * cd + (1 - alpha) * cl;
        return w > 1e-9 ? alpha * cd / w : alpha;
    }

    /** The smallest value, or 0 if none is below 0. */
    private static double minOrZero(double[] v) {
        double m = 0;
        for (double x : v) {
            m = Math.min(m, x);
        }
        return m;
    }

    /**
     * One list's scores, normalized for {@code method}, in list order. ZSCORE: standardized by the mean and
     * (population) standard deviation of the first {@link Fusion#Z_WINDOW} scores, so fetching a longer list
     * for a larger K leaves the scores of the top tools unchanged; a list whose window scores are all equal
     * says only which tools matched, and they get 1. LEXICAL: divided by the maximum; DENSE: min-max (its
     * fused score is the cosine itself).
     */
    static double[] normalize(List<Hit> hits, Fusion.Method method, boolean lexical) {
        int n = hits.size();
        double[] out = new double[n];
        if (n == 0) {
            return out;
        }
        int w = method == Fusion.Method.ZSCORE ? Math.min(n, Fusion.Z_WINDOW) : n;
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        double sum = 0;
        for (int i = 0; i < w; i++) {
            double s = hits.get(i).score();
            max = Math.max(max, s);
            min = Math.min(min, s);
            sum += s;
        }
        double mean = sum / w;
        double var = 0;
        for (int i = 0; i < w; i++) {
            double d = hits.get(i).score() - mean;
            var += d * d;
        }
        double sd = Math.sqrt(var / w);
        boolean byMax = lexical && method == Fusion.Method.LEXICAL;
        for (int i = 0; i < n; i++) {
            double s = hits.get(i).score();
            if (method == Fusion.Method.ZSCORE) {
                out[i] = sd > 1e-9 ? (s - mean) / sd : 1;
            } else if (byMax) {
                out[i] = max > 0 ? s / max : 0;
            } else {
                out[i] = max - min > 1e-9 ? (s - min) / (max - min) : 1;
            }
        }
        return out;
    }
}
