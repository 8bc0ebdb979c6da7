package dev.toolscout.indexing;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.catalog.CatalogStore;
import dev.toolscout.catalog.SubscriberException;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.VectorStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the search index current with the catalog (the tools indexer of seed 003). A catalog change is
 * acknowledged once it is durable in the store; its events are then queued here, in catalog-version order, and
 * one worker thread (never the writer's) builds each tool's text, embeds what has no stored vector (through
 * {@link CachedEmbeddings}), and updates the index. What it writes becomes searchable by a near-real-time refresh
 * and durable by a commit now and then ({@link CommitPolicy}): a small change at once, a run of large ones every
 * five seconds, commits every 100,000 documents, a minute, or once idle.
 *
 * <p><b>Large changes do not hold up small ones.</b> A change is indexed {@value CachedEmbeddings#BATCH} tools at a
 * time; between two batches, a later change of at most {@value #SMALL} tools that names none of the tools of the
 * changes still before it is indexed at once (an MCP server's 10,000 tools never keep another server's
 * registration or a single tool's update out of the index for longer than one batch). Changes that share a tool
 * keep their order. The index's committed version is the last version up to which <em>every</em> change is
 * indexed, so a restart after a crash catches up from there.
 *
 * <p><b>Catch-up.</b> On {@link #start}, on {@link #reindex}, after a failure and every re-sync period, the
 * worker compares the index with the store: tools changed since the index's committed version (the store's
 * {@link CatalogStore#toolsChangedSince}), tools the index lacks or holds under another ordinal, and tools the
 * catalog no longer has. Stored vectors are used; only texts with none for this model are embedded. A process
 * that learns of other writers' changes (a replica on a shared store) queues a catch-up the same way.
 *
 * <p><b>Token counts.</b> With {@link #countTokens}, the tools indexed are counted (their definitions' tokens), and
 * when the queue is empty (and the index committed) the worker stores the counts the store lacks ({@link TokenCounts#fill}), yielding to
 * any change queued meanwhile; on close it stores what it has counted and counts nothing more. A failure there is
 * logged, never an indexing failure: the counts are only a cache.
 *
 * <p><b>What a writer can rely on.</b> {@link #awaitIndexed} returns once a version's change is searchable (or
 * throws if indexing it failed); the library's write calls wait for it, the MCP upstream sync does not.
 *
 * <p>Until {@link #start} a change is indexed on the thread that publishes it (the catalog's writer), as
 * before there was a queue: for components wired without a worker, such as a test's.
 *
 * <p>Thread-safety: thread-safe. One worker thread writes the index; searches run concurrently (the index's
 * contract).
 */
public final class ToolIndexer implements Indexer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ToolIndexer.class);
    /** Texts per embedding call (see {@link CachedEmbeddings#BATCH}). */
    public static final int BATCH = CachedEmbeddings.BATCH;
    /** A change of at most this many tools may be indexed before a larger earlier one it shares no tool with. */
    public static final int SMALL = 64;
    /**
     * How long the queue stays empty before the worker asks the index to compact: not between the batches of a
     * listing, and not in a one-shot command, which ends sooner (`index` leaves it to the next start).
     */
    static final Duration COMPACT_AFTER_IDLE = Duration.ofSeconds(2);
    /** The default re-sync period: a catch-up from the store as a safety net behind the events. */
    public static final Duration DEFAULT_RESYNC = Duration.ofHours(1);

    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final ToolIndex index;
    private final CachedEmbeddings embeddings;
    private final IndexWrites writes;
    private final ToolDocuments docs;
    private volatile IntConsumer progress = n -> {};
    /** Changes written to the index but not yet searchable (the worker's; see {@link CommitPolicy}). */
    private final List<Slot> unpublished = new ArrayList<>();
    /** Whether one of {@link #unpublished} is small: someone may be waiting for it. */
    private boolean urgent;

    private final Object lock = new Object();
    /** Changes not yet covered by {@link #indexedVersion}, in submission order; some may be done already. */
    private final ArrayDeque<Slot> slots = new ArrayDeque<>();
    /** Every change up to this catalog version is searchable. */
    private long indexedVersion = -1;
    /** Recent failures by the catalog version whose change failed: what a waiter on that version is told. */
    private final Map<Long, RuntimeException> failures = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, RuntimeException> eldest) {
            return size() > 1000;
        }
    };

    private String lastError;
    private int failuresInARow;
    private boolean closed;
    private Thread worker;
    private Supplier<Catalog.Snapshot> catalog;
    private Duration resync = DEFAULT_RESYNC;
    private long nextResyncNanos;
    private volatile TokenCounts tokenCounts;
    /** Whether the worker should store token counts once the queue is empty. Under the lock. */
    private boolean countsDue;
    /** Whether the index changed since the worker last asked it to {@linkplain ToolIndex#compact compact}. */
    private boolean compactDue;
    /** When the worker last indexed something ({@link System#nanoTime}); compaction waits for a quiet moment. */
    private long lastWorkNanos;

    /** What the worker does: one catalog change, or a catch-up from the store (full: a rebuild). */
    private sealed interface Job {}

    /** One catalog version's change: each tool's entry after it, or {@code null} for a removed tool. */
    private record Change(long version, Map<String, CatalogEntry> tools, long queuedNanos) implements Job {}

    private record CatchUp(boolean full) implements Job {}

    private static final class Slot {
        Job job;
        /** The catalog version this slot brings the index to; for a catch-up, known once it has run. */
        long version;

        boolean done;
        /** Written to the index, searchable once {@code done}; its stages so far in {@code written}. */
        boolean applied;

        ToolDocuments.Written written;

        long notBeforeNanos;

        Slot(Job job, long version) {
            this.job = job;
            this.version = version;
        }
    }

    /** Indexes {@code store}'s catalog into {@code index}, with the vectors {@code store} holds for {@code model}. */
    public <S extends CatalogStore & VectorStore> ToolIndexer(S store, ToolIndex index, EmbeddingModel model) {
        this.index = index;
        this.embeddings = new CachedEmbeddings(store, model);
        this.docs = new ToolDocuments(embeddings);
        this.writes = new IndexWrites(index, store, docs, () -> progress, () -> tokenCounts);
    }

    /** When what is indexed becomes searchable and durable; {@link CommitPolicy#DEFAULTS} unless set. */
    public ToolIndexer commitPolicy(CommitPolicy policy) {
        writes.policy(policy);
        synchronized (lock) {
            lock.notifyAll();
        }
        return this;
    }

    @Override
    public String name() {
        return "indexer.tools";
    }

    @Override
    public List<String> events() {
        return List.of(
                "interface.registered",
                "interface.unregistered",
                "interface.action_added",
                "interface.action_updated",
                "interface.action_removed");
    }

    @Override
    public List<String> managedTypes() {
        return List.of("integration_index");
    }

    /**
     * Subscribes this indexer through {@code subscribe} (an event bus's: {@code attach(bus::subscribe)}): each catalog
     * change is queued (cheap), never indexed on the writer.
     */
    public ToolIndexer attach(Consumer<Consumer<List<CatalogEvent>>> subscribe) {
        subscribe.accept(this::enqueue);
        return this;
    }

    /** Called with the number of tools embedded so far during long runs (a progress bar); may be a no-op. */
    public void onProgress(IntConsumer listener) {
        this.progress = listener == null ? n -> {} : listener;
    }

    /**
     * Counts the tokens of the tools indexed from now on, and stores the counts the store lacks when the queue is
     * empty (the catalog's whole, not only what is indexed: see the class comment). Call before {@link #start} to have
     * the start's catch-up counted too.
     */
    public ToolIndexer countTokens(TokenCounts counts) {
        synchronized (lock) {
            this.tokenCounts = counts;
            countsDue = true;
            lock.notifyAll();
        }
        return this;
    }

    /** Called on the worker with each change's stages once it is searchable (not for a catch-up); may be a no-op. */
    public void onIndexed(Consumer<IndexedChange> listener) {
        docs.onIndexed(listener);
    }

    /** How many texts this indexer has sent to the embedding model since it was made. */
    public long embeddedCount() {
        return embeddings.embeddedCount();
    }

    /**
     * Starts the worker thread, first catching the index up with {@code catalog} (see the class comment).
     *
     * @param resyncEvery how often to catch up from the store when no event came (the safety net), at least one
     *     second; {@link #DEFAULT_RESYNC} by default
     * @return the catch-up's slot version is not known yet: wait with {@link #awaitCurrent}
     */
    public ToolIndexer start(Catalog catalog, Duration resyncEvery) {
        if (resyncEvery.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("the index re-sync period must be at least 1s, got: " + resyncEvery);
        }
        synchronized (lock) {
            if (worker != null) {
                throw new IllegalStateException("the tool indexer is already started");
            }
            this.catalog = catalog::snapshot;
            this.resync = resyncEvery;
            this.nextResyncNanos = System.nanoTime() + resyncEvery.toNanos();
            slots.addFirst(new Slot(new CatchUp(false), -1));
            worker = Thread.ofPlatform().daemon().name("toolscout-indexer").start(this::work);
        }
        return this;
    }

    /** Queues a rebuild from the store (stored vectors used, nothing unchanged embedded) and waits for it. */
    public void reindex() {
        await(submit(new CatchUp(true)));
    }

    /** Queues a catch-up from the store and waits for it: the index then holds the catalog as of this call. */
    public void awaitCurrent() {
        await(submit(new CatchUp(false)));
    }

    private Slot submit(Job job) {
        synchronized (lock) {
            requireStarted();
            Slot s = new Slot(job, -1);
            slots.addLast(s);
            lock.notifyAll();
            return s;
        }
    }

    void enqueue(List<CatalogEvent> batch) {
        if (batch.isEmpty()) {
            return;
        }
        Map<String, CatalogEntry> tools = new LinkedHashMap<>();
        long version = -1;
        for (CatalogEvent e : batch) {
            version = Math.max(version, e.version());
            switch (e) {
                case CatalogEvent.InterfaceRegistered r -> r.tools().forEach(t -> tools.put(t.name(), t));
                case CatalogEvent.ActionAdded a -> tools.put(a.tool().name(), a.tool());
                case CatalogEvent.ActionUpdated u -> tools.put(u.after().name(), u.after());
                case CatalogEvent.ActionRemoved r -> tools.put(r.tool().name(), null);
                case CatalogEvent.InterfaceUnregistered u -> u.tools().forEach(t -> tools.put(t.name(), null));
            }
        }
        Change change = new Change(version, tools, System.nanoTime());
        synchronized (lock) {
            if (worker != null) {
                slots.addLast(new Slot(change, version));
                lock.notifyAll();
                return;
            }
        }
        // not started (a component without a worker, e.g. in a test): indexed on the publishing thread, which the
        // catalog serializes
        Slot direct = new Slot(change, version);
        apply(change, direct);
        synchronized (lock) {
            indexedVersion = Math.max(indexedVersion, version);
        }
        writes.commit(version);
    }

    /**
     * Waits until the change that brought the catalog to {@code version} is searchable.
     *
     * @throws SubscriberException when indexing that change failed (it is stored: the index catches up
     *     from the store on the next re-sync, {@link #reindex} or start)
     */
    public void awaitIndexed(long version) {
        synchronized (lock) {
            while (!indexed(version)) {
                RuntimeException failed = failures.get(version);
                if (failed != null) {
                    throw new SubscriberException(
                            "indexing catalog version " + version + " failed: " + failed.getMessage()
                                    + "; the change itself is stored and the index catches up from the store",
                            failed);
                }
                if (worker == null || closed || unfinished() == null) {
                    return; // nothing will index it in this process (not started, closing): the next start catches up
                }
                waitLocked(0);
            }
        }
    }

    /**
     * Waits until every change up to catalog version {@code version} is searchable, not only the one that brought the
     * catalog to it: a later change of at most {@value #SMALL} tools is indexed before larger earlier ones, so {@link
     * #awaitIndexed} of the last version can return while a large change before it is still being embedded. For a
     * reader that needs the whole catalog searchable (an engine that opens, a replica that waits for another's
     * write).
     *
     * @throws SubscriberException when indexing a change not yet searchable failed (it is stored: the index
     *     catches up from the store)
     */
    public void awaitIndexedThrough(long version) {
        synchronized (lock) {
            while (indexedVersion < version) {
                for (Map.Entry<Long, RuntimeException> f : failures.entrySet()) {
                    if (f.getKey() > indexedVersion && f.getKey() <= version) {
                        throw new SubscriberException(
                                "indexing catalog version " + f.getKey() + " failed: "
                                        + f.getValue().getMessage()
                                        + "; the change itself is stored and the index catches up from the store",
                                f.getValue());
                    }
                }
                if (worker == null || closed || unfinished() == null) {
                    return; // nothing will index it in this process (not started, closing): the next start catches up
                }
                waitLocked(0);
            }
        }
    }

    /** Whether the change of {@code version} is searchable. Holds the lock. */
    private boolean indexed(long version) {
        if (indexedVersion >= version) {
            return true;
        }
        for (Slot s : slots) {
            if (s.version == version && s.done) {
                return true;
            }
        }
        return false;
    }

    private void await(Slot slot) {
        synchronized (lock) {
            while (!slot.done && !closed) {
                if (slot.job instanceof Change c && failures.containsKey(c.version())) {
                    throw new SubscriberException(
                            "indexing failed: " + failures.get(c.version()).getMessage(), failures.get(c.version()));
                }
                waitLocked(0);
            }
        }
    }

    @Override
    public Status status() {
        Supplier<Catalog.Snapshot> c;
        int queued = 0;
        long indexed;
        String error;
        synchronized (lock) {
            for (Slot s : slots) {
                if (!s.done) {
                    queued++;
                }
            }
            indexed = indexedVersion;
            error = lastError;
            c = catalog;
        }
        long source = c == null ? indexed : c.get().version();
        return new Status(queued, indexed, source, error);
    }

    /**
     * Catches the index up with {@code snapshot} on the calling thread, for an engine that writes no store and
     * starts no worker (a read-only opening). Embeds only texts with no stored vector.
     *
     * @return true when the index changed
     */
    public boolean rebuildIfStale(Catalog.Snapshot snapshot) {
        long before = index.committedVersion();
        int size = index.size();
        writes.catchUp(snapshot, false, () -> {});
        return before != index.committedVersion() || size != index.size();
    }

    /** Stops the worker after the batch it is on; what is queued stays in the store and is caught up at the next start. */
    @Override
    public void close() {
        Thread w;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            w = worker;
        }
        if (w != null && w != Thread.currentThread()) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void requireStarted() {
        if (worker == null) {
            throw new IllegalStateException("the tool indexer is not started");
        }
        if (closed) {
            throw new IllegalStateException("the tool indexer is closed");
        }
    }

    private void waitLocked(long nanos) {
        try {
            if (nanos <= 0) {
                lock.wait();
            } else {
                lock.wait(Math.max(1, nanos / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the tool indexer", e);
        }
    }

    /** Thrown inside the worker when {@link #close} asks it to stop between two batches. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("the tool indexer is closing", null, false, false);
        }
    }

    private void work() {
        while (true) {
            Slot s = null;
            boolean fill = false;
            boolean compact = false;
            boolean commit = false;
            synchronized (lock) {
                while (true) {
                    if (closed) {
                        break;
                    }
                    s = firstPending();
                    long now = System.nanoTime();
                    if (s != null && s.notBeforeNanos - now <= 0) {
                        break;
                    }
                    // after the idle commit: storing the counts of a million tools takes minutes
                    if (s == null && countsDue && tokenCounts != null && !writes.dirty()) {
                        countsDue = false;
                        fill = true;
                        break;
                    }
                    // idle a while, or the last commit that long ago: a writer that never pauses still commits, so
                    // a read-only opening beside it finds its changes committed (ReadOnlyOpening waits for that)
                    long commitAt = Math.min(lastWorkNanos, writes.lastCommitNanos())
                            + writes.policy().commitIdle().toNanos();
                    if (s == null && writes.dirty() && now - commitAt >= 0) {
                        commit = true;
                        break;
                    }
                    long compactAt = lastWorkNanos + COMPACT_AFTER_IDLE.toNanos();
                    if (s == null && compactDue && now - compactAt >= 0) {
                        compactDue = false;
                        compact = true;
                        break;
                    }
                    if (s == null && now - nextResyncNanos >= 0) {
                        s = new Slot(new CatchUp(false), -1);
                        slots.addLast(s);
                        break;
                    }
                    long until = s != null
                            ? s.notBeforeNanos
                            : compactDue && compactAt - nextResyncNanos < 0 ? compactAt : nextResyncNanos;
                    if (writes.dirty() && commitAt - until < 0) {
                        until = commitAt;
                    }
                    try {
                        lock.wait(Math.max(1, (until - now) / 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            if (closed()) {
                // what was indexed is committed, what was counted saved, nothing more counted: a process that indexes
                // and exits (`index`) leaves the next start a current index and its counts
                commitOnClose();
                storeTokenCounts(() -> true);
                return;
            }
            if (commit) {
                writes.commit(indexedVersion());
                continue;
            }
            if (fill) {
                storeTokenCounts(this::hasWork);
                continue;
            }
            if (compact) {
                writes.compact(this::closed);
                continue;
            }
            try {
                run(s);
            } catch (Stopped stop) {
                commitOnClose();
                storeTokenCounts(() -> true);
                return;
            } catch (RuntimeException | Error e) {
                fail(s, e);
            }
            try {
                publishIfDue();
            } catch (RuntimeException | Error e) {
                synchronized (lock) { // not known to be searchable: written again (upserts replace by name)
                    unpublished.forEach(u -> u.applied = false);
                    unpublished.clear();
                }
                fail(s, e);
            }
        }
    }

    /**
     * Makes the changes written so far searchable when one is small, when nothing else is ready to index, or when
     * {@link CommitPolicy#refreshEvery} has passed; then commits if the policy says so.
     */
    private void publishIfDue() {
        boolean drained;
        synchronized (lock) {
            if (unpublished.isEmpty()) {
                return;
            }
            Slot next = firstPending();
            drained = closed || next == null || next.notBeforeNanos - System.nanoTime() > 0;
        }
        if (urgent || drained || writes.refreshDue(System.nanoTime())) {
            publish(List.of());
            writes.commitIfDue(indexedVersion());
        }
    }

    /** Refreshes the index, then tells the waiters of the changes written so far and of {@code more}. */
    private void publish(List<Slot> more) {
        writes.refresh();
        List<ToolDocuments.Written> timed = new ArrayList<>();
        synchronized (lock) {
            unpublished.forEach(u -> u.done = true);
            unpublished.stream().filter(u -> u.written != null).forEach(u -> timed.add(u.written));
            more.forEach(u -> u.done = true);
            unpublished.clear();
            urgent = false;
            succeeded();
        }
        timed.forEach(docs::searchable);
    }

    /** On close: what was written becomes durable, so the next start has nothing to catch up. */
    private void commitOnClose() {
        try {
            if (!unpublished.isEmpty()) {
                publish(List.of());
            }
            writes.commitIfDirty(indexedVersion());
        } catch (RuntimeException e) {
            // the store holds every change: the next start catches up from the last commit
            LOG.warn("committing the search index on close failed (the next start catches up): {}", e.toString());
        }
    }

    private boolean closed() {
        synchronized (lock) {
            return closed;
        }
    }

    /** Whether a change or catch-up is waiting, or the indexer is closing: what token counting yields to. */
    private boolean hasWork() {
        synchronized (lock) {
            return closed || firstPending() != null;
        }
    }

    private void storeTokenCounts(BooleanSupplier yield) {
        TokenCounts counts = tokenCounts;
        if (counts == null) {
            return;
        }
        try {
            if (!counts.fill(catalog.get(), yield)) {
                synchronized (lock) {
                    countsDue = true; // yielded: the rest after the work that came
                }
            }
        } catch (RuntimeException e) {
            // a cache: the definitions are counted again when asked for, and the next fill tries again
            LOG.warn("storing the token counts of the tools' definitions failed: {}", e.toString());
        }
    }

    /** The first change or catch-up not yet written to the index. Holds the lock. */
    private Slot firstPending() {
        for (Slot s : slots) {
            if (!s.done && !s.applied) {
                return s;
            }
        }
        return null;
    }

    /** The first change not yet searchable (written or not). Holds the lock. */
    private Slot unfinished() {
        for (Slot s : slots) {
            if (!s.done) {
                return s;
            }
        }
        return null;
    }

    private void run(Slot s) {
        switch (s.job) {
            case CatchUp c -> {
                if (!unpublished.isEmpty()) {
                    publish(List.of());
                }
                writes.commitIfDirty(indexedVersion()); // the catch-up starts from the committed version
                long v = writes.catchUp(catalog.get(), c.full(), this::stopIfClosed);
                synchronized (lock) {
                    s.version = v;
                    s.done = true;
                    for (Slot later : slots) {
                        if (!later.done && later.job instanceof Change ch && ch.version() <= v) {
                            later.done = true; // already in the snapshot the catch-up indexed
                        }
                    }
                    succeeded();
                    nextResyncNanos = System.nanoTime() + resync.toNanos();
                }
            }
            case Change c -> {
                docs.begin();
                if (c.version() > indexedVersion()) {
                    apply(c, s);
                }
                s.written = docs.written(c.version(), c.tools().size(), c.queuedNanos()); // told once searchable
                // searchable before a waiter is told: see publishIfDue
                synchronized (lock) {
                    s.applied = true;
                    unpublished.add(s);
                    urgent |= c.tools().size() <= SMALL;
                }
            }
        }
    }

    private long indexedVersion() {
        synchronized (lock) {
            return indexedVersion;
        }
    }

    /** After a success: drops the done prefix of the queue, advancing the indexed version over it. */
    private void succeeded() {
        lastError = null;
        failuresInARow = 0;
        for (Iterator<Slot> it = slots.iterator(); it.hasNext(); ) {
            Slot s = it.next();
            if (!s.done) {
                break;
            }
            indexedVersion = Math.max(indexedVersion, s.version);
            it.remove();
        }
        countsDue = true;
        compactDue = true;
        lastWorkNanos = System.nanoTime();
        lock.notifyAll();
    }

    private void fail(Slot s, Throwable e) {
        LOG.error("indexing {} failed; the change is stored, and the index catches up from the store", describe(s), e);
        synchronized (lock) {
            if (s.job instanceof Change c) {
                failures.put(c.version(), e instanceof RuntimeException r ? r : new IllegalStateException(e));
            }
            lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
            failuresInARow++;
            long backoff =
                    Math.min(MAX_BACKOFF.toNanos(), Duration.ofMillis(500).toNanos() << Math.min(10, failuresInARow));
            s.job = new CatchUp(false);
            s.notBeforeNanos = System.nanoTime() + backoff;
            lock.notifyAll();
        }
    }

    private static String describe(Slot s) {
        return switch (s.job) {
            case Change c -> "catalog version " + c.version() + " (" + c.tools().size() + " tools)";
            case CatchUp c -> c.full() ? "a rebuild from the store" : "a catch-up from the store";
        };
    }

    /** Indexes one change, letting small later changes through between its batches. */
    private void apply(Change c, Slot self) {
        List<String> removals = new ArrayList<>();
        List<CatalogEntry> upserts = new ArrayList<>();
        c.tools().forEach((name, e) -> {
            if (e == null) {
                removals.add(name);
            } else {
                upserts.add(e);
            }
        });
        if (!removals.isEmpty()) {
            writes.remove(removals);
        }
        for (int from = 0; from < upserts.size(); from += BATCH) {
            writes.upsert(upserts.subList(from, Math.min(upserts.size(), from + BATCH)), from);
            if (from + BATCH < upserts.size()) {
                overtake(self);
            }
        }
    }

    /** Indexes the small later changes that share no tool with any change still before them. */
    private void overtake(Slot current) {
        List<Slot> ready = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                throw new Stopped();
            }
            // the changes still before a candidate, each checked by lookups: copying their names into one set at
            // every batch cost time in the number of queued tools (hundreds of thousands during a bulk load)
            List<Map<String, CatalogEntry>> before = new ArrayList<>();
            boolean behind = false;
            for (Slot s : slots) {
                if (s == current) {
                    behind = true;
                }
                if (s.done || s.applied) {
                    continue; // in the index already: it holds nothing up
                }
                if (!(s.job instanceof Change c)) {
                    if (behind) {
                        break; // a catch-up reads the store as it then is: nothing after it may pass it
                    }
                    continue;
                }
                if (behind && s != current && c.tools().size() <= SMALL && disjoint(c.tools(), before)) {
                    ready.add(s);
                } else {
                    before.add(c.tools());
                }
            }
        }
        if (ready.isEmpty()) {
            return;
        }
        List<Slot> applied = new ArrayList<>();
        for (Slot s : ready) {
            try {
                apply((Change) s.job, s);
                applied.add(s);
            } catch (Stopped stop) {
                throw stop;
            } catch (RuntimeException e) {
                fail(s, e);
            }
        }
        // searchable now (with what was written before), before a waiter is told; the indexed version stays the last
        // one up to which every change is indexed (succeeded() advances only over a done prefix)
        publish(applied);
    }

    private static boolean disjoint(Map<String, CatalogEntry> change, List<Map<String, CatalogEntry>> before) {
        for (String name : change.keySet()) {
            for (Map<String, CatalogEntry> b : before) {
                if (b.containsKey(name)) {
                    return false;
                }
            }
        }
        return true;
    }

    private void stopIfClosed() {
        synchronized (lock) {
            if (closed && worker != null) {
                throw new Stopped();
            }
        }
    }
}
