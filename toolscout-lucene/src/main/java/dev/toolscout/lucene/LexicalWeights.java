package dev.toolscout.lucene;

/**
 * Per-field weights of the lexical (BM25) query: a document's score is the sum over fields of the field's
 * weight times its BM25 score for the query terms. A weight of 0 leaves the field out of the query.
 *
 * <p>The {@link #DEFAULTS} query two fields: {@code all} (name words, description, parameter text and labels
 * as one field, i.e. plain BM25 over the whole tool text) with weight 1, plus the name words again with weight
 * 1 as a name bonus. Measured on the eight development sets in the hybrid default (docs/EVALUATION.md; means
 * over sets, metatool single capped at 3,000 queries): nDCG@10 59.0 / C@10 57.5, against 58.7 / 57.5 for the
 * former four-field sum (name 1.5, description 1.0, params 1.0, labels 0.8), 58.8 / 57.4 for the four fields
 * plus {@code all}, 58.8 / 57.2 for name 0.5 + all, and 57.8 / 56.0 for {@code all} alone. One field scores a
 * term once with one length norm; summing four fields counted a word found in the name, the description and
 * the parameters three times. The name bonus matters where tools have little more than a name (metatool multi
 * loses 6 points of nDCG@10 without it); the combined field wins on long flattened texts (toollens, gorilla,
 * toolink).
 *
 * @param nameWords weight of the tool name split into words
 * @param description weight of the description
 * @param params weight of parameter names, descriptions and enum values
 * @param labels weight of category, tags and source
 * @param all weight of the combined field (all four texts as one)
 */
public record LexicalWeights(float nameWords, float description, float params, float labels, float all) {
    /** Name words 1.0 and the combined field 1.0; the separate description, params and labels fields 0. */
    public static final LexicalWeights DEFAULTS = new LexicalWeights(1.0f, 0f, 0f, 0f, 1.0f);

    public LexicalWeights {
        check("nameWords", nameWords);
        check("description", description);
        check("params", params);
        check("labels", labels);
        check("all", all);
        if (nameWords + description + params + labels + all == 0) {
            throw new IllegalArgumentException("lexical weights must not all be 0");
        }
    }

    /** Per-field weights without the combined field. */
    public LexicalWeights(float nameWords, float description, float params, float labels) {
        this(nameWords, description, params, labels, 0);
    }

    private static void check(String field, float weight) {
        if (!(weight >= 0 && Float.isFinite(weight))) {
            throw new IllegalArgumentException(
                    "lexical weight of " + field + " must be a finite number >= 0, got: " + weight);
        }
    }
}
