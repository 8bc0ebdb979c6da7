package dev.toolscout.selection;

/**
 * How the lexical and the dense result lists become one ranking.
 *
 * @param method {@link Method#ZSCORE} (the default): {@code a * z(dense) + (1 - a) * z(lexical)}, each
 *     list's scores standardized by the mean and standard deviation of its first {@value #Z_WINDOW} scores, a
 *     tool missing from a list taking that list's lowest standardized score, reported through a logistic so
 *     it lies in 0-1. The weight adapts to the query: {@code a = alpha * cd / (alpha * cd + (1 - alpha) * cl)},
 *     where {@code cl} and {@code cd} are the standardized scores of each list's best hit (how far it stands
 *     out, floored at 0), so the retriever whose best answer stands out more counts more; {@link
 *     Method#LEXICAL} or {@link Method#DENSE}: one retriever alone (the evaluation's baselines). Other
 *     fusions measured and not adopted (convex sums, reciprocal rank fusion) are in
 *     docs/EVALUATION_HISTORY.md, with the commit that reproduces them
 * @param alpha the dense weight, 0-1: for a message of several clauses ({@link QueryClauses}) and for each of
 *     its clauses
 * @param oneClauseAlpha ZSCORE only: the dense weight for a message of one clause, 0-1. A single request is one
 *     intent, which the message's vector stands for; a message of several is a blend of them, where the
 *     lexical list's literal matches count for more (docs/EVALUATION_HISTORY.md, "The dense weight of a one-clause
 *     message")
 * @param depth how many candidates each retriever contributes (the selector asks for at least 3 K)
 * @param clausePenalty ZSCORE only: a message of several clauses ({@link QueryClauses}) is also ranked clause
 *     by clause, and a tool's fused score (before the logistic) is the best of its score for the whole message
 *     and its score for each clause less this penalty (none for each clause's first {@code HybridRanker.CLAUSE_SHARE}
 *     tools: each step's best tools join at their own score), so a clause's further tools join the list only
 *     when they match their clause much better than the message's own candidates match the message; {@code Double.POSITIVE_INFINITY} ranks the message whole only
 */
public record Fusion(Method method, double alpha, double oneClauseAlpha, int depth, double clausePenalty) {
    public enum Method {
        ZSCORE,
        LEXICAL,
        DENSE
    }

    /** ZSCORE statistics are taken over this many top scores of each list, whatever the depth. */
    public static final int Z_WINDOW = 50;

    /**
     * The product default: ZSCORE, alpha 0.5, depth 50 (so the statistics see the same {@value #Z_WINDOW}
     * scores at every K up to 16 and in the evaluation, which ranks 150 deep for K 50).
     *
     * <p>Chosen on the eight development sets (docs/EVALUATION_HISTORY.md; means over sets, metatool single capped at
     * 3,000 queries, with the default lexical weights): mean nDCG@10 59.1 and C@10 58.3, against 57.7 / 56.0 for
     * the former default (a convex sum, alpha 0.5) and 59.0 / 57.5 for ZSCORE with a fixed alpha. Standardizing puts both retrievers on
     * one scale per query: BM25 scores are unbounded and their maximum says little, and a dense list's min-max
     * range depends on how deep it was fetched. The adaptive weight mostly helps seal-tools, whose queries name
     * parameters literally (BM25's best hit stands out). Fixed alphas 0.45-0.55 were within 0.3 points of each
     * other; RRF (k 10, 30, 60) lost 1.5-3 points; adaptive weights on min-max scores (three margin
     * definitions) gained nothing.
     *
     * <p>A message of one clause (most requests) takes a dense weight of 0.6 instead of 0.5: on the seven sets
     * other than ToolLens the means gain 0.2 nDCG@10 and 0.4 C@10 (metatool single +1.1 / +0.9, metatool multi
     * C@10 +1.0, gorilla +0.4 / +1.0, apigen -0.1 / -0.4, the rest within 0.1; ToolLens +2.5 nDCG@10), where a
     * dense weight of 0.6 for every message cost seal-tools' multi-step requests 1.9 C@10.
     *
     * <p>The clause penalty of 2.0 (1.0 for each clause's best tool) was chosen the same way (docs/EVALUATION_HISTORY.md,
     * "Query decomposition"): seal-tools out-of-domain, whose requests chain one tool per sentence, C@10 74.6 ->
     * 89.1; apigen +1.4, metatool multi +0.6; metatool single and apibank within 0.1, gorilla and toolink
     * within 0.5 nDCG@10. Lower penalties gain more on multi-step requests and lose more on one-tool requests with a
     * sentence of context (gorilla, toolink); 3 gains about half as much.
     */
    public static final Fusion DEFAULT = new Fusion(Method.ZSCORE, 0.5, 0.6, 50, 2.0);

    public Fusion {
        if (method == null) {
            throw new IllegalArgumentException("fusion method is required");
        }
        if (!(alpha >= 0 && alpha <= 1)) {
            throw new IllegalArgumentException("fusion alpha must be between 0 and 1, got: " + alpha);
        }
        if (!(oneClauseAlpha >= 0 && oneClauseAlpha <= 1)) {
            throw new IllegalArgumentException("fusion oneClauseAlpha must be between 0 and 1, got: " + oneClauseAlpha);
        }
        if (depth < 1 || depth > 10_000) {
            throw new IllegalArgumentException("fusion depth must be between 1 and 10000, got: " + depth);
        }
        if (!(clausePenalty >= 0)) {
            throw new IllegalArgumentException(
                    "fusion clausePenalty must be at least 0 (Infinity: no clause search), got: " + clausePenalty);
        }
    }

    /** Whether a message of several clauses is also ranked clause by clause. */
    public boolean decomposes() {
        return method == Method.ZSCORE && clausePenalty != Double.POSITIVE_INFINITY;
    }

    /**
     * The fusion a message of {@code clauses} clauses ({@link QueryClauses#split}: 0 for a message of one) is
     * ranked with: for ZSCORE and a message of one clause, this one with {@link #oneClauseAlpha()} as its alpha;
     * otherwise this one.
     */
    public Fusion forClauses(int clauses) {
        return method == Method.ZSCORE && clauses < 2 ? withAlpha(oneClauseAlpha) : this;
    }

    public Fusion withMethod(Method m) {
        return new Fusion(m, alpha, oneClauseAlpha, depth, clausePenalty);
    }

    /** This fusion with dense weight {@code a} for every message, of one clause or several. */
    public Fusion withAlpha(double a) {
        return new Fusion(method, a, a, depth, clausePenalty);
    }

    public Fusion withDepth(int d) {
        return new Fusion(method, alpha, oneClauseAlpha, d, clausePenalty);
    }

    /** This fusion with another clause penalty ({@code Double.POSITIVE_INFINITY}: the message whole only). */
    public Fusion withClausePenalty(double p) {
        return new Fusion(method, alpha, oneClauseAlpha, depth, p);
    }
}
