package dev.toolscout.catalog;

import dev.toolscout.model.ToolSpec;
import java.util.Collection;
import java.util.List;

/**
 * The stored catalog: every tool with its content hash, and the version that grows with each change. Part of
 * {@code state.StateStore}; thread-safe, every change durable on return.
 */
public interface CatalogStore {
    /** Every stored tool, in name order, and the catalog version they are at (0 for an empty store). */
    StoredCatalog loadCatalog();

    /** The current catalog version; it grows by one with each {@link #applyCatalogChange}. */
    long catalogVersion();

    /**
     * Upserts {@code upserts} (by name) and deletes {@code removals} (unknown names are ignored) in one
     * transaction, durable on return.
     *
     * @return the new catalog version
     */
    long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals);

    /**
     * The names of the stored tools written by a catalog change after {@code version} (those a search index
     * committed at {@code version} may hold in an older form). Removed tools are not named: an index finds them as
     * the names it holds that the catalog does not. What an index catches up from, on start and on each re-sync.
     * The default names every stored tool, which is correct and slower; a store that keeps each tool's version
     * answers exactly.
     */
    default java.util.Set<String> toolsChangedSince(long version) {
        java.util.Set<String> all = new java.util.HashSet<>();
        loadCatalog().tools().forEach(t -> all.add(t.fullName()));
        return all;
    }

    /**
     * The catalog as stored.
     *
     * @param contentHashes each tool's {@link ToolSpec#contentHash()}, in the order of {@code tools}, as stored
     *     with it (so a start need not hash every spec again)
     */
    record StoredCatalog(long version, List<ToolSpec> tools, List<String> contentHashes) {
        public StoredCatalog {
            tools = List.copyOf(tools);
            contentHashes = List.copyOf(contentHashes);
            if (contentHashes.size() != tools.size()) {
                throw new IllegalArgumentException("need one content hash per tool, got " + contentHashes.size()
                        + " for " + tools.size() + " tools");
            }
        }

        /** Hashes each spec. */
        public StoredCatalog(long version, List<ToolSpec> tools) {
            this(version, tools, tools.stream().map(ToolSpec::contentHash).toList());
        }
    }
}
