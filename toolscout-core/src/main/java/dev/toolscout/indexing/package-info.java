/**
 * Turning tools into a search index and searching it: the index contract ({@link dev.toolscout.indexing.ToolIndex},
 * with its {@link dev.toolscout.indexing.ToolDocument}s, {@link dev.toolscout.indexing.ToolText} and
 * {@link dev.toolscout.indexing.Hit}s), the indexer contract ({@link dev.toolscout.indexing.Indexer}), the
 * embed-and-store step indexers share ({@link dev.toolscout.indexing.CachedEmbeddings}) and the tools indexer
 * ({@link dev.toolscout.indexing.ToolIndexer}), which keeps the index current with the catalog's events.
 *
 * <p>Depends on the catalog, the embedding model, the model and {@code access} (a search runs inside an
 * {@link dev.toolscout.access.AllowedSet}) only, never on {@code events}, {@code render} or a concept with its own
 * indexer, so every indexer (tools here, skills, git, memory) can use it without a package cycle: the tools indexer
 * is subscribed by whoever holds the bus ({@code attach(bus::subscribe)}) and keeps token counts through
 * {@link dev.toolscout.indexing.TokenCounts}.
 */
package dev.toolscout.indexing;
