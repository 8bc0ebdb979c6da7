package dev.toolscout.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** What both stores share about the {@code definition_tokens} table (migration 8). Stateless. */
final class TokenCountRows {
    /**
     * Deletes the counts of content hashes no stored tool has, except those {@code ${SAVED}} (a subquery) names: one
     * pass over each table, whatever their sizes.
     */
    static final String PRUNE =
            "DELETE FROM definition_tokens WHERE content_hash NOT IN (SELECT content_hash FROM tools)"
                    + " AND content_hash NOT IN (${SAVED})";

    private TokenCountRows() {}

    /** A counter's name must not be blank (the stores refuse it before any SQL). */
    static void requireCounter(String counter) {
        if (counter == null || counter.isBlank()) {
            throw new IllegalArgumentException("token counter must not be blank, got: '" + counter + "'");
        }
    }

    /** The hashes to look up, each once, in the order given; a null hash is refused. */
    static List<String> distinctHashes(Collection<String> contentHashes) {
        Objects.requireNonNull(contentHashes, "contentHashes");
        List<String> hashes = new ArrayList<>(new LinkedHashSet<>(contentHashes));
        if (hashes.contains(null)) {
            throw new NullPointerException("contentHashes must not hold null");
        }
        return hashes;
    }

    /** The rows to save, in hash order (one lock order for every writer); a null hash or a negative count is refused. */
    static Map<String, Integer> checked(Map<String, Integer> byContentHash) {
        Objects.requireNonNull(byContentHash, "byContentHash");
        Map<String, Integer> rows = new TreeMap<>();
        byContentHash.forEach((hash, n) -> {
            Objects.requireNonNull(hash, "byContentHash must not hold null hashes");
            if (n == null || n < 0) {
                throw new IllegalArgumentException(
                        "token count of content hash '" + hash + "' must be at least 0, got: " + n);
            }
            rows.put(hash, n);
        });
        return rows;
    }
}
