package dev.toolscout.render;

import dev.toolscout.access.AllowedSet;
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
 * Every definition's token count for the current catalog, kept in the state store so that a start counts no
 * definition an earlier one counted (issue 22: counting every visible definition was about a second of the first
 * selection at 10k tools). A count depends only on the definition's content and the counter ({@link
 * TokenCounter#identity}), so it is stored by content hash and counter identity; counts under another identity are
 * never read.
 *
 * <p>This process's counts are held here, one per content hash of the catalog (and of the {@code extra} definitions),
 * not in the {@link TokenCounter}'s cache: that cache is bounded (least recently used go first), and a catalog larger
 * than it (100k tools against its 65,536) made every sum over the catalog count most definitions again, and let the
 * counts made while indexing go before they were saved (issue 35: a built directory of 100k tools held 90,680 counts).
 * {@link #fill} prunes them to the catalog, so they never outgrow it.
 *
 * <p>{@link #load} runs at open, before the first selection. {@link #count} runs while indexing (the tool indexer's
 * worker and the threads of its parallel streams). {@link #fill} runs off the request path (the indexer's worker when
 * its queue is empty, and once on close): it saves every count this process holds that the store lacks, then counts
 * what nobody counted, {@value #BATCH} at a time, taking first what another process (a replica) stored. Each save also
 * drops the counts of content hashes no stored tool has (the store's {@link TokenCountStore#saveTokenCounts}), except
 * the {@code extra} definitions' (the engine's own tools, which are not in the catalog), which every save names. {@link
 * #allowedTokens} and {@link #tokens} run on request threads and never wait for the store.
 *
 * <p>Thread-safe: {@link #load} and {@link #fill} may run on different threads, one call of each at a time; {@link
 * #count}, {@link #tokens} and {@link #allowedTokens} on any threads at once.
 */
public final class StoredTokenCounts implements TokenCounts {
    /** Definitions counted, then saved in one transaction, between two checks for more urgent work. */
    public static final int BATCH = 512;

    /**
     * Counts saved in one transaction when saving what was already counted (while indexing, or by selections): each
     * save also prunes the store's counts, one pass over its tools, so a large catalog's counts go in a few saves.
     */
    static final int SAVE_ROWS = 65_536;

    /**
     * The most definitions with no known count a sum counts on the caller's thread, one fill's batch (tens of
     * milliseconds at most: a definition takes 20-100 us to render and count, the latter with a cold JIT); it
     * estimates the rest (see {@link #allowedTokens}). A catalog of a few hundred tools is always summed exactly.
     */
    public static final int COUNT_INLINE = BATCH;

    private final TokenCountStore store;
    private final TokenCounter counter;
    private final List<ToolSpec> extra;

    /**
     * The counts this process knows, by content hash: {@code n} when the store holds it, {@link #unsaved unsaved(n)}
     * (a negative number) when counted here and not saved yet. One map rather than two so that whether a count is
     * stored can never be lost between them: a hash is in the store once a save said so, and until then it is saved
     * by the next {@link #fill}.
     */
    private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();

    /** The snapshot the last complete {@link #fill} was for; compared by identity. */
    private volatile Catalog.Snapshot filled;

    /** Whether a count was held unsaved since the last {@link #fill} began. */
    private volatile boolean heldUnsaved;

    /**
     * @param extra definitions counted besides the catalog's (the engine's own tools), stored and kept the same way
     */
    public StoredTokenCounts(TokenCountStore store, TokenCounter counter, List<ToolSpec> extra) {
        this.store = java.util.Objects.requireNonNull(store, "store");
        this.counter = java.util.Objects.requireNonNull(counter, "counter");
        this.extra = List.copyOf(extra);
    }

    private static int unsaved(int n) {
        return -1 - n;
    }

    private static int tokensOf(int held) {
        return held >= 0 ? held : -1 - held;
    }

    /** The counter whose {@link TokenCounter#identity} the counts are stored under. */
    public TokenCounter counter() {
        return counter;
    }

    /**
     * Takes the stored counts of {@code snapshot}'s definitions and the extra ones. Reads only.
     *
     * @return how many counts were taken (a bad stored row, a negative count say, is not)
     */
    public int load(Catalog.Snapshot snapshot) {
        List<String> hashes = new ArrayList<>(snapshot.size());
        for (int ord = 0; ord < snapshot.universe(); ord++) {
            CatalogEntry e = snapshot.byOrd(ord);
            if (e != null) {
                hashes.add(e.contentHash());
            }
        }
        return load(hashes);
    }

    /** The same for the definitions with these content hashes (a stored catalog's, before it is a snapshot). */
    public int load(java.util.Collection<String> contentHashes) {
        // each hash as the very string the catalog's entry holds: a sum's lookups then compare references, not 64
        // characters read back from the store (the first sum at 100k tools: 8 JFR samples 10 ms apart before, 4-6
        // after)
        Map<String, String> hashes = HashMap.newHashMap(contentHashes.size() + extra.size());
        for (String h : contentHashes) {
            hashes.put(h, h);
        }
        for (ToolSpec s : extra) {
            hashes.putIfAbsent(s.contentHash(), s.contentHash());
        }
        return take(store.loadTokenCounts(counter.identity(), hashes.keySet()), hashes);
    }

    /**
     * Takes stored counts (a negative one is not a count: skipped, counted when asked for), each under its hash in
     * {@code canonical} when there; how many were taken.
     */
    private int take(Map<String, Integer> stored, Map<String, String> canonical) {
        int taken = 0;
        for (Map.Entry<String, Integer> row : stored.entrySet()) {
            Integer n = row.getValue();
            if (row.getKey() != null && n != null && n >= 0) {
                counts.put(canonical.getOrDefault(row.getKey(), row.getKey()), n);
                taken++;
            }
        }
        return taken;
    }

    /**
     * Counts the definition of {@code entry} (a tool being indexed) unless its count is known; the next {@link #fill}
     * saves it. Thread-safe: the indexer calls it from the threads that build a batch's documents.
     */
    @Override
    public void count(CatalogEntry entry) {
        if (!counts.containsKey(entry.contentHash())) {
            hold(entry.contentHash(), counter.countDefinition(entry.spec()));
        }
    }

    /** The tokens of {@code entry}'s definition: its known count, else counted now (and saved by the next fill). */
    public int tokens(CatalogEntry entry) {
        return tokens(entry.contentHash(), entry.spec());
    }

    /** The same for a definition whose content hash the caller knows (an engine tool's, say). */
    public int tokens(String contentHash, ToolSpec spec) {
        Integer held = counts.get(contentHash);
        if (held != null) {
            return tokensOf(held);
        }
        int n = counter.countDefinition(spec);
        hold(contentHash, n);
        return n;
    }

    /** Holds a count made here until a {@link #fill} saves it. */
    private void hold(String contentHash, int n) {
        counts.putIfAbsent(contentHash, unsaved(n));
        heldUnsaved = true; // after the put: a fill that reset the flag before it sees the count or looks again
    }

    /**
     * What the definitions {@code allowed} holds cost, with how many of them were estimated.
     *
     * @param tokens the sum
     * @param estimated how many definitions had no known count and were not counted: each is taken at the mean of
     *     those that were (0 when the sum is exact)
     */
    public record Sum(long tokens, int estimated) {}

    /**
     * The tokens of every definition the allowed set holds, from the counts this process knows. At most {@value
     * #COUNT_INLINE} definitions with no known count are counted here; any beyond them are estimated at the mean of
     * the others, so a sum right after a start in a directory without counts, or during a large change the indexer
     * has not reached yet, costs milliseconds rather than seconds (a million definitions take minutes of one core to
     * count). The counts then come from the indexer's {@link #fill} (in a read-only engine, which stores nothing,
     * from each sum's own {@value #COUNT_INLINE}).
     */
    public Sum allowedTokens(Catalog.Snapshot snapshot, AllowedSet allowed) {
        long sum = 0;
        long known = 0;
        int unknown = 0;
        int countedHere = 0;
        for (int ord = allowed.nextAllowed(0); ord >= 0; ord = allowed.nextAllowed(ord + 1)) {
            CatalogEntry e = snapshot.byOrd(ord);
            if (e == null) {
                continue;
            }
            Integer held = counts.get(e.contentHash());
            if (held != null) {
                sum += tokensOf(held);
                known++;
            } else if (countedHere < COUNT_INLINE) {
                sum += tokens(e);
                countedHere++;
                known++;
            } else {
                unknown++;
            }
        }
        if (unknown > 0) {
            sum += Math.round((double) sum / known * unknown);
        }
        return new Sum(sum, unknown);
    }

    /**
     * Stores the count of every definition of {@code snapshot} (and the extra ones) that has none stored: the counts
     * this process holds are saved whatever {@code yield} says (counting them was the cost; a process that indexes and
     * exits leaves them all stored), those another process stored are taken, and the rest are counted and saved
     * {@value #BATCH} at a time, asking {@code yield} before each batch.
     *
     * @param yield true when the caller has more urgent work (or is closing): the definitions not counted yet are
     *     left for the next call
     * @return true when every definition's count is stored, false when it yielded first or a count was made here
     *     during the pass (saved by the next call)
     */
    @Override
    public boolean fill(Catalog.Snapshot snapshot, BooleanSupplier yield) {
        if (snapshot == filled && !heldUnsaved) {
            return true; // the close after an idle fill, say: nothing counted since
        }
        heldUnsaved = false; // before the pass: a count held during it makes the next fill look again
        Map<String, ToolSpec> missing = new LinkedHashMap<>();
        Map<String, Integer> toSave = new HashMap<>();
        // one pass, no set of the catalog's hashes unless something is to be pruned: at a million tools the set was
        // most of a fill's time, and a fill runs whenever the indexer's queue runs empty
        long known = 0;
        for (int ord = 0; ord < snapshot.universe(); ord++) {
            CatalogEntry e = snapshot.byOrd(ord);
            if (e != null) {
                known += sort(e.contentHash(), e.spec(), missing, toSave);
            }
        }
        Set<String> extraHashes = new HashSet<>();
        for (ToolSpec s : extra) {
            CatalogEntry same = snapshot.get(s.fullName());
            boolean inCatalog = same != null && same.contentHash().equals(s.contentHash());
            if (extraHashes.add(s.contentHash()) && !inCatalog) {
                known += sort(s.contentHash(), s, missing, toSave);
            }
        }
        if (counts.mappingCount() > known) {
            // a hash no tool has any more is pruned from the store by the next save: forget it here too
            Set<String> current = new HashSet<>(extraHashes);
            for (int ord = 0; ord < snapshot.universe(); ord++) {
                CatalogEntry e = snapshot.byOrd(ord);
                if (e != null) {
                    current.add(e.contentHash());
                }
            }
            counts.keySet().retainAll(current);
        }
        for (List<Map.Entry<String, Integer>> chunk : chunks(new ArrayList<>(toSave.entrySet()), SAVE_ROWS)) {
            Map<String, Integer> rows = new HashMap<>();
            chunk.forEach(r -> rows.put(r.getKey(), r.getValue()));
            save(rows);
        }
        if (!missing.isEmpty()) {
            // counted and stored by another process meanwhile (a replica on a shared store)
            Map<String, String> canonical = new HashMap<>();
            missing.keySet().forEach(h -> canonical.put(h, h));
            take(store.loadTokenCounts(counter.identity(), missing.keySet()), canonical);
            // and counted meanwhile by this process (a selection's sum on a request thread): saved now, not dropped
            Map<String, Integer> heldMeanwhile = new HashMap<>();
            missing.keySet().removeIf(h -> {
                Integer held = counts.get(h);
                if (held != null && held < 0) {
                    heldMeanwhile.put(h, tokensOf(held));
                }
                return held != null;
            });
            save(heldMeanwhile);
        }
        for (List<Map.Entry<String, ToolSpec>> batch : chunks(new ArrayList<>(missing.entrySet()), BATCH)) {
            if (yield.getAsBoolean()) {
                return false;
            }
            Map<String, Integer> rows = new ConcurrentHashMap<>();
            // on every core: a directory without counts (made before they were stored) has its whole catalog to count
            batch.parallelStream().forEach(m -> rows.put(m.getKey(), counter.countDefinition(m.getValue())));
            rows.forEach((hash, n) -> counts.putIfAbsent(hash, unsaved(n)));
            save(rows);
        }
        filled = snapshot;
        // a count held during the pass, for a definition the pass had already sorted, is saved by the next fill: the
        // caller's (the indexer asks again once idle), not by the next change that may never come
        return !heldUnsaved;
    }

    /**
     * Sorts one definition: stored (nothing to do), held here unsaved (into {@code toSave}), or not counted at all
     * (into {@code missing}); 1 when a count is held, else 0.
     */
    private int sort(String hash, ToolSpec spec, Map<String, ToolSpec> missing, Map<String, Integer> toSave) {
        Integer held = counts.get(hash);
        if (held == null) {
            missing.put(hash, spec);
            return 0;
        }
        if (held < 0) {
            toSave.put(hash, tokensOf(held));
        }
        return 1;
    }

    private static <T> List<List<T>> chunks(List<T> all, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int from = 0; from < all.size(); from += size) {
            out.add(all.subList(from, Math.min(all.size(), from + size)));
        }
        return out;
    }

    /** Saves {@code rows} with the extra definitions' known counts, which a save's pruning must not drop. */
    private void save(Map<String, Integer> rows) {
        if (rows.isEmpty()) {
            return;
        }
        Map<String, Integer> all = new HashMap<>(rows);
        for (ToolSpec s : extra) {
            Integer held = counts.get(s.contentHash());
            if (held != null) {
                all.putIfAbsent(s.contentHash(), tokensOf(held));
            }
        }
        store.saveTokenCounts(counter.identity(), all);
        // stored now: a hash pruned meanwhile (its tool gone) is only put back, and dropped by the next fill
        all.forEach(counts::put);
    }
}
