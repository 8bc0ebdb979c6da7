package dev.toolscout.selection;

/**
 * One tool in a fused ranking.
 *
 * @param ord the catalog ordinal
 * @param score the fused score, 0-1 (higher is better)
 * @param lexicalRank 1-based rank in the lexical list, or 0 when absent
 * @param denseRank 1-based rank in the dense list, or 0 when absent
 * @param similarity the cosine similarity to the query, or NaN when the tool was not in the dense list
 * @param clause the clause of the message the tool was ranked for ({@link QueryClauses}; the ranks and
 *     similarity are then the clause's), or null when it ranked for the whole message
 */
public record Ranked(int ord, double score, int lexicalRank, int denseRank, double similarity, String clause) {
    public Ranked(int ord, double score, int lexicalRank, int denseRank, double similarity) {
        this(ord, score, lexicalRank, denseRank, similarity, null);
    }
}
