package dev.toolscout.selection;

import dev.toolscout.indexing.Hit;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The JMH benchmarks' way to the fusion step, which core keeps package-private (it is no API): this class sits in
 * core's package but in toolscout-bench, which is never shipped, as Lucene's test framework reaches package-private
 * code from its own jar. Measuring the fusion through {@link HybridRanker#rank} instead would also time the
 * hand-over of the BM25 list between threads, which is not the fusion.
 */
public final class FusionAccess {
    private FusionAccess() {}

    /** {@link HybridRanker}'s fusion of two ranked lists, unchanged. */
    public static List<Ranked> fuse(List<Hit> lexical, List<Hit> dense, Fusion fusion, IntFunction<String> nameOf) {
        return HybridRanker.fuse(lexical, dense, fusion, nameOf);
    }

    /** The clauses {@link HybridRanker#rank} embeds for {@code message} (none for a message of one clause). */
    public static List<String> rankedClauses(String message) {
        return HybridRanker.withoutNearlyWhole(message, QueryClauses.split(message));
    }
}
