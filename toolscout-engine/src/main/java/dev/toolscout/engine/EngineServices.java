package dev.toolscout.engine;

import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.approval.Approvals;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.events.EventBus;
import dev.toolscout.indexing.Indexer;
import dev.toolscout.indexing.ToolIndex;
import dev.toolscout.learning.UsageMemory;
import dev.toolscout.memory.Memories;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.openapi.OpenApiSources;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.routing.VectorRouter;
import dev.toolscout.runs.RunStore;
import dev.toolscout.runs.UsageStore;
import dev.toolscout.selection.Selector;
import dev.toolscout.skills.Skill;
import dev.toolscout.skills.SkillTools;
import dev.toolscout.state.StateStore;
import dev.toolscout.store.PostgresStateStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What {@link LocalToolScout} gives over its engine besides selection, search and the catalog: the narrow services
 * of {@link dev.toolscout.engine.ToolScout} the agent loop, the HTTP API and the CLI use (approvals, runs and usage,
 * access checks, OpenAPI sources), and the guards every call goes through (open, writable). Thread-safe.
 */
abstract class EngineServices {
    final Engine engine;
    final AtomicBoolean closed = new AtomicBoolean();
    private final OpenApiSources openApiSources;
    private final Maintenance maintenance;
    private final GatewayParts gatewayParts;
    private final RankingParts rankingParts;

    EngineServices(Engine engine) {
        this.engine = engine;
        this.openApiSources = new LocalOpenApiSources(engine);
        this.maintenance = new EngineMaintenance();
        this.gatewayParts = new EngineGatewayParts();
        this.rankingParts = new EngineRankingParts();
    }

    void open() {
        if (closed.get()) {
            throw new IllegalStateException("this ToolScout is closed (data directory " + engine.dataDir() + ")");
        }
    }

    /** Open and not read-only, or a clear error naming what was refused. */
    void writable(String what) {
        open();
        if (engine.readOnly()) {
            throw new IllegalStateException("cannot " + what + ": this ToolScout opened data directory "
                    + engine.dataDir() + " with readOnly(true), and writes nothing there");
        }
    }

    static Principal who(Principal p) {
        return p == null ? Principal.ANONYMOUS : p;
    }

    public boolean readOnly() {
        return engine.readOnly();
    }

    public Approvals approvals() {
        return engine.approvals();
    }

    public RunStore runs() {
        return engine.store();
    }

    public UsageStore usage() {
        return engine.store();
    }

    public boolean allows(Principal principal, ToolSpec tool) {
        return engine.access().allows(who(principal), tool);
    }

    public Optional<ToolSpec> visibleTool(Principal principal, ToolSpec tool) {
        ToolSpec described =
                engine.catalog().get(tool.fullName()).map(CatalogEntry::spec).orElse(tool);
        return engine.access().allows(who(principal), described) ? Optional.of(described) : Optional.empty();
    }

    public List<Skill> unofferedSkills(Principal principal) {
        open();
        return engine.skillTools().unoffered(who(principal));
    }

    public List<String> missingTools(String name) {
        open();
        return name == null
                ? List.of()
                : engine.skills()
                        .get(name)
                        .map(engine.skillTools()::missingTools)
                        .orElse(List.of());
    }

    public OpenApiSources openApiSources() {
        return openApiSources;
    }

    public Maintenance maintenance() {
        return maintenance;
    }

    public GatewayParts gatewayParts() {
        return gatewayParts;
    }

    public RankingParts rankingParts() {
        return rankingParts;
    }

    private static CatalogChange change(Catalog.Change c) {
        return new CatalogChange(c.version(), c.added(), c.updated(), c.removed());
    }

    /** {@link Maintenance} over the engine, behind the same guards as the rest of the API. */
    private final class EngineMaintenance implements Maintenance {
        @Override
        public Path dataDir() {
            return engine.dataDir();
        }

        @Override
        public StateStore store() {
            open();
            return engine.store();
        }

        @Override
        public long catalogVersion() {
            open();
            return engine.catalog().version();
        }

        @Override
        public long embeddedCount() {
            return engine.embeddedCount();
        }

        @Override
        public boolean modelLoaded() {
            return engine.modelLoaded();
        }

        @Override
        public int toolsBesidesCatalogFiles() {
            return engine.toolsBesidesCatalogFiles();
        }

        @Override
        public List<String> notStoredAsGiven(List<ToolSpec> tools) {
            open();
            return Engine.notStoredAsGiven(engine.catalog().snapshot(), tools);
        }

        @Override
        public CatalogChange replaceCatalogTools(List<ToolSpec> tools) {
            writable("replace the catalog");
            return change(engine.replaceCatalogTools(tools));
        }

        @Override
        public CatalogChange removeSource(String source) {
            writable("remove a source's tools");
            return change(engine.removeSource(source));
        }

        @Override
        public Set<String> skillNames() {
            open();
            return engine.skills().all().stream().map(Skill::name).collect(Collectors.toCollection(TreeSet::new));
        }

        @Override
        public Optional<AccessPolicy> storedPolicy() {
            open();
            return engine.storedPolicy();
        }

        @Override
        public Reindexed reindex() {
            writable("rebuild the search index");
            long before = engine.embeddedCount();
            engine.indexer().reindex();
            return new Reindexed(
                    engine.index().size(), engine.index().committedVersion(), engine.embeddedCount() - before);
        }

        @Override
        public boolean compactIndex() {
            writable("compact the search index");
            return engine.compactIndex();
        }

        @Override
        public Indexer indexer() {
            return engine.indexer();
        }

        @Override
        public boolean storeReady() {
            return engine.storeReady();
        }

        @Override
        public void onStoreChanges(Consumer<Set<PostgresStateStore.Area>> listener) {
            open();
            if (engine.replicaSync() != null) {
                engine.replicaSync().subscribe(listener);
            }
        }

        @Override
        public void onReplicaCatchUp(Consumer<ReplicaCatchUp> listener) {
            open();
            if (engine.replicaSync() != null) {
                engine.replicaSync().onCatchUp(listener);
            }
        }

        @Override
        public boolean onceAcrossReplicas(String server, Runnable work) {
            open();
            return engine.onceAcrossReplicas(server, work);
        }
    }

    /** The engine's serving parts, as they are (they guard themselves). */
    private final class EngineGatewayParts implements GatewayParts {
        @Override
        public Catalog catalog() {
            return engine.catalog();
        }

        @Override
        public EventBus events() {
            return engine.events();
        }

        @Override
        public AccessControl access() {
            return engine.access();
        }

        @Override
        public DiscoveryTools discovery() {
            return engine.discovery();
        }

        @Override
        public SkillTools skillTools() {
            return engine.skillTools();
        }

        @Override
        public List<String> coreTools() {
            return engine.selector().config().coreTools();
        }

        @Override
        public List<ToolSpec> indexTools() {
            return engine.router().indexers().stream()
                    .map(dev.toolscout.indexing.SearchableIndexer::tool)
                    .toList();
        }
    }

    /** The engine's ranking parts, as they are. */
    private final class EngineRankingParts implements RankingParts {
        @Override
        public Catalog catalog() {
            return engine.catalog();
        }

        @Override
        public ToolIndex index() {
            return engine.index();
        }

        @Override
        public EmbeddingModel model() {
            return engine.model();
        }

        @Override
        public AccessControl access() {
            return engine.access();
        }

        @Override
        public Selector selector() {
            return engine.selector();
        }

        @Override
        public TokenCounter tokens() {
            return engine.tokens();
        }

        @Override
        public UsageMemory learned() {
            return engine.learned();
        }

        @Override
        public VectorRouter router() {
            return engine.router();
        }

        @Override
        public Memories memories() {
            return engine.memories();
        }
    }
}
