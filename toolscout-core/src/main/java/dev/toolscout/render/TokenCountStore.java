package dev.toolscout.render;

import java.util.Collection;
import java.util.Map;

/**
 * Each tool definition's token count, a cache by content hash and counter. Thread-safe.
 */
public interface TokenCountStore {
    /**
     * The stored token counts of tool definitions counted by {@code counter} (see {@code render.TokenCounter#identity}),
     * by content hash, for these hashes; hashes with none are left out. Counts of other counters are never returned.
     * Rows are returned as stored: the caller checks them (a negative count is not a count).
     */
    Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes);

    /**
     * Stores definition token counts of {@code counter} by content hash (replacing any with the same hash and
     * counter) and, in the same transaction, removes the stored counts (of any counter) of every content hash that
     * is neither a stored tool's nor given here, so counts of removed or changed tools do not pile up. Durable on
     * return.
     *
     * @throws IllegalArgumentException when a count is negative
     */
    void saveTokenCounts(String counter, Map<String, Integer> byContentHash);
}
