package dev.toolscout.indexing;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ToolIndexer}'s writes to its {@link ToolIndex}: the documents of catalog entries (embedding only texts
 * with no stored vector), the catch-up from the store, and when to refresh and commit ({@link CommitPolicy}).
 *
 * <p>Thread-safety: used by one thread at a time (the indexer's worker, or the caller's before it starts); the
 * methods are synchronized so a hand-over between the two is safe.
 */
final class IndexWrites {
    private static final Logger LOG = LoggerFactory.getLogger(ToolIndexer.class);
    /** Tools per index write during a catch-up or rebuild; a close waits for at most one such chunk. */
    private static final int REBUILD_CHUNK = 512;

    private final ToolIndex index;
    private final CatalogStore store;
    private final ToolDocuments docs;
    private final Supplier<IntConsumer> progress;
    private final Supplier<TokenCounts> tokenCounts;
    private volatile CommitPolicy policy = CommitPolicy.DEFAULTS;
    /** Documents written (upserted or removed) since the last commit; {@code dirty} while any. */
    private long uncommitted;

    private volatile boolean dirty;
    private volatile long lastCommitNanos = System.nanoTime();
    private long lastRefreshNanos = System.nanoTime();

    IndexWrites(
            ToolIndex index,
            CatalogStore store,
            ToolDocuments docs,
            Supplier<IntConsumer> progress,
            Supplier<TokenCounts> tokenCounts) {
        this.index = index;
        this.store = store;
        this.docs = docs;
        this.progress = progress;
        this.tokenCounts = tokenCounts;
    }

    void policy(CommitPolicy policy) {
        this.policy = java.util.Objects.requireNonNull(policy, "policy");
    }

    CommitPolicy policy() {
        return policy;
    }

    synchronized void upsert(List<CatalogEntry> entries, int doneBefore) {
        index.upsert(documents(entries, doneBefore));
        written(entries.size());
    }

    synchronized void remove(Collection<String> names) {
        index.remove(names);
        written(names.size());
    }

    private void written(int docs) {
        dirty = true;
        uncommitted += docs;
    }

    /** Whether {@link CommitPolicy#refreshEvery} has passed since what was written last became searchable. */
    synchronized boolean refreshDue(long nowNanos) {
        return nowNanos - lastRefreshNanos >= policy.refreshEvery().toNanos();
    }

    /** Makes what was written searchable (not durable). */
    synchronized void refresh() {
        index.refresh();
        lastRefreshNanos = System.nanoTime();
    }

    /** When the index was last committed ({@link System#nanoTime}); read without the monitor. */
    long lastCommitNanos() {
        return lastCommitNanos;
    }

    /** Whether anything was written since the last commit; read without the monitor (the worker's wait loop). */
    boolean dirty() {
        return dirty;
    }

    /** While busy: commits when {@link CommitPolicy#commitDocs} or {@link CommitPolicy#commitEvery} is reached. */
    synchronized void commitIfDue(long version) {
        if (dirty
                && (uncommitted >= policy.commitDocs()
                        || System.nanoTime() - lastCommitNanos
                                >= policy.commitEvery().toNanos())) {
            commit(version);
        }
    }

    /** Commits if anything was written since the last commit. */
    synchronized void commitIfDirty(long version) {
        if (dirty) {
            commit(version);
        }
    }

    /** Makes what was written durable and searchable, recording {@code version} (every change up to it is written). */
    synchronized void commit(long version) {
        long t0 = System.nanoTime();
        index.commit(version);
        long now = System.nanoTime();
        LOG.debug(
                "committed the search index at catalog version {} ({} documents written) in {} ms",
                version,
                uncommitted,
                (now - t0) / 1_000_000);
        dirty = false;
        uncommitted = 0;
        lastCommitNanos = now;
        lastRefreshNanos = now;
    }

    /**
     * Brings the index to {@code snapshot}: a rebuild when {@code full}, when the index is ahead of the store
     * (another store's index) or unversioned with documents; otherwise only what differs. Commits at the end.
     *
     * @param betweenChunks called between two chunks of documents (the indexer stops there when closing)
     * @return the catalog version the index is now committed at
     */
    synchronized long catchUp(Catalog.Snapshot snapshot, boolean full, Runnable betweenChunks) {
        long committed = index.committedVersion();
        if (!full && committed == snapshot.version() && index.size() == snapshot.size()) {
            return committed; // current: what every start on a current data directory finds, at no cost
        }
        Map<String, Integer> indexed = index.ordinals();
        if (full || committed > snapshot.version() || committed < 0 && !indexed.isEmpty()) {
            LOG.info(
                    "rebuilding the search index from the store: it is at catalog version {} with {} tools, the store "
                            + "at {} with {}",
                    committed,
                    indexed.size(),
                    snapshot.version(),
                    snapshot.size());
            index.clear();
            upsertAll(snapshot.entries(), betweenChunks);
            commit(snapshot.version());
            return snapshot.version();
        }
        Set<String> changed = committed >= snapshot.version() ? Set.of() : store.toolsChangedSince(committed);
        List<String> removals = new ArrayList<>();
        for (String name : indexed.keySet()) {
            if (snapshot.get(name) == null) {
                removals.add(name);
            }
        }
        List<CatalogEntry> upserts = new ArrayList<>();
        for (CatalogEntry e : snapshot.entries()) {
            Integer ord = indexed.get(e.name());
            if (ord == null || ord != e.ord() || changed.contains(e.name())) {
                upserts.add(e);
            }
        }
        if (removals.isEmpty() && upserts.isEmpty() && committed == snapshot.version()) {
            return committed;
        }
        LOG.info(
                "catching the search index up from catalog version {} to {}: {} tools to index, {} to remove",
                committed,
                snapshot.version(),
                upserts.size(),
                removals.size());
        if (!removals.isEmpty()) {
            remove(removals);
        }
        upsertAll(upserts, betweenChunks);
        long v = Math.max(committed, snapshot.version());
        commit(v);
        return v;
    }

    private void upsertAll(List<CatalogEntry> entries, Runnable betweenChunks) {
        for (int from = 0; from < entries.size(); from += REBUILD_CHUNK) {
            upsert(entries.subList(from, Math.min(entries.size(), from + REBUILD_CHUNK)), from);
            betweenChunks.run();
        }
    }

    /** Asks the index to compact; a failure is logged (the index stays as it was, and searchable). */
    synchronized void compact(BooleanSupplier closing) {
        try {
            long t0 = System.nanoTime();
            if (index.compact()) {
                LOG.debug("compacted the search index in {} ms", (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (RuntimeException e) {
            if (!closing.getAsBoolean()) {
                LOG.warn("compacting the search index failed (it is searched as it was): {}", e.toString());
            }
        }
    }

    /** The documents of {@code entries}, embedding the texts that have no stored vector for this model. */
    private List<ToolDocument> documents(List<CatalogEntry> entries, int doneBefore) {
        return docs.of(entries, doneBefore, progress.get(), tokenCounts.get());
    }
}
