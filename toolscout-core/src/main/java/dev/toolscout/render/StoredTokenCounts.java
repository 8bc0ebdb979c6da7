package dev.toolscout.render;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.indexing.TokenCounts;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * Keeps a {@link TokenCounter}'s definition counts in the state store, so that a start counts no definition an
 * earlier one counted (issue 22: counting every visible definition was about a second of the first selection at
 * 10k tools). A count depends only on the definition's content and the counter ({@link TokenCounter#identity}), so
 * it is stored by content hash and counter identity; counts under another identity are never read.
 *
 * <p>{@link #load} runs at open, before the first selection. {@link #fill} runs off the request path (the tool
 * indexer's thread, after indexing): it stores the counts of the definitions that have none, {@value #BATCH} at a
 * time, taking first what another process (a replica) stored and what the counter already holds. Each save also
 * drops the counts of content hashes no stored tool has (the store's {@link TokenCountStore#saveTokenCounts}), except the
 * {@code extra} definitions' (the engine's own tools, which are not in the catalog), which every save names.
 *
 * <p>Thread-safety: {@link #load} and {@link #fill} may run on different threads, one call of each at a time.
 */
public final class StoredTokenCounts implements TokenCounts {
    /** Definitions counted, then saved in one transaction, between two checks for more urgent work. */
    public static final int BATCH = 512;

    private final TokenCountStore store;
    private final TokenCounter counter;
    private final List<ToolSpec> extra;
    /** Content hashes whose count this process knows to be stored under the counter's identity. */
    private final Set<String> stored = ConcurrentHashMap.newKeySet();

    /**
     * @param extra definitions counted besides the catalog's (the engine's own tools), stored and kept the same way
     */
    public StoredTokenCounts(TokenCountStore store, TokenCounter counter, List<ToolSpec> extra) {
        this.store = java.util.Objects.requireNonNull(store, "store");
        this.counter = java.util.Objects.requireNonNull(counter, "counter");
        this.extra = List.copyOf(extra);
    }

    /**
     * Gives the counter the stored counts of {@code snapshot}'s definitions and the extra ones. Reads only.
     *
     * @return how many counts were taken (a bad stored row, a negative count say, is not)
     */
    public int load(Catalog.Snapshot snapshot) {
        List<String> hashes = new ArrayList<>(snapshot.size());
        for (CatalogEntry e : snapshot.entries()) {
            hashes.add(e.contentHash());
        }
        return load(hashes);
    }

    /** The same for the definitions with these content hashes (a stored catalog's, before it is a snapshot). */
    public int load(java.util.Collection<String> contentHashes) {
        Set<String> hashes = new HashSet<>(contentHashes);
        for (ToolSpec s : extra) {
            hashes.add(s.contentHash());
        }
        Set<String> taken = counter.remember(store.loadTokenCounts(counter.identity(), hashes));
        stored.addAll(taken);
        return taken.size();
    }

    /** Counts the definitions of {@code entries} (the tools just indexed) into the counter; the next fill saves them. */
    @Override
    public void count(List<CatalogEntry> entries) {
        for (CatalogEntry e : entries) {
            if (!stored.contains(e.contentHash())) {
                counter.definitionTokens(e);
            }
        }
    }

    /**
     * Stores the count of every definition of {@code snapshot} (and the extra ones) that has none stored: those
     * another process stored are taken, those the counter holds are saved at once, and the rest are counted and saved
     * {@value #BATCH} at a time, asking {@code yield} before each batch.
     *
     * @param yield true when the caller has more urgent work (or is closing): the definitions not counted yet are
     *     left for the next call; what is already counted is saved regardless
     * @return true when every definition's count is stored, false when it yielded first
     */
    @Override
    public boolean fill(Catalog.Snapshot snapshot, BooleanSupplier yield) {
        Map<String, ToolSpec> missing = new LinkedHashMap<>();
        Set<String> current = new HashSet<>();
        for (CatalogEntry e : snapshot.entries()) {
            if (current.add(e.contentHash()) && !stored.contains(e.contentHash())) {
                missing.put(e.contentHash(), e.spec());
            }
        }
        for (ToolSpec s : extra) {
            if (current.add(s.contentHash()) && !stored.contains(s.contentHash())) {
                missing.put(s.contentHash(), s);
            }
        }
        // a hash no tool has any more is pruned from the store by the next save: forget it here too
        stored.retainAll(current);
        if (missing.isEmpty()) {
            return true;
        }
        // counted and stored by another process meanwhile (a replica on a shared store)
        stored.addAll(counter.remember(store.loadTokenCounts(counter.identity(), missing.keySet())));
        missing.keySet().removeAll(stored);
        Map<String, Integer> counted = new HashMap<>();
        List<Map.Entry<String, ToolSpec>> toCount = new ArrayList<>();
        for (Map.Entry<String, ToolSpec> m : missing.entrySet()) {
            Integer n = counter.cachedTokens(m.getKey());
            if (n != null) {
                counted.put(m.getKey(), n);
            } else {
                toCount.add(m);
            }
        }
        save(counted);
        for (int from = 0; from < toCount.size(); from += BATCH) {
            if (yield.getAsBoolean()) {
                return false;
            }
            Map<String, Integer> batch = new HashMap<>();
            for (Map.Entry<String, ToolSpec> m : toCount.subList(from, Math.min(toCount.size(), from + BATCH))) {
                batch.put(m.getKey(), counter.definitionTokens(m.getValue()));
            }
            save(batch);
        }
        return true;
    }

    /** Saves {@code counts} with the extra definitions' known counts, which a save's pruning must not drop. */
    private void save(Map<String, Integer> counts) {
        if (counts.isEmpty()) {
            return;
        }
        Map<String, Integer> rows = new HashMap<>(counts);
        for (ToolSpec s : extra) {
            Integer n = counter.cachedTokens(s.contentHash());
            if (n != null) {
                rows.putIfAbsent(s.contentHash(), n);
            }
        }
        store.saveTokenCounts(counter.identity(), rows);
        stored.addAll(rows.keySet());
    }
}
