package dev.toolscout.indexing;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import java.util.function.BooleanSupplier;

/**
 * The token counts the {@link ToolIndexer} keeps current ({@code dev.toolscout.render.StoredTokenCounts}): counted as
 * tools are indexed, stored when the indexer's queue is empty. An interface here so that indexing does not depend on
 * rendering.
 */
public interface TokenCounts {
    /**
     * Counts the definition of {@code entry} (a tool being indexed) unless its count is known; the next {@link #fill}
     * stores it. Called from several threads at once (a batch's documents are built on every core).
     */
    void count(CatalogEntry entry);

    /**
     * Stores the count of every definition of {@code snapshot} that has none stored, asking {@code yield} between
     * batches.
     *
     * @param yield true when the caller has more urgent work (or is closing): the definitions not counted yet are
     *     left for the next call
     * @return true when every definition's count is stored, false when it yielded first or must be asked again
     */
    boolean fill(Catalog.Snapshot snapshot, BooleanSupplier yield);
}
