package dev.toolscout.indexing;

/**
 * How one catalog change went through the tool indexer ({@link ToolIndexer#onIndexed}), stage by stage, for a
 * replica's catch-up figures and the metrics. Durations in nanoseconds.
 *
 * @param version the catalog version the change brought the catalog to
 * @param tools the tools it added, changed or removed
 * @param queueNanos from the change being queued to the worker taking it
 * @param vectorsNanos reading the tools' stored vectors, and embedding those with none ({@link CachedEmbeddings})
 * @param writeNanos writing the documents into the index (not yet searchable)
 * @param refreshNanos from the documents written until they are searchable (the index's commit)
 * @param embedded texts sent to the embedding model for this change (0 when every vector was stored, as for a
 *     change another replica made)
 */
public record IndexedChange(
        long version,
        int tools,
        long queueNanos,
        long vectorsNanos,
        long writeNanos,
        long refreshNanos,
        long embedded) {}
