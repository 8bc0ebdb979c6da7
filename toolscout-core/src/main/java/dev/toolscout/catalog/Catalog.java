package dev.toolscout.catalog;

import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Every tool ToolScout knows. Changes are written to the {@link CatalogStore} first (durable before they are
 * acknowledged), then become visible in a new {@link Snapshot}, then go out as {@link CatalogEvent}s to the
 * indexers.
 *
 * <p>Each tool has an ordinal, stable while the tool exists, that access sets and the search index refer to.
 * Ordinals of removed tools are not reused within a process.
 *
 * <p>Events go to a plain {@code Consumer} (in the product, {@code events.EventBus}), so the catalog depends on
 * no delivery mechanism.
 *
 * <p>Thread-safety: readers take {@link #snapshot()} (an immutable value, no locks); writers are serialized, a
 * large change one batch at a time ({@link #apply}).
 */
public final class Catalog {
    /**
     * Tools per store transaction of a large change ({@link #apply}): what a write arriving during a large change
     * waits for at most. A few hundred keeps a batch's transaction short while 10,000 tools are still only 40 of them.
     */
    public static final int WRITE_BATCH = 256;

    /**
     * The largest store transaction of a large change into a large catalog: a batch is {@value #WRITE_BATCH} tools or
     * 1/128 of the catalog, whichever is more, up to this. Each batch makes a new snapshot, a copy of the catalog's
     * maps, so fixed batches of 256 made a load of a million tools quadratic (3,900 copies of up to a million entries);
     * growing them with the catalog keeps the copies to about 570 for a million, while a write arriving during the
     * load waits for one batch: 256 tools up to 32,768 in the catalog, 8,192 at a million (docs/INDEXING.md).
     */
    public static final int MAX_WRITE_BATCH = 8_192;

    /** A change of at least this many tools is hashed on the common fork-join pool. */
    private static final int PARALLEL_HASH_MIN = 4_096;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Catalog.class);
    private final CatalogStore store;
    /** Serializes writers; fair, so a writer waiting while a large change is applied goes before its next batch. */
    private final java.util.concurrent.locks.ReentrantLock writeLock =
            new java.util.concurrent.locks.ReentrantLock(true);

    private final Consumer<? super List<CatalogEvent>> events;
    private volatile Snapshot snapshot;
    /** Waits until a catalog version's change is searchable; set by whoever indexes (the composition root). */
    private volatile java.util.function.LongConsumer searchable = v -> {};
    /** Waits until every change up to a catalog version is searchable; set with {@link #searchable}. */
    private volatile java.util.function.LongConsumer searchableThrough = v -> {};

    private Catalog(CatalogStore store, Consumer<? super List<CatalogEvent>> events, Snapshot initial) {
        this.store = store;
        this.events = events;
        this.snapshot = initial;
    }

    /**
     * Loads the catalog from the store.
     *
     * @param events receives each change's events, in order, after the change is durable
     * @param ordinalHints ordinals to keep for known names (those of a persisted search index, which then needs
     *     to re-index only what changed); other tools get fresh ordinals, past every hint, in name order
     */
    public static Catalog load(
            CatalogStore store, Consumer<? super List<CatalogEvent>> events, Map<String, Integer> ordinalHints) {
        return of(store, store.loadCatalog(), events, ordinalHints);
    }

    /** Builds the catalog from {@code stored}, already read from {@code store} (which takes the later writes). */
    public static Catalog of(
            CatalogStore store,
            CatalogStore.StoredCatalog stored,
            Consumer<? super List<CatalogEvent>> events,
            Map<String, Integer> ordinalHints) {
        // past every hinted ordinal, used or not: an index that is behind may still hold a removed tool under one,
        // until it catches up, and no new tool may share it meanwhile
        int max = -1;
        for (int hint : ordinalHints.values()) {
            max = Math.max(max, hint);
        }
        Set<Integer> used = new HashSet<>();
        Map<String, Integer> ords = new HashMap<>();
        for (ToolSpec t : stored.tools()) {
            Integer hint = ordinalHints.get(t.fullName());
            if (hint != null && hint >= 0 && used.add(hint)) {
                ords.put(t.fullName(), hint);
                max = Math.max(max, hint);
            }
        }
        int next = max + 1;
        List<CatalogEntry> entries = new ArrayList<>(stored.tools().size());
        for (int i = 0; i < stored.tools().size(); i++) {
            ToolSpec t = stored.tools().get(i);
            Integer ord = ords.get(t.fullName());
            if (ord == null) {
                ord = next++;
            }
            entries.add(new CatalogEntry(ord, t, stored.contentHashes().get(i)));
        }
        return new Catalog(store, events, Snapshot.of(stored.version(), entries, next));
    }

    /**
     * Sets what {@link #awaitSearchable} waits on: in the product, the tool indexer's {@code awaitIndexed} (one
     * version's change) and {@code awaitIndexedThrough} (every change up to a version). Until set, a change counts as
     * searchable once applied.
     */
    public void searchableBy(java.util.function.LongConsumer change, java.util.function.LongConsumer through) {
        this.searchable = java.util.Objects.requireNonNull(change, "change");
        this.searchableThrough = java.util.Objects.requireNonNull(through, "through");
    }

    /**
     * Waits until {@code change} is searchable (indexed), not for larger changes queued before it that share no
     * tool with it. For a writer that wants read-your-write; call it outside any lock other writers need.
     *
     * @throws RuntimeException when indexing the change failed (it is stored: the index catches up from the store)
     */
    public Change awaitSearchable(Change change) {
        if (!change.isEmpty()) {
            // a large change was applied as several versions (see apply), and a later one may be indexed before an
            // earlier one: each is waited for
            java.util.TreeSet<Long> versions = new java.util.TreeSet<>();
            for (CatalogEvent e : change.events()) {
                versions.add(e.version());
            }
            if (versions.isEmpty()) {
                versions.add(change.version());
            }
            for (long v : versions) {
                searchable.accept(v);
            }
        }
        return change;
    }

    /**
     * Waits until every change up to catalog version {@code version} is searchable (indexed): the whole catalog as
     * of that version, including the earlier batches of a large change that a later small one went past.
     *
     * @throws RuntimeException when indexing one of those changes failed (it is stored: the index catches up)
     */
    public void awaitSearchableThrough(long version) {
        searchableThrough.accept(version);
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    public long version() {
        return snapshot.version();
    }

    public Optional<CatalogEntry> get(String name) {
        return Optional.ofNullable(snapshot.get(name));
    }

    public int size() {
        return snapshot.size();
    }

    /** Adds or replaces one tool. */
    public Change upsert(ToolSpec spec) {
        return apply(List.of(spec), List.of());
    }

    /** Removes one tool; unknown names change nothing. */
    public Change remove(String name) {
        return apply(List.of(), List.of(name));
    }

    /** Makes the catalog hold exactly {@code desired}: adds, updates (changed hash) and removes the rest. */
    public Change sync(List<ToolSpec> desired) {
        return sync(desired, e -> true);
    }

    /**
     * Makes the part of the catalog that {@code managed} selects hold exactly {@code desired}: tools outside
     * it (another source's, say an MCP server's) are left alone.
     */
    public Change sync(List<ToolSpec> desired, java.util.function.Predicate<CatalogEntry> managed) {
        Set<String> keep = new HashSet<>();
        for (ToolSpec t : desired) {
            keep.add(t.fullName());
        }
        List<String> removals = new ArrayList<>();
        for (CatalogEntry e : snapshot.entries()) {
            if (!keep.contains(e.name()) && managed.test(e)) {
                removals.add(e.name());
            }
        }
        return apply(desired, removals);
    }

    /**
     * Applies upserts and removals: unchanged tools (same content hash) are skipped, so they keep their vectors;
     * the rest is written to the store and published. A change of at most {@value #WRITE_BATCH} tools (or 1/128 of a
     * larger catalog, see {@link #MAX_WRITE_BATCH}) is one store transaction and one catalog version. A larger one (an
     * MCP server listing 10,000 tools) is written as several changes of at most that many tools each, upserts in the given order first and removals last, each
     * durable and visible before the next begins, and other writers are let in between two of them: a write arriving
     * during a large change waits for at most one batch, not for the whole change.
     *
     * <p>What a reader sees of a large change midway: the tools of the batches written so far, besides every tool
     * the change keeps or has not reached yet (removals come last, so no tool a listing keeps ever goes missing). If
     * the process stops midway, the batches written so far stay stored; applying the same change again (an upstream's
     * re-sync, the next start's listing) writes only the rest, since written tools are unchanged by hash.
     *
     * @return the change as a whole: its last version, the counts and events of all its batches
     * @throws IllegalArgumentException when {@code upserts} names a tool twice (naming it); nothing is changed
     */
    public Change apply(List<ToolSpec> upserts, Collection<String> removals) {
        Map<String, ToolSpec> wanted = new LinkedHashMap<>();
        for (ToolSpec t : upserts) {
            if (wanted.put(t.fullName(), t) != null) {
                throw new IllegalArgumentException("tool '" + t.fullName() + "' is given twice in one change");
            }
        }
        // hashed before taking the write lock: canonical JSON and SHA-256 of every tool is the costly part of a diff
        // (on every core for a large change, such as a bulk load)
        Map<String, String> hashes;
        if (wanted.size() >= PARALLEL_HASH_MIN) {
            hashes = wanted.values().parallelStream()
                    .collect(java.util.stream.Collectors.toMap(ToolSpec::fullName, ToolSpec::contentHash));
        } else {
            hashes = new HashMap<>();
            for (ToolSpec t : wanted.values()) {
                hashes.put(t.fullName(), t.contentHash());
            }
        }
        List<String> gone = new ArrayList<>();
        for (String name : new java.util.LinkedHashSet<>(removals)) {
            if (!wanted.containsKey(name)) {
                gone.add(name);
            }
        }
        Snapshot before = snapshot;
        List<ToolSpec> candidates = new ArrayList<>();
        for (ToolSpec t : wanted.values()) {
            CatalogEntry old = before.get(t.fullName());
            if (old == null || !old.contentHash().equals(hashes.get(t.fullName()))) {
                candidates.add(t);
            }
        }
        if (candidates.size() + gone.size() <= writeBatch(before.size())) {
            // one transaction, diffed again under the lock: the candidates were picked without it
            return applyBatch(List.copyOf(wanted.values()), hashes, gone);
        }
        List<Change> parts = new ArrayList<>();
        try {
            for (int from = 0, n; from < candidates.size(); from += n) {
                n = writeBatch(snapshot.size());
                parts.add(
                        applyBatch(candidates.subList(from, Math.min(candidates.size(), from + n)), hashes, List.of()));
            }
            for (int from = 0, n; from < gone.size(); from += n) {
                n = writeBatch(snapshot.size());
                parts.add(applyBatch(List.of(), hashes, gone.subList(from, Math.min(gone.size(), from + n))));
            }
        } catch (RuntimeException e) {
            if (!parts.isEmpty()) {
                LOG.warn(
                        "a change of {} upserts and {} removals was stored in part ({} batches of {} tools); applying it "
                                + "again writes the rest: {}",
                        candidates.size(),
                        gone.size(),
                        parts.size(),
                        WRITE_BATCH,
                        e.toString());
            }
            throw e;
        }
        long version = before.version();
        int added = 0;
        int updated = 0;
        int removed = 0;
        List<CatalogEvent> events = new ArrayList<>();
        for (Change c : parts) {
            if (!c.isEmpty()) {
                version = c.version();
                added += c.added();
                updated += c.updated();
                removed += c.removed();
                events.addAll(c.events());
            }
        }
        return new Change(version, added, updated, removed, events);
    }

    /** Tools per store transaction of a large change into a catalog of {@code size} tools (see {@link #MAX_WRITE_BATCH}). */
    static int writeBatch(int size) {
        return Math.clamp(size / 128, WRITE_BATCH, MAX_WRITE_BATCH);
    }

    /** One store transaction: {@code upserts} whose hash differs from the current catalog's, and the removals. */
    private Change applyBatch(List<ToolSpec> upserts, Map<String, String> hashes, List<String> removals) {
        writeLock.lock();
        try {
            Snapshot cur = snapshot;
            List<ToolSpec> changed = new ArrayList<>();
            for (ToolSpec t : upserts) {
                CatalogEntry old = cur.get(t.fullName());
                if (old == null || !old.contentHash().equals(hashes.get(t.fullName()))) {
                    changed.add(t);
                }
            }
            List<String> removed = new ArrayList<>();
            for (String name : removals) {
                if (cur.get(name) != null) {
                    removed.add(name);
                }
            }
            if (changed.isEmpty() && removed.isEmpty()) {
                return new Change(cur.version(), 0, 0, 0, List.of());
            }
            long version = store.applyCatalogChange(changed, removed);

            Map<String, CatalogEntry> byName = new HashMap<>(cur.byName);
            int next = cur.nextOrd;
            List<CatalogEntry> added = new ArrayList<>();
            List<CatalogEntry[]> updated = new ArrayList<>();
            for (ToolSpec t : changed) {
                CatalogEntry old = byName.get(t.fullName());
                CatalogEntry e = new CatalogEntry(old == null ? next++ : old.ord(), t, hashes.get(t.fullName()));
                byName.put(e.name(), e);
                if (old == null) {
                    added.add(e);
                } else {
                    updated.add(new CatalogEntry[] {old, e});
                }
            }
            List<CatalogEntry> gone = new ArrayList<>();
            for (String name : removed) {
                gone.add(byName.remove(name));
            }
            Snapshot after = new Snapshot(version, byName, next);
            snapshot = after;
            List<CatalogEvent> batch = events(cur, after, added, updated, gone, version);
            events.accept(batch);
            return new Change(version, added.size(), updated.size(), gone.size(), batch);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Applies changes that another process already stored (a replica catching up with a store shared by several):
     * nothing is written. {@code read} is called with the current snapshot while writers are held off, so no local
     * change lands between reading the store and applying what was read. Upserts whose content hash this catalog
     * already holds and removals of names it does not hold change nothing; the version becomes the stored one when
     * that is newer.
     */
    public Change applyStored(java.util.function.Function<Snapshot, StoredChange> read) {
        writeLock.lock();
        try {
            return applyStoredLocked(read);
        } finally {
            writeLock.unlock();
        }
    }

    private Change applyStoredLocked(java.util.function.Function<Snapshot, StoredChange> read) {
        Snapshot cur = snapshot;
        StoredChange stored = read.apply(cur);
        Map<String, CatalogEntry> byName = new HashMap<>(cur.byName);
        int next = cur.nextOrd;
        List<CatalogEntry> added = new ArrayList<>();
        List<CatalogEntry[]> updated = new ArrayList<>();
        for (int i = 0; i < stored.upserts().size(); i++) {
            ToolSpec t = stored.upserts().get(i);
            String hash = stored.contentHashes().get(i);
            CatalogEntry old = byName.get(t.fullName());
            if (old != null && old.contentHash().equals(hash)) {
                continue;
            }
            CatalogEntry e = new CatalogEntry(old == null ? next++ : old.ord(), t, hash);
            byName.put(e.name(), e);
            if (old == null) {
                added.add(e);
            } else {
                updated.add(new CatalogEntry[] {old, e});
            }
        }
        List<CatalogEntry> gone = new ArrayList<>();
        for (String name : new java.util.LinkedHashSet<>(stored.removals())) {
            CatalogEntry old = byName.remove(name);
            if (old != null) {
                gone.add(old);
            }
        }
        long version = Math.max(cur.version(), stored.version());
        if (added.isEmpty() && updated.isEmpty() && gone.isEmpty()) {
            if (version != cur.version()) {
                snapshot = new Snapshot(version, byName, next);
            }
            return new Change(version, 0, 0, 0, List.of());
        }
        Snapshot after = new Snapshot(version, byName, next);
        snapshot = after;
        List<CatalogEvent> batch = events(cur, after, added, updated, gone, version);
        events.accept(batch);
        return new Change(version, added.size(), updated.size(), gone.size(), batch);
    }

    /**
     * Catalog changes as another process stored them.
     *
     * @param version the catalog version they bring it to
     * @param upserts the tools added or changed, as stored
     * @param contentHashes each upsert's content hash, in order
     * @param removals the names removed
     */
    public record StoredChange(
            long version, List<ToolSpec> upserts, List<String> contentHashes, List<String> removals) {
        public StoredChange {
            upserts = List.copyOf(upserts);
            contentHashes = List.copyOf(contentHashes);
            removals = List.copyOf(removals);
            if (contentHashes.size() != upserts.size()) {
                throw new IllegalArgumentException("need one content hash per upsert, got " + contentHashes.size()
                        + " for " + upserts.size() + " tools");
            }
        }
    }

    private static List<CatalogEvent> events(
            Snapshot before,
            Snapshot after,
            List<CatalogEntry> added,
            List<CatalogEntry[]> updated,
            List<CatalogEntry> gone,
            long version) {
        List<CatalogEvent> out = new ArrayList<>();
        Map<String, List<CatalogEntry>> addedBySource = new TreeMap<>();
        for (CatalogEntry e : added) {
            addedBySource
                    .computeIfAbsent(e.spec().name().source(), s -> new ArrayList<>())
                    .add(e);
        }
        addedBySource.forEach((source, tools) -> {
            if (!before.hasSource(source)) {
                out.add(new CatalogEvent.InterfaceRegistered(source, tools, version));
            } else {
                tools.forEach(t -> out.add(new CatalogEvent.ActionAdded(t, version)));
            }
        });
        for (CatalogEntry[] u : updated) {
            out.add(new CatalogEvent.ActionUpdated(u[0], u[1], version));
        }
        Map<String, List<CatalogEntry>> goneBySource = new TreeMap<>();
        for (CatalogEntry e : gone) {
            goneBySource
                    .computeIfAbsent(e.spec().name().source(), s -> new ArrayList<>())
                    .add(e);
        }
        goneBySource.forEach((source, tools) -> {
            if (!after.hasSource(source)) {
                out.add(new CatalogEvent.InterfaceUnregistered(source, tools, version));
            } else {
                tools.forEach(t -> out.add(new CatalogEvent.ActionRemoved(t, version)));
            }
        });
        return out;
    }

    /** What one change did. */
    public record Change(long version, int added, int updated, int removed, List<CatalogEvent> events) {
        public boolean isEmpty() {
            return added + updated + removed == 0;
        }
    }

    /** An immutable view of the catalog at one version. */
    public static final class Snapshot {
        private final long version;
        private final Map<String, CatalogEntry> byName;
        private final CatalogEntry[] byOrd;
        /** Name order, sorted on first use: a large change's batches each make a snapshot that few read whole. */
        private volatile List<CatalogEntry> sorted;

        private final Map<String, Integer> sourceCounts;
        private final java.util.BitSet skillKind;
        private final int nextOrd;

        private Snapshot(long version, Map<String, CatalogEntry> byName, int nextOrd) {
            this.version = version;
            this.byName = byName;
            this.nextOrd = nextOrd;
            this.byOrd = new CatalogEntry[nextOrd];
            Map<String, Integer> sources = new HashMap<>();
            java.util.BitSet skills = new java.util.BitSet();
            for (CatalogEntry e : byName.values()) {
                byOrd[e.ord()] = e;
                sources.merge(e.spec().name().source(), 1, Integer::sum);
                if (e.spec().sourceKind() == dev.toolscout.model.SourceKind.SKILL) {
                    skills.set(e.ord());
                }
            }
            this.sourceCounts = sources;
            this.skillKind = skills;
        }

        static Snapshot of(long version, Collection<CatalogEntry> entries, int nextOrd) {
            Map<String, CatalogEntry> m = new HashMap<>(entries.size() * 2);
            for (CatalogEntry e : entries) {
                m.put(e.name(), e);
            }
            return new Snapshot(version, m, nextOrd);
        }

        public long version() {
            return version;
        }

        public int size() {
            return byName.size();
        }

        /** One past the highest ordinal assigned: the universe of an access set. */
        public int universe() {
            return nextOrd;
        }

        public CatalogEntry get(String name) {
            return byName.get(name);
        }

        /** The entry with this ordinal, or {@code null}. */
        public CatalogEntry byOrd(int ord) {
            return ord >= 0 && ord < byOrd.length ? byOrd[ord] : null;
        }

        /**
         * Every entry in no particular order, unmodifiable: for a pass whose result does not depend on the order. The
         * first {@link #entries} of a snapshot sorts its names, a few hundred milliseconds at 100k tools on a cold JIT,
         * which a start paid twice on its way to the first selection (issue 35).
         */
        public java.util.Collection<CatalogEntry> unordered() {
            return Collections.unmodifiableCollection(byName.values());
        }

        /** Every entry in name order. */
        public List<CatalogEntry> entries() {
            List<CatalogEntry> s = sorted;
            if (s == null) {
                List<CatalogEntry> list = new ArrayList<>(byName.values());
                list.sort((a, b) -> a.name().compareTo(b.name()));
                s = Collections.unmodifiableList(list);
                sorted = s; // racing threads sort the same list: either result is the same value
            }
            return s;
        }

        /**
         * The ordinals of the tools of kind skill: a skill's own tools, which a selection or a search offers only
         * through the skill (docs/SKILLS.md). A copy.
         */
        public java.util.BitSet skillKindOrds() {
            return (java.util.BitSet) skillKind.clone();
        }

        public boolean hasSource(String source) {
            return sourceCounts.containsKey(source);
        }

        @Override
        public String toString() {
            return "Snapshot[version=" + version + ", tools=" + byName.size() + ", universe=" + nextOrd + "]";
        }
    }
}
