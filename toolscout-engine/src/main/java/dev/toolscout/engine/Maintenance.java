package dev.toolscout.engine;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.indexing.Indexer;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.StateStore;
import dev.toolscout.store.PostgresStateStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The data directory's upkeep, for the commands and servers that run ToolScout rather than ask it for tools: the
 * search index (rebuild, compact, status), the store (shared or not, its changes), and the catalog writes that are
 * not a client's (replace the catalog, drop a source). Thread-safe; what writes throws {@link
 * IllegalStateException} on a read-only or closed {@link ToolScout}.
 */
public interface Maintenance {
    /** How a {@link #reindex} went: the tools and catalog version the rebuilt index holds, and how many were embedded. */
    record Reindexed(int tools, long version, long embedded) {}

    /** The data directory this instance holds. */
    Path dataDir();

    /**
     * The state store (the truth: catalog, vectors, policy, approvals), for what the server keeps beside the catalog
     * in it (its MCP servers, imported APIs' calls, the git history's index). Closed with the {@link ToolScout}.
     */
    StateStore store();

    /** The catalog's version: it grows with every write. */
    long catalogVersion();

    /** How many tools were embedded since the open (0 after a start on a current data directory). */
    long embeddedCount();

    /** Whether the embedding model was loaded (or is loading): never, for an instance that embedded nothing. */
    boolean modelLoaded();

    /**
     * How many of the catalog's own tools the catalog files given at the open do not name (they stay stored and
     * ranked); 0 when opened without catalog files.
     */
    int toolsBesidesCatalogFiles();

    /** The names of {@code tools} the store does not hold as given (missing, or stored with another definition). */
    List<String> notStoredAsGiven(List<ToolSpec> tools);

    /** The exact catalog: {@code tools} added or updated, every other tool of a catalog (not an MCP server's) removed. */
    CatalogChange replaceCatalogTools(List<ToolSpec> tools);

    /** Removes every tool of {@code source} (an imported API's, say), durable on return. */
    CatalogChange removeSource(String source);

    /** The names of every stored skill, whoever may see it. */
    Set<String> skillNames();

    /** The access policy stored in the data directory, if one was saved (whatever overrides it in this instance). */
    Optional<AccessPolicy> storedPolicy();

    /** Rebuilds the search index from the store (every tool, embedding those without a stored vector). */
    Reindexed reindex();

    /**
     * Compacts the search index once every change so far is searchable, for a command that writes and ends (so
     * the next start searches the index as a running server keeps it). Whether it compacted.
     */
    boolean compactIndex();

    /** The tool indexer: its queue and lag (what {@code /metrics} and {@code /readyz} show). */
    Indexer indexer();

    /**
     * Whether the store is reachable and followed: always for the data directory's own store; for a shared
     * (PostgreSQL) store, whether this replica's change feed is connected.
     */
    boolean storeReady();

    /**
     * Calls {@code listener} (on the change feed's thread) with the areas another replica changed, once applied here;
     * never with the data directory's own store.
     */
    void onStoreChanges(Consumer<Set<PostgresStateStore.Area>> listener);

    /**
     * Calls {@code listener} (on the tool indexer's thread; it must be quick) with the stages of each catalog change
     * another replica made, once it is searchable here; never with the data directory's own store.
     */
    void onReplicaCatchUp(Consumer<ReplicaCatchUp> listener);

    /**
     * Runs {@code work} unless another replica sharing the store runs it for the same upstream server now; with the
     * data directory's own store it always runs. Whether it ran.
     */
    boolean onceAcrossReplicas(String server, Runnable work);
}
