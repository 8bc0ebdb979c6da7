package dev.toolscout.indexing;

import java.util.List;

/**
 * The indexer contract (seed 003's {@code IndexerIntegration}): an indexer declares the events it subscribes to
 * and the types of entry it manages, and runs the pipeline extract (an event to the text to index) → embed (in
 * batches, cached by content hash and model id: {@link CachedEmbeddings}) → store → index, with delete and
 * search. Sources emit events and never call an embedder themselves.
 *
 * <p>The tool indexer ({@code events.ToolIndexer}), the skill index ({@code skills.SkillIndex}) and the git indexer
 * implement it; a memory indexer plugs in the same way. A router fans one query vector out to every indexer's
 * own search; each indexer keeps its search signature, since what a hit is (a tool ordinal, a skill, a commit's
 * change) differs. An index of content that is no tool (the git indexer's) implements {@link SearchableIndexer}, which
 * the router fans out to by that contract alone.
 *
 * <p>Implementations are thread-safe.
 */
public interface Indexer {
    /** A stable name, e.g. {@code indexer.tools}: logs, metrics and status name the indexer by it. */
    String name();

    /** The event types this indexer subscribes to, by the seed's names (e.g. {@code interface.registered}). */
    List<String> events();

    /** The types of entry it manages (e.g. {@code integration_index}); what a router fans out over. */
    List<String> managedTypes();

    /** Where its indexing stands: what /metrics and /readyz show. */
    Status status();

    /**
     * An indexer's progress.
     *
     * @param queued changes waiting in its queue (not yet searchable)
     * @param indexedVersion the source version every change up to which is searchable (-1 before the first)
     * @param sourceVersion the version of its source (the catalog's, say) durable in the store
     * @param lastError the last indexing failure since the last success, or {@code null}
     */
    record Status(int queued, long indexedVersion, long sourceVersion, String lastError) {
        /** Versions durable in the store but not yet searchable (0 when current). */
        public long lag() {
            return Math.max(0, sourceVersion - indexedVersion);
        }
    }
}
