package dev.toolscout.lucene;

/**
 * Per-field weights of the lexical (BM25) query: a document's score is the sum over fields of the field's
 * weight times its BM25 score for the query terms. A weight of 0 leaves the field out of the query.
 *
 * <p>The {@link #DEFAULTS} (name words 1.5, description 1.0, params 1.0, labels 0.8) were measured on the
 * tool-retrieval development sets (toollens, metatool single and multi, seal-tools dev and out-of-domain,
 * ToolRet apibank, apigen, gorilla-hf, toolink; mean nDCG@10 over the nine): 58.4, against 56.6 for a
 * name-heavy 2.5 / 1.0 / 0.6 / 0.8 and 58.3 for all 1.0. Name weights above 2 or params below 0.6 lost on
 * almost every set (parameter text often says what a tool is for); the extra weight on the name wins on
 * sets whose tools have little more than a name and a description (metatool multi +4 nDCG@10 over 1.0).
 *
 * @param nameWords weight of the tool name split into words
 * @param description weight of the description
 * @param params weight of parameter names, descriptions and enum values
 * @param labels weight of category, tags and source
 */
public record LexicalWeights(float nameWords, float description, float params, float labels) {
  /** Name words 1.5, description 1.0, params 1.0, labels 0.8. */
  public static final LexicalWeights DEFAULTS = new LexicalWeights(1.5f, 1.0f, 1.0f, 0.8f);

  public LexicalWeights {
    check("nameWords", nameWords);
    check("description", description);
    check("params", params);
    check("labels", labels);
    if (nameWords + description + params + labels == 0) {
      throw new IllegalArgumentException("lexical weights must not all be 0");
    }
  }

  private static void check(String field, float weight) {
    if (!(weight >= 0 && Float.isFinite(weight))) {
      throw new IllegalArgumentException(
          "lexical weight of " + field + " must be a finite number >= 0, got: " + weight);
    }
  }
}
