package dev.toolscout.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessPolicyJson;
import dev.toolscout.approval.Approvals;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.conversation.ConversationLimits;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.engine.files.CatalogFiles;
import dev.toolscout.events.EventBus;
import dev.toolscout.indexing.ToolIndex;
import dev.toolscout.indexing.ToolIndexer;
import dev.toolscout.lucene.LuceneToolIndex;
import dev.toolscout.memory.Memories;
import dev.toolscout.memory.MemoryIndex;
import dev.toolscout.memory.MemoryTools;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.StoredTokenCounts;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.routing.VectorRouter;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Selector;
import dev.toolscout.selection.SelectorConfig;
import dev.toolscout.skills.Skill;
import dev.toolscout.skills.SkillIndex;
import dev.toolscout.skills.SkillTools;
import dev.toolscout.skills.Skills;
import dev.toolscout.state.StateStore;
import dev.toolscout.store.PostgresStateStore;
import dev.toolscout.store.SqliteStateStore;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbResolver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import java.util.function.Predicate;

/**
 * The composition root: opens a data directory and wires the store, the embedding model, the search index,
 * the indexer, the access control, the selector and the discovery tools. The only place that chooses
 * implementations.
 *
 * <p>Data directory layout: {@code lock} (held while an engine has the directory open: one writer per data
 * directory, whatever the model), {@code state.db} (SQLite: catalog, vectors, policy, skills, conversations; the
 * truth) and {@code
 * index/<model>/} (Lucene; a cache, rebuilt from the stored vectors when missing, behind or damaged). Opening
 * with a current index embeds nothing; the embedding model is loaded only when something is embedded.
 *
 * <p>A read-only engine ({@link Options#readOnly}) takes no lock and writes nothing, so it can read a directory
 * that another process holds: see {@link ReadOnlyOpening}.
 */
final class Engine implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Engine.class);
    /** Null for a read-only engine. */
    private final DataDirectoryLock lock;

    private final StateStore store;
    /** Null with the data directory's own store. */
    private final ReplicaSync sync;

    private final LazyEmbeddingModel model;
    private final LuceneToolIndex index;
    private final Catalog catalog;
    private final ToolIndexer indexer;
    private final AccessControl access;
    private final StoredTokenCounts tokenCounts;
    private final int tokenCountsLoaded;

    private final HybridRanker ranker;
    private final Selector selector;
    private final dev.toolscout.learning.UsageMemory learned;
    private final DiscoveryTools discovery;
    private final VerbResolver verbs;
    private final EventBus bus;
    private final Path dataDir;
    private final Approvals approvals;
    private final int untouchedByCatalogs;
    private final boolean readOnly;
    private final boolean indexInMemory;
    private final Skills skills;
    private final SkillTools skillTools;
    private final Conversations conversations;
    private final Memories memories;
    private final MemoryTools memoryTools;
    private final VectorRouter router;

    /**
     * How to open an engine.
     *
     * @param dataDir the data directory (created if missing)
     * @param catalogs catalog files whose tools are added to (or updated in) the catalog, or {@code null} to
     *     keep what the data directory holds (a new one starts with the bundled demo catalog). Stored tools
     *     the files do not name are kept: dropping them takes {@link #replaceCatalogTools}.
     * @param tools tools the catalog must hold exactly besides MCP servers' tools and registered verbs (instead of
     *     files; for evaluation and benchmarks on their own data directories; verbs' tools given here are written
     *     too), or {@code null}
     * @param policyFile an access policy file that applies to this engine instead of the stored one (which it
     *     never replaces; see {@link #savePolicy}), or {@code null}
     * @param modelId the embedding model, or {@code null} for the default
     * @param progress told how many tools were embedded so far during long indexing runs; may be null
     * @param preloadModel start loading the embedding model at once, on another thread, overlapping the open
     *     (for callers that will embed: select, find, the gateways); otherwise it loads on first use
     * @param policy an access policy that applies to this engine as a policy file would, or {@code null}
     * @param readOnly open an existing data directory for reading only, beside a process that may hold and write
     *     it: no lock, nothing written, no migration, no tool embedded ({@link ReadOnlyOpening}); the catalog,
     *     policy and vectors are those stored at the open. Every write throws {@link IllegalStateException}.
     *     Catalog files are accepted when the store holds every tool of theirs as they have it (nothing to add,
     *     see {@link #notStoredAsGiven}); tools cannot be given (they would remove others).
     * @param store a PostgreSQL store's address ({@code postgresql://host:port/database?schema=name}, see {@code
     *     store.PostgresUrl}) shared by several replicas, instead of the data directory's SQLite file, or {@code null};
     *     the data directory then holds only this replica's search index (and its lock). Not with {@code readOnly}.
     */
    public record Options(
            Path dataDir,
            List<Path> catalogs,
            List<ToolSpec> tools,
            Path policyFile,
            String modelId,
            SelectorConfig selector,
            IntConsumer progress,
            boolean preloadModel,
            AccessPolicy policy,
            boolean readOnly,
            String store,
            java.time.Duration indexResync) {
        public Options {
            java.util.Objects.requireNonNull(dataDir, "dataDir");
            if (catalogs != null && tools != null) {
                throw new IllegalArgumentException("give catalog files or tools, not both");
            }
            if (readOnly && tools != null) {
                throw new IllegalArgumentException("tools would be written to the data directory " + dataDir
                        + ", which a read-only opening never writes");
            }
            if (policyFile != null && policy != null) {
                throw new IllegalArgumentException("give a policy file or a policy, not both");
            }
            if (selector == null) {
                selector = SelectorConfig.DEFAULT;
            }
            if (store != null && readOnly) {
                throw new IllegalArgumentException(
                        "a read-only opening reads a data directory's own store; with a shared "
                                + "store (" + dev.toolscout.store.PostgresUrl.parse(store)
                                + ") open a data directory of this process's "
                                + "own for writing instead");
            }
            if (indexResync == null) {
                indexResync = ToolIndexer.DEFAULT_RESYNC;
            } else if (indexResync.compareTo(java.time.Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("the index re-sync period must be at least 1s, got: " + indexResync);
            }
        }

        /** With the data directory's own store and the default index re-sync period. */
        public Options(
                Path dataDir,
                List<Path> catalogs,
                List<ToolSpec> tools,
                Path policyFile,
                String modelId,
                SelectorConfig selector,
                IntConsumer progress,
                boolean preloadModel,
                AccessPolicy policy,
                boolean readOnly) {
            this(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    null,
                    null);
        }

        /** With a shared store at {@code store} (see {@link #withStore}) and the default index re-sync period. */
        public Options(
                Path dataDir,
                List<Path> catalogs,
                List<ToolSpec> tools,
                Path policyFile,
                String modelId,
                SelectorConfig selector,
                IntConsumer progress,
                boolean preloadModel,
                AccessPolicy policy,
                boolean readOnly,
                String store) {
            this(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    store,
                    null);
        }

        /** The same with a shared PostgreSQL store at {@code address} (null: the data directory's own SQLite file). */
        public Options withStore(String address) {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    address,
                    indexResync);
        }

        /** The same, catching the search index up from the store every {@code period} besides the events. */
        public Options withIndexResync(java.time.Duration period) {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    store,
                    period);
        }

        /** Without a policy override. */
        public Options(
                Path dataDir,
                List<Path> catalogs,
                List<ToolSpec> tools,
                Path policyFile,
                String modelId,
                SelectorConfig selector,
                IntConsumer progress,
                boolean preloadModel) {
            this(dataDir, catalogs, tools, policyFile, modelId, selector, progress, preloadModel, null);
        }

        /** Opening for writing (not read-only). */
        public Options(
                Path dataDir,
                List<Path> catalogs,
                List<ToolSpec> tools,
                Path policyFile,
                String modelId,
                SelectorConfig selector,
                IntConsumer progress,
                boolean preloadModel,
                AccessPolicy policy) {
            this(dataDir, catalogs, tools, policyFile, modelId, selector, progress, preloadModel, policy, false);
        }

        public static Options of(Path dataDir) {
            return new Options(dataDir, null, null, null, null, null, null, false, null);
        }

        /** The same, opened for reading only (see {@link Options}). */
        public Options withReadOnly() {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    true,
                    store,
                    indexResync);
        }

        public Options withCatalogs(List<Path> files) {
            return new Options(
                    dataDir,
                    files,
                    null,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    store,
                    indexResync);
        }

        public Options withTools(List<ToolSpec> specs) {
            return new Options(
                    dataDir,
                    null,
                    specs,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    store,
                    indexResync);
        }

        public Options withPolicy(Path file) {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    file,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    null,
                    readOnly,
                    store,
                    indexResync);
        }

        /** A policy for this engine instead of the stored one (like a policy file, without the file). */
        public Options withPolicyOverride(AccessPolicy p) {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    p == null ? policyFile : null,
                    modelId,
                    selector,
                    progress,
                    preloadModel,
                    p,
                    readOnly,
                    store,
                    indexResync);
        }

        public Options withModel(String id) {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    id,
                    selector,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    store,
                    indexResync);
        }

        public Options withSelector(SelectorConfig config) {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    config,
                    progress,
                    preloadModel,
                    policy,
                    readOnly,
                    store,
                    indexResync);
        }

        public Options withProgress(IntConsumer p) {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    selector,
                    p,
                    preloadModel,
                    policy,
                    readOnly,
                    store,
                    indexResync);
        }

        /** Loads the model while the engine opens: for callers that embed every time (select, find, gateways). */
        public Options withModelPreload() {
            return new Options(
                    dataDir,
                    catalogs,
                    tools,
                    policyFile,
                    modelId,
                    selector,
                    progress,
                    true,
                    policy,
                    readOnly,
                    store,
                    indexResync);
        }
    }

    private Engine(Options o) throws IOException {
        long t0 = System.nanoTime();
        // read and check every input file before anything is opened: bad input changes nothing
        List<ToolSpec> fromFiles = o.catalogs() == null ? null : CatalogFiles.loadAll(o.catalogs());
        List<Skill> skillsFromFiles = o.catalogs() == null ? List.of() : CatalogFiles.loadSkills(o.catalogs());
        AccessPolicy policy = o.policyFile() == null ? o.policy() : readPolicy(o.policyFile());
        String modelId = o.modelId() == null ? LocalEmbeddingModels.DEFAULT_ID : o.modelId();
        int dimension = LocalEmbeddingModels.dimension(modelId);
        if (o.readOnly()) {
            // not even the lock: a reader stays out of the writer's way (and writes nothing, the lock file included)
            this.lock = null;
            this.readOnly = true;
        } else {
            Files.createDirectories(o.dataDir());
            // before the store or any index: one engine writes a data directory, whichever model it uses
            this.lock = DataDirectoryLock.acquire(o.dataDir());
            this.readOnly = false;
        }
        DataDirectoryLock l = lock;
        LazyEmbeddingModel m = new LazyEmbeddingModel(modelId, dimension, () -> LocalEmbeddingModels.create(modelId));
        if (o.preloadModel()) {
            // the model load (about a second) overlaps opening the store and the index; on two cores this roughly
            // halves the time to a first selection. close() waits for it (see LazyEmbeddingModel).
            m.preload();
        }
        // The store (native library, then 10k specs parsed) and the index (Lucene start-up) open in parallel;
        // neither needs the other until the ordinals are matched.
        // a shared store's index lives apart from the data directory's own store's, one per store address: the two
        // catalogs' versions say nothing about each other
        Path indexDir = o.store() == null
                ? o.dataDir().resolve("index").resolve(modelId)
                : o.dataDir()
                        .resolve("replica-index")
                        .resolve(dev.toolscout.model.Hashing.sha256Hex(dev.toolscout.store.PostgresUrl.parse(o.store())
                                        .display())
                                .substring(0, 12))
                        .resolve(modelId);
        CompletableFuture<LuceneToolIndex> indexOpen = o.readOnly()
                ? null
                : CompletableFuture.supplyAsync(
                        () -> openIndex(indexDir, dimension),
                        r -> Thread.ofVirtual().name("index-open").start(r));
        StateStore s = null;
        PostgresStateStore pg = null;
        long feedFrom = 0;
        long loadedVersion = 0;
        LuceneToolIndex idx = null;
        ToolIndexer started = null;
        // definition token counts: those stored by earlier starts are loaded before the first selection, the rest are
        // counted and stored by the indexer's worker, off the request path (issue 22)
        TokenCounter tc = new TokenCounter();
        int countsLoaded = 0;
        CompletableFuture<Integer> countsLoad = null;
        StoredTokenCounts tokenCounts = null;
        try {
            if (o.readOnly()) {
                ReadOnlyOpening.Opened ro = ReadOnlyOpening.open(o.dataDir(), indexDir, dimension);
                s = ro.store();
                idx = ro.index();
                EventBus bus = new EventBus();
                this.catalog = Catalog.of(s, ro.stored(), bus, ro.persisted() ? idx.ordinals() : Map.of());
                this.bus = bus;
                // read only: what is stored is used, nothing is stored
                tokenCounts = new StoredTokenCounts(s, tc, ENGINE_TOOLS);
                countsLoaded = tokenCounts.load(catalog.snapshot());
                // not attached to the bus: nothing changes this catalog
                this.indexer =
                        new ToolIndexer(s, idx, ro.persisted() ? m : ReadOnlyOpening.storedVectorsOnly(m, o.dataDir()));
                this.indexInMemory = !ro.persisted();
                this.untouchedByCatalogs = 0;
                if (fromFiles != null) {
                    List<String> absent = notStoredAsGiven(catalog.snapshot(), fromFiles);
                    if (!absent.isEmpty()) {
                        throw new IllegalArgumentException("catalog files " + o.catalogs() + ": " + absent.size()
                                + " of their tools are not in data directory " + o.dataDir() + " as the files have "
                                + "them (" + quoted(absent.subList(0, Math.min(5, absent.size())))
                                + (absent.size() > 5 ? ", ..." : "") + "), and a read-only opening adds nothing; add "
                                + "them through the process that holds the directory, or open it for writing when none "
                                + "does");
                    }
                }
                if (indexInMemory) {
                    indexer.rebuildIfStale(catalog.snapshot());
                }
                LOG.debug(
                        "opened {} read-only in {} ms: catalog version {} with {} tools, {}",
                        o.dataDir(),
                        ms(t0, System.nanoTime()),
                        catalog.version(),
                        catalog.size(),
                        indexInMemory
                                ? "search index built in memory from the stored vectors"
                                : "its committed search index");
            } else {
                if (o.store() != null) {
                    pg = PostgresStateStore.open(o.store());
                    s = pg;
                    // before the catalog is read: a change made meanwhile is applied again on catch-up, which is
                    // harmless
                    feedFrom = pg.lastChange();
                } else {
                    s = SqliteStateStore.open(o.dataDir().resolve("state.db"));
                }
                long tStore = System.nanoTime();
                dev.toolscout.catalog.CatalogStore.StoredCatalog stored = s.loadCatalog();
                loadedVersion = stored.version();
                // read while the rest opens; the first selection finds them (joined below)
                StoredTokenCounts counts = new StoredTokenCounts(s, tc, ENGINE_TOOLS);
                countsLoad = CompletableFuture.supplyAsync(
                        () -> {
                            long t = System.nanoTime();
                            int n = counts.load(stored.contentHashes());
                            LOG.debug("loaded {} stored token counts in {} ms", n, ms(t, System.nanoTime()));
                            return n;
                        },
                        r -> Thread.ofVirtual().name("token-counts-load").start(r));
                tokenCounts = counts;
                long tCatalog = System.nanoTime();
                idx = joinIndex(indexOpen, o.dataDir());
                long tIndex = System.nanoTime();
                EventBus bus = new EventBus();
                // keep the persisted index's ordinals, so it is used as it is when current and only what changed is
                // indexed again when it is behind (a crash before the last changes were indexed)
                this.catalog = Catalog.of(s, stored, bus, idx.ordinals());
                this.bus = bus;
                this.indexer = new ToolIndexer(s, idx, m).attach(bus::subscribe);
                indexer.onProgress(o.progress());
                // the worker first catches the index up with the store, then indexes each change from the queue
                started = indexer.start(catalog, o.indexResync());
                catalog.searchableBy(indexer::awaitIndexed, indexer::awaitIndexedThrough);
                long tRebuild = System.nanoTime();
                LOG.debug(
                        "opened {} in {} ms: store {} ms, catalog of {} tools {} ms, waited for the index {} ms, "
                                + "index check {} ms",
                        o.dataDir(),
                        ms(t0, tRebuild),
                        ms(t0, tStore),
                        catalog.size(),
                        ms(tStore, tCatalog),
                        ms(tCatalog, tIndex),
                        ms(tIndex, tRebuild));
                int untouched = 0;
                if (fromFiles != null) {
                    // add and update only: a data directory may hold tools of other files, `index`, or `remove`d ones
                    // brought back; dropping stored tools takes an explicit `index --replace` or `remove`
                    catalog.apply(fromFiles, List.of());
                    Set<String> named = new HashSet<>();
                    fromFiles.forEach(t -> named.add(t.fullName()));
                    untouched = (int) catalog.snapshot().entries().stream()
                            .filter(e -> CATALOG_OWNED.test(e)
                                    && !named.contains(e.spec().fullName()))
                            .count();
                } else if (o.tools() != null) {
                    catalog.sync(o.tools(), CATALOG_OWNED);
                } else if (catalog.snapshot().unordered().stream().noneMatch(CATALOG_OWNED)) {
                    catalog.sync(CatalogFiles.demo(), CATALOG_OWNED);
                }
                this.untouchedByCatalogs = untouched;
                this.indexInMemory = false;
                // an opened engine's index holds its catalog, as before the indexing queue: the catch-up and the files,
                // every batch of them (a small last batch is indexed ahead of the larger ones before it)
                indexer.awaitIndexedThrough(catalog.version());
            }
            // a policy file applies to this engine only; the stored one changes only through savePolicy (policy set)
            this.access = new AccessControl(
                    policy != null ? policy : storedPolicy(s, o.dataDir()).orElse(AccessPolicy.ALLOW_ALL));
            if (countsLoad != null) {
                countsLoaded = join(countsLoad);
                // from now on the worker stores what the store lacks (the whole catalog in a directory made before
                // counts
                // were stored), after the start's catch-up and each change
                indexer.countTokens(tokenCounts);
            }
            this.tokenCounts = tokenCounts;
            this.tokenCountsLoaded = countsLoaded;
            // one ranker (and its threads) for the selector and the discovery tools; close() ends it
            this.ranker = new HybridRanker(idx);
            // what was learned from use: loaded (a tool removed or changed since drops its pairs) and kept current by
            // the catalog's events; a read-only engine reads it and drops nothing
            this.learned = new dev.toolscout.learning.UsageMemory(s, m, java.time.Clock.systemUTC());
            learned.load(catalog.snapshot(), readOnly);
            if (!readOnly) {
                bus.subscribe(learned::onEvents);
            }
            this.selector = new Selector(catalog, ranker, m, access, tc, o.selector(), ENGINE_TOOLS, learned);
            // skills: loaded from the store, their index kept current by skill events (embedding only what has no
            // stored vector), catalog files' skills added or updated as their tools are
            // (read-only: the stored vectors only, and the files' skills must be stored as they are)
            SkillIndex skillIndex = new SkillIndex(s, readOnly ? ReadOnlyOpening.storedVectorsOnly(m, o.dataDir()) : m);
            this.skills = Skills.load(s, bus::publishSkills);
            skillIndex.rebuild(skills.all());
            bus.subscribeSkills(skillIndex::onEvents);
            if (readOnly) {
                List<String> absent = skillsFromFiles.stream()
                        .filter(k -> !skills.get(k.name()).map(k::equals).orElse(false))
                        .map(Skill::name)
                        .toList();
                if (!absent.isEmpty()) {
                    throw new IllegalArgumentException("catalog files " + o.catalogs() + ": skills " + quoted(absent)
                            + " are not in data directory " + o.dataDir()
                            + " as the files have them, and a read-only opening "
                            + "adds nothing; add them through the process that holds the directory");
                }
            } else {
                skills.apply(skillsFromFiles, List.of());
            }
            this.conversations = new Conversations(s, java.time.Clock.systemUTC(), ConversationLimits.DEFAULT);
            this.skillTools = new SkillTools(skills, skillIndex, catalog, access, conversations, ENGINE_TOOLS);
            // memories: loaded from the store with their vectors, their index kept current by memory events
            MemoryIndex memoryIndex = new MemoryIndex();
            bus.subscribeMemories(memoryIndex::onEvents);
            this.memories = Memories.load(
                    s, m, access::policy, java.time.Clock.systemUTC(), memoryIndex, bus::publishMemories, readOnly);
            this.memoryTools = new MemoryTools(memories);
            this.router = new VectorRouter(catalog, idx, access, m, memories, skillTools, null);
            this.discovery =
                    new DiscoveryTools(catalog, ranker, m, access, o.selector().fusion()).withSkills(skillTools);
            this.verbs =
                    new VerbResolver(catalog, ranker, m, access, o.selector().fusion());
            this.store = s;
            this.approvals = new Approvals(s, java.time.Clock.systemUTC(), Approvals.DEFAULT_TTL);
            if (pg != null) {
                PostgresStateStore shared = pg;
                Path dir = o.dataDir();
                ReplicaSync rs = new ReplicaSync(
                                shared,
                                catalog,
                                loadedVersion,
                                skills,
                                policy == null ? access : null,
                                () -> storedPolicy(shared, dir))
                        .following(memories, learned);
                rs.start(feedFrom, indexer);
                this.sync = rs;
            } else {
                this.sync = null;
            }
            this.index = idx;
            this.model = m;
            this.dataDir = o.dataDir();
        } catch (RuntimeException | Error e) {
            try {
                if (started != null) {
                    started.close();
                }
                if (idx == null && indexOpen != null) {
                    // wait for the open to end (it may be rebuilding the directory) and close what it made
                    try {
                        indexOpen.join().close();
                    } catch (RuntimeException ignored) {
                        // its own failure; the first error is the one reported
                    }
                } else if (idx != null) {
                    idx.close();
                }
                m.close();
                if (countsLoad != null) {
                    countsLoad.exceptionally(x -> 0).join(); // not reading the store as it closes
                }
                if (s != null) {
                    s.close();
                }
            } finally {
                if (l != null) {
                    l.close();
                }
            }
            throw e;
        }
    }

    /**
     * The names of {@code tools} that {@code snapshot} does not hold as they are (missing, or stored with other
     * content), in the order given: what adding them would change.
     */
    public static List<String> notStoredAsGiven(Catalog.Snapshot snapshot, List<ToolSpec> tools) {
        List<String> out = new ArrayList<>();
        for (ToolSpec t : tools) {
            CatalogEntry e = snapshot.get(t.fullName());
            if (e == null || !e.contentHash().equals(t.contentHash())) {
                out.add(t.fullName());
            }
        }
        return out;
    }

    /**
     * The tools the engine serves itself: the discovery meta-tools and the memory tools, offered as core tools when
     * the catalog lacks them.
     */
    public static final List<ToolSpec> ENGINE_TOOLS = java.util.stream.Stream.concat(
                    DiscoveryTools.SPECS.stream(), MemoryTools.SPECS.stream())
            .toList();

    /** Catalog files and the demo own every tool but those of MCP servers, which the upstream manager keeps. */
    private static final Predicate<CatalogEntry> NOT_MCP = e -> e.spec().sourceKind() != SourceKind.MCP;

    /**
     * The tools catalog files and the demo own, which {@code index --replace} and an exact tool list replace: all but
     * MCP servers' (the upstream manager keeps those), verbs (registered one by one, {@link #registerVerbs}) and
     * imported OpenAPI documents' ({@link #replaceSourceTools}, one source at a time).
     */
    private static final Predicate<CatalogEntry> CATALOG_OWNED = e -> e.spec().sourceKind() != SourceKind.MCP
            && e.spec().sourceKind() != SourceKind.VERB
            && e.spec().sourceKind() != SourceKind.OPENAPI;

    /**
     * Opens the index of one model and checks every file's checksum. The index is a cache of the store: one
     * that cannot be opened or read (a damaged or half-written file, an unknown format, vectors of another
     * dimension) is deleted and started empty, and the indexer then rebuilds it from the stored vectors,
     * embedding nothing. Only a lock held by another process is an error, since that index is in use. Runs
     * while this engine holds the data-directory lock, so no ToolScout process is using the files deleted.
     */
    static LuceneToolIndex openIndex(Path dir, int dimension) {
        LuceneToolIndex idx = null;
        try {
            idx = LuceneToolIndex.open(dir, dimension);
            idx.checkIntegrity();
            return idx;
        } catch (RuntimeException e) {
            if (causedBy(e, org.apache.lucene.store.LockObtainFailedException.class)) {
                throw e;
            }
            if (idx != null) {
                try {
                    idx.close();
                } catch (RuntimeException ignored) {
                    // the files go next
                }
            }
            LOG.warn("the search index at {} cannot be used ({}); rebuilding it from the store", dir, e.getMessage());
            try {
                deleteTree(dir);
            } catch (IOException d) {
                throw new java.io.UncheckedIOException(
                        "cannot delete the damaged search index at " + dir + " to rebuild it: " + d.getMessage()
                                + " (delete the directory by hand; it is rebuilt from the store)",
                        d);
            }
            return LuceneToolIndex.open(dir, dimension);
        }
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The index, or a clear error when a process without the data-directory lock holds it (Lucene's lock). */
    private static LuceneToolIndex joinIndex(CompletableFuture<LuceneToolIndex> f, Path dataDir) {
        try {
            return join(f);
        } catch (RuntimeException e) {
            if (causedBy(e, org.apache.lucene.store.LockObtainFailedException.class)) {
                throw new DataDirectoryInUseException(dataDir, "another process (its search index is locked)");
            }
            throw e;
        }
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    private static long ms(long from, long to) {
        return (to - from) / 1_000_000;
    }

    public static Engine open(Options options) throws IOException {
        return new Engine(options);
    }

    /** The policy stored in the data directory, read and checked; an unreadable one is an error naming it. */
    private static java.util.Optional<AccessPolicy> storedPolicy(dev.toolscout.access.PolicyStore s, Path dataDir) {
        java.util.Optional<String> json = s.loadPolicyJson();
        if (json.isEmpty()) {
            return java.util.Optional.empty();
        }
        String where = "the access policy stored in " + dataDir.resolve("state.db");
        try {
            return java.util.Optional.of(AccessPolicyJson.fromJson(new ObjectMapper().readTree(json.get()), where));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(where + " is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Reads an access policy file (JSON, or YAML by extension); errors name the file. */
    public static AccessPolicy readPolicy(Path file) throws IOException {
        return dev.toolscout.engine.files.PolicyFiles.read(file);
    }

    /** The policy stored in the data directory, if one was saved. */
    public java.util.Optional<AccessPolicy> storedPolicy() {
        return storedPolicy(store, dataDir);
    }

    /** Stores {@code policy} in the data directory (durable on return) and applies it to this engine. */
    public void savePolicy(AccessPolicy policy) {
        requireWritable("store the access policy");
        store.savePolicyJson(AccessPolicyJson.toJson(policy).toString());
        access.setPolicy(policy);
    }

    /**
     * Adds or updates the tools of catalog files (no removals).
     *
     * @throws IllegalArgumentException for a verb's tool ({@link #registerVerbs} writes those); nothing is changed
     */
    public Catalog.Change index(List<ToolSpec> tools) {
        requireWritable("add or update tools");
        for (ToolSpec t : tools) {
            if (t.sourceKind() == SourceKind.VERB || t.name().source().equals(VerbManifest.SOURCE)) {
                throw new IllegalArgumentException("tool '" + t.fullName() + "': the source '" + VerbManifest.SOURCE
                        + "' and the kind 'verb' are reserved for verbs, which are registered as verb manifests (docs/VERBS.md);"
                        + " nothing was changed");
            }
            String reserved = dev.toolscout.model.ReservedSources.catalogRefusal(t);
            if (reserved != null) {
                throw new IllegalArgumentException(reserved + "; nothing was changed");
            }
        }
        return indexed(catalog.apply(tools, List.of()));
    }

    /**
     * Compacts the search index now, once every change so far is searchable, rather than when the indexer has been
     * idle a while ({@link dev.toolscout.indexing.ToolIndex#compact}): for a command that writes the catalog and ends
     * (`index`), or measures right after writing it (`eval`, `bench`), so its searches and the next start see the
     * index a running engine keeps. Returns whether the index was compacted.
     */
    public boolean compactIndex() {
        requireWritable("compact the search index");
        indexer.awaitIndexedThrough(catalog.version());
        return index.compact();
    }

    /**
     * Waits until {@code change} is searchable (not for other, larger changes queued before it that share no tool
     * with it: see {@link ToolIndexer}) and returns it. What the engine's write methods do, so a selection after
     * one of them ranks the tools it wrote.
     */
    public Catalog.Change indexed(Catalog.Change change) {
        return catalog.awaitSearchable(change);
    }

    /** Adds or replaces verbs (their catalog tools {@code verbs__<VERB>}), durable on return. */
    public Catalog.Change registerVerbs(List<VerbManifest> manifests) {
        requireWritable("register verbs");
        return indexed(
                catalog.apply(manifests.stream().map(VerbManifest::toSpec).toList(), List.of()));
    }

    /**
     * Makes the catalog's own tools (all but MCP servers' and verbs) exactly {@code tools}: adds, updates, and
     * removes every other stored one. What {@code index --replace} does; nothing else drops stored tools in bulk.
     */
    public Catalog.Change replaceCatalogTools(List<ToolSpec> tools) {
        requireWritable("replace the catalog's tools");
        return indexed(catalog.sync(tools, CATALOG_OWNED));
    }

    /**
     * Makes the tools of one imported source exactly {@code tools} in one change: adds, updates, and removes the
     * source's stored tools that {@code tools} does not name (an OpenAPI document imported again without an
     * operation drops its tool). What {@code index --openapi} does.
     *
     * @throws IllegalArgumentException when a tool is not of {@code source} and {@code kind}, or when the catalog
     *     already holds tools of {@code source} of another kind (a catalog file's, an MCP server's); nothing is
     *     changed
     */
    public Catalog.Change replaceSourceTools(String source, SourceKind kind, List<ToolSpec> tools) {
        requireWritable("replace the tools of source '" + source + "'");
        for (ToolSpec t : tools) {
            if (!t.name().source().equals(source) || t.sourceKind() != kind) {
                throw new IllegalArgumentException("tool '" + t.fullName() + "' is not of source '" + source
                        + "' and kind " + kind.name().toLowerCase(java.util.Locale.ROOT) + "; nothing was changed");
            }
        }
        List<String> others = sourceToolsOfAnotherKind(source, kind);
        if (!others.isEmpty()) {
            throw new IllegalArgumentException("source '" + source + "' already holds " + others.size() + " tool(s) of "
                    + "another kind (" + quoted(others.subList(0, Math.min(3, others.size())))
                    + "); pick another source name "
                    + "or remove those first; nothing was changed");
        }
        return indexed(catalog.sync(
                tools, e -> e.spec().name().source().equals(source) && e.spec().sourceKind() == kind));
    }

    /** The names of the stored tools of {@code source} whose kind is not {@code kind}, in name order. */
    public List<String> sourceToolsOfAnotherKind(String source, SourceKind kind) {
        List<String> out = new ArrayList<>();
        for (CatalogEntry e : catalog.snapshot().entries()) {
            if (e.spec().name().source().equals(source) && e.spec().sourceKind() != kind) {
                out.add(e.spec().fullName());
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Removes tools by name, all or none.
     *
     * @throws IllegalArgumentException naming every name that is not in the catalog, or that belongs to an MCP
     *     server (its server would list it again; {@code mcp remove} removes the server)
     */
    public Catalog.Change remove(Collection<String> names) {
        requireWritable("remove tools");
        Catalog.Snapshot snap = catalog.snapshot();
        List<String> missing = new ArrayList<>();
        List<String> upstream = new ArrayList<>();
        for (String n : names) {
            CatalogEntry e = snap.get(n);
            if (e == null) {
                missing.add(n);
            } else if (!NOT_MCP.test(e)) {
                upstream.add(n);
            }
        }
        if (!missing.isEmpty()) {
            throw new NoSuchToolException(
                    "no tool named " + quoted(missing) + " in the catalog of " + dataDir + "; nothing was removed",
                    missing);
        }
        if (!upstream.isEmpty()) {
            throw new IllegalArgumentException(quoted(upstream) + (upstream.size() == 1 ? " comes" : " come")
                    + " from an MCP server, which would list it again; remove the server with `toolscout mcp remove NAME`; "
                    + "nothing was removed");
        }
        return indexed(catalog.apply(List.of(), names));
    }

    /**
     * Removes every tool of one source (the part of the name before {@code __}).
     *
     * @throws IllegalArgumentException when the catalog has no tool of that source, or the source is an MCP
     *     server's
     */
    public Catalog.Change removeSource(String source) {
        requireWritable("remove tools");
        List<String> names = new ArrayList<>();
        boolean mcpTools = false;
        for (CatalogEntry e : catalog.snapshot().entries()) {
            if (e.spec().name().source().equals(source)) {
                if (NOT_MCP.test(e)) {
                    names.add(e.spec().fullName());
                } else {
                    mcpTools = true;
                }
            }
        }
        if (mcpTools) {
            throw new IllegalArgumentException("source '" + source + "' is an MCP server's, which would list its tools "
                    + "again; remove the server with `toolscout mcp remove NAME`; nothing was removed");
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no tool of source '" + source + "' in the catalog of " + dataDir
                    + " (a source is the part of a name before __, e.g. gmail in gmail__send_email)");
        }
        return indexed(catalog.apply(List.of(), names));
    }

    private static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(n -> "'" + n + "'").toList());
    }

    /**
     * How many of the catalog's own tools the {@code catalogs} files opened with do not name (they stay stored
     * and ranked); 0 when opened without catalog files.
     */
    public int toolsBesidesCatalogFiles() {
        return untouchedByCatalogs;
    }

    /** Whether this engine was opened read-only ({@link Options#readOnly}): it writes nothing. */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Whether this read-only engine built its search index in memory from the stored vectors, since the
     * committed index did not hold the stored catalog ({@link ReadOnlyOpening}); false for a writing engine.
     */
    public boolean indexInMemory() {
        return indexInMemory;
    }

    private void requireWritable(String what) {
        if (readOnly) {
            throw new IllegalStateException("cannot " + what + ": data directory " + dataDir + " is open read-only "
                    + "(it reflects the store as of the open and writes nothing)");
        }
    }

    /** Whether the embedding model was loaded (or is loading): never, for an engine that embedded nothing. */
    public boolean modelLoaded() {
        return model.state() != LazyEmbeddingModel.State.NOT_LOADED;
    }

    /** The data directory this engine holds. */
    public Path dataDir() {
        return dataDir;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** What selection learned from use ({@code toolscout learn}). */
    public dev.toolscout.learning.UsageMemory learned() {
        return learned;
    }

    public Selector selector() {
        return selector;
    }

    public DiscoveryTools discovery() {
        return discovery;
    }

    /** Verb discovery and resolution over this engine's catalog, ranking and access control. */
    public VerbResolver verbs() {
        return verbs;
    }

    public AccessControl access() {
        return access;
    }

    /** How many stored definition token counts the open loaded into {@link #tokenCounts()} (none counted again). */
    int tokenCountsLoaded() {
        return tokenCountsLoaded;
    }

    /** The counter (and its cache) for definitions outside the catalog; the catalog's are {@link #tokenCounts()}. */
    public TokenCounter tokens() {
        return tokenCounts.counter();
    }

    /** Every catalog definition's count: loaded at open, kept by the indexer, summed by each selection's result. */
    public StoredTokenCounts tokenCounts() {
        return tokenCounts;
    }

    public EmbeddingModel model() {
        return model;
    }

    /** The search index (a cache of the store). */
    public ToolIndex index() {
        return index;
    }

    public EventBus events() {
        return bus;
    }

    /**
     * Whether the store is reachable and followed: always for the data directory's own store; for a shared
     * (PostgreSQL) store, whether this replica's change feed is connected. A replica that lost PostgreSQL serves reads
     * from its last state and refuses writes (they fail naming the store).
     */
    public boolean storeReady() {
        return sync == null || sync.connected();
    }

    /** Whether this engine's store is shared with other replicas (PostgreSQL). */
    public boolean sharedStore() {
        return sync != null;
    }

    /** How this engine follows the other replicas of a shared store; null with the data directory's own store. */
    ReplicaSync replicaSync() {
        return sync;
    }

    /**
     * Runs {@code work} unless another replica is running it for the same upstream server now (its {@code
     * list_changed} sync is written once); with the data directory's own store it always runs.
     *
     * @return whether it ran
     */
    public boolean onceAcrossReplicas(String server, Runnable work) {
        if (store instanceof PostgresStateStore shared) {
            // under the lock, first what the last holder wrote: the work then diffs against the stored catalog
            return shared.whileHoldingServerLock(server, () -> {
                sync.catchUpCatalog();
                work.run();
            });
        }
        work.run();
        return true;
    }

    /** The approval queue in this engine's store (what {@code toolscout approvals} reads and decides). */
    public Approvals approvals() {
        return approvals;
    }

    /** The tool indexer: its queue, its status (what /metrics and /readyz show) and {@code reindex}. */
    public ToolIndexer indexer() {
        return indexer;
    }

    /** How many tools this engine embedded since it opened (0 after a start on a current data directory). */
    public long embeddedCount() {
        return indexer.embeddedCount();
    }

    /** The skills (what {@code toolscout skills} and the API's skill calls change). */
    public Skills skills() {
        return skills;
    }

    /** The skills as each principal sees them, and {@code skills__activate}. */
    public SkillTools skillTools() {
        return skillTools;
    }

    /** The memories (what the memory tools, {@code toolscout memory} and {@code /v1/memories} read and change). */
    public Memories memories() {
        return memories;
    }

    /** The built-in memory tools ({@code memory__store}, {@code memory__search}, {@code memory__recall}, {@code memory__forget}). */
    public MemoryTools memoryTools() {
        return memoryTools;
    }

    /** The router: a route for a message before any LLM is called. */
    public VectorRouter router() {
        return router;
    }

    /** The conversations in the store (active skills, disclosed tools). */
    public Conversations conversations() {
        return conversations;
    }

    /**
     * The state store (the truth: catalog, vectors, policy, approvals). For the server's MCP registry, which
     * keeps its servers there; closed by {@link #close}.
     */
    public StateStore store() {
        return store;
    }

    /**
     * Closes the engine. Whoever built on it (the server's MCP runtime) closes first, so no upstream connection
     * is still indexing into a closed store.
     */
    @Override
    public void close() {
        // first: the worker may be embedding and writing the index (what it has not indexed is in the store)
        indexer.close();
        if (sync != null) {
            sync.close();
        }
        try {
            // waits for the preload and any embedding still running on another thread: no thread may be in the
            // model's native code when the process exits
            model.close();
        } finally {
            try {
                ranker.close();
                index.close();
            } finally {
                try {
                    store.close();
                } finally {
                    if (lock != null) {
                        lock.close();
                    }
                }
            }
        }
    }
}
