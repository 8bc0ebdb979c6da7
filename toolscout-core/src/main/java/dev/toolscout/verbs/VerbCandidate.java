package dev.toolscout.verbs;

import dev.toolscout.model.SourceKind;

/**
 * A verb or a tool found for a description.
 *
 * @param name the catalog tool name ({@code verbs__SEARCH_WEB} for a verb)
 * @param sourceKind {@link SourceKind#VERB} for a verb, the tool's kind otherwise
 * @param description the verb's or tool's description
 * @param confidence how alike the candidate and the searched verb are ({@link VerbMatch}): the cosine of the
 *     two descriptions embedded alone as documents, combined with the overlap of the input names when the verb
 *     names inputs; in -1..1, absolute (comparable across requests and catalogs, unlike {@code score}), 1 for a
 *     copy under any name, and what a substitution's threshold applies to; {@code NaN} puts it below any threshold
 * @param score the fused hybrid score, 0-1, that orders the candidates: relative to the other candidates of
 *     this search (even text of no meaning gets a high one), so never a confidence
 * @param lexicalRank 1-based rank in the keyword (BM25) list, or 0 when absent
 * @param denseRank 1-based rank in the by-meaning (embedding) list, or 0 when absent
 */
public record VerbCandidate(
        String name,
        SourceKind sourceKind,
        String description,
        double confidence,
        double score,
        int lexicalRank,
        int denseRank) {
    /** Whether the candidate is a registered verb (else a tool). */
    public boolean isVerb() {
        return sourceKind == SourceKind.VERB;
    }
}
