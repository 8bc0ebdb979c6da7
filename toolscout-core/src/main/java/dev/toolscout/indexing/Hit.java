package dev.toolscout.indexing;

import java.util.Comparator;

/** One search result: a catalog ordinal and a retriever's raw score (higher is better). */
public record Hit(int ord, float score) {
    /** Best first: score descending, then ordinal ascending, so equal scores keep one order. */
    public static final Comparator<Hit> BEST_FIRST =
            Comparator.comparingDouble((Hit h) -> -h.score()).thenComparingInt(Hit::ord);
}
