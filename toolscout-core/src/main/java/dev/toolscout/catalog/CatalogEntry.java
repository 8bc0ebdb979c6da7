package dev.toolscout.catalog;

import dev.toolscout.model.ToolSpec;

/**
 * A tool as the catalog holds it: its ordinal (what access sets and the index refer to), its spec and the
 * spec's content hash.
 */
public record CatalogEntry(int ord, ToolSpec spec, String contentHash) {
    public String name() {
        return spec.fullName();
    }
}
