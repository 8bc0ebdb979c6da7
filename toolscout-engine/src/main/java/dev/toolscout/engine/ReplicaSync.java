package dev.toolscout.engine;

import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.indexing.IndexedChange;
import dev.toolscout.indexing.ToolIndexer;
import dev.toolscout.skills.Skills;
import dev.toolscout.store.PostgresChangeFeed;
import dev.toolscout.store.PostgresStateStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one replica current with a PostgreSQL store that other replicas write: on each batch of changes from the
 * {@link PostgresChangeFeed} it applies the catalog changes since the last version it applied ({@link
 * Catalog#applyStored}: the index follows through the catalog's events, with the stored vectors, embedding
 * nothing another replica embedded), reloads the skills and, unless a policy was given for this process, the
 * stored access policy, the memories and what was learned from use, and tells the listeners (the server's MCP
 * registry) which areas changed. Approvals and
 * conversations are read from the store on every use, so they need nothing here.
 *
 * <p>Each catalog change heard of is timed through its stages until it is searchable here ({@link ReplicaCatchUp},
 * told to {@link #onCatchUp} listeners); a change the indexer folds into a larger one or a catch-up is not.
 *
 * <p>Thread-safety: the feed calls {@link #apply} on its one thread; the rest is safe from any thread.
 */
final class ReplicaSync implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaSync.class);

    /** How often the change log is read without a notification. */
    static final Duration POLL = Duration.ofSeconds(1);

    private final PostgresStateStore store;
    private final Catalog catalog;
    private final Skills skills;
    private final AccessControl access;
    private final Supplier<Optional<AccessPolicy>> storedPolicy;
    private volatile dev.toolscout.memory.Memories memories;
    private volatile dev.toolscout.learning.UsageMemory learned;
    private final List<Consumer<Set<Area>>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<ReplicaCatchUp>> catchUpListeners = new CopyOnWriteArrayList<>();
    /** The catalog changes heard of and read, not yet searchable, by the version they bring the catalog to. */
    private final ConcurrentSkipListMap<Long, Heard> heard = new ConcurrentSkipListMap<>();

    private volatile long catalogVersion;
    private volatile PostgresChangeFeed feed;

    /**
     * @param catalogVersion the stored catalog version the catalog was loaded at
     * @param access the access control to give the stored policy, or null when this process was given its own
     */
    ReplicaSync(
            PostgresStateStore store,
            Catalog catalog,
            long catalogVersion,
            Skills skills,
            AccessControl access,
            Supplier<Optional<AccessPolicy>> storedPolicy) {
        this.store = store;
        this.catalog = catalog;
        this.catalogVersion = catalogVersion;
        this.skills = skills;
        this.access = access;
        this.storedPolicy = storedPolicy;
    }

    /** Also keeps these memories and what was learned from use current (either may be null). */
    ReplicaSync following(dev.toolscout.memory.Memories memories, dev.toolscout.learning.UsageMemory learned) {
        this.memories = memories;
        this.learned = learned;
        return this;
    }

    /**
     * Starts following the store from change {@code after} (read before the state was loaded), timing the catalog
     * changes through {@code indexer} until they are searchable.
     */
    void start(long after, ToolIndexer indexer) {
        indexer.onIndexed(this::indexed);
        feed = PostgresChangeFeed.start(store, after, this::apply, POLL);
    }

    /** Called with each catalog change's stages once it is searchable here (on the indexer's thread). */
    void onCatchUp(Consumer<ReplicaCatchUp> listener) {
        catchUpListeners.add(listener);
    }

    /** Called with the areas that changed (on the feed's thread), after this replica applied them. */
    void subscribe(Consumer<Set<Area>> listener) {
        listeners.add(listener);
    }

    /** Whether the store is reachable and this replica is following it. */
    boolean connected() {
        PostgresChangeFeed f = feed;
        return f != null && f.connected();
    }

    private void apply(PostgresStateStore.Changes changes) {
        Set<Area> areas = changes.gap() ? Set.of(Area.values()) : changes.areas();
        if (areas.contains(Area.CATALOG)) {
            catchUpCatalog(changes);
        }
        if (areas.contains(Area.SKILLS)) {
            skills.reload();
        }
        if (areas.contains(Area.MEMORIES) && memories != null) {
            memories.reload();
        }
        if (areas.contains(Area.LEARNED) && learned != null) {
            learned.load(catalog.snapshot(), true); // read only: the pairs of a changed tool are the writer's to drop
        }
        if (areas.contains(Area.POLICY) && access != null) {
            storedPolicy.get().ifPresent(access::setPolicy);
        }
        for (Consumer<Set<Area>> l : listeners) {
            try {
                l.accept(areas);
            } catch (RuntimeException e) {
                LOG.warn("replica: a listener failed on changes to {}: {}", areas, e.getMessage(), e);
            }
        }
    }

    /**
     * Applies the catalog changes stored since the last version this replica applied, now, on the caller's thread
     * (serialized with the feed's by the catalog).
     */
    void catchUpCatalog() {
        catchUpCatalog(null);
    }

    /** As {@link #catchUpCatalog()}, timing the change read when {@code changes} says when it was heard of. */
    private void catchUpCatalog(PostgresStateStore.Changes changes) {
        Catalog.Change c = catalog.applyStored(snapshot -> {
            long t0 = System.nanoTime();
            Catalog.StoredChange stored = store.catalogSince(catalogVersion);
            catalogVersion = stored.version();
            if (changes != null
                    && changes.firstWrittenAtMillis() > 0
                    && !(stored.upserts().isEmpty() && stored.removals().isEmpty())) {
                // before the change is published to the indexer, whose worker may index it at once
                heard.put(stored.version(), new Heard(changes, System.nanoTime() - t0));
            }
            return stored;
        });
        if (!c.isEmpty()) {
            LOG.debug(
                    "replica: catalog at version {}: {} added, {} updated, {} removed by another replica",
                    c.version(),
                    c.added(),
                    c.updated(),
                    c.removed());
        }
    }

    private record Heard(PostgresStateStore.Changes changes, long storeReadNanos) {}

    /** The indexer's report of a change: completes its figures if this replica heard of it from another. */
    private void indexed(IndexedChange c) {
        Heard h = heard.remove(c.version());
        heard.headMap(c.version()).clear(); // folded into this one or a catch-up: not timed
        if (h == null || catchUpListeners.isEmpty()) {
            return;
        }
        PostgresStateStore.Changes ch = h.changes();
        ReplicaCatchUp r = new ReplicaCatchUp(
                c.version(),
                c.tools(),
                Duration.ofMillis(Math.max(0, ch.readAtMillis() - ch.firstWrittenAtMillis())),
                Duration.ofNanos(ch.readNanos()),
                Duration.ofNanos(h.storeReadNanos()),
                Duration.ofNanos(c.queueNanos()),
                Duration.ofNanos(c.vectorsNanos()),
                Duration.ofNanos(c.writeNanos()),
                Duration.ofNanos(c.refreshNanos()),
                Duration.ofMillis(Math.max(0, System.currentTimeMillis() - ch.firstWrittenAtMillis())),
                c.embedded());
        for (Consumer<ReplicaCatchUp> l : catchUpListeners) {
            try {
                l.accept(r);
            } catch (RuntimeException e) {
                LOG.warn("replica: a catch-up listener failed: {}", e.getMessage(), e);
            }
        }
    }

    @Override
    public void close() {
        PostgresChangeFeed f = feed;
        if (f != null) {
            f.close();
        }
    }
}
