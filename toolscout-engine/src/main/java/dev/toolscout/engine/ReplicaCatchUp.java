package dev.toolscout.engine;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How this replica caught up with one catalog change another replica made, stage by stage ({@link
 * Maintenance#onReplicaCatchUp}; the server shows them in {@code /metrics} as {@code
 * toolscout_replica_catchup_seconds}, by {@code stage}). The stages follow one another; what is left between them
 * (a hand-over from one thread to the next) is in {@code total} only.
 *
 * @param version the catalog version the change brought the catalog to
 * @param tools the tools it added, changed or removed
 * @param delivery from the writer appending the change to the log (by its clock, just before its commit) until this
 *     replica began reading the log (by this one's clock: the two are one clock only on one host): the commit,
 *     {@code NOTIFY}'s delivery, and any wait for the change feed's thread to finish what it was doing
 * @param logRead reading the change log
 * @param storeRead reading the changed tools from the store
 * @param queue waiting in the tool indexer's queue
 * @param vectors reading the tools' stored vectors (and embedding the texts with none: see {@code embedded})
 * @param indexWrite writing the documents into the search index
 * @param refresh from the documents written until they are searchable
 * @param total from the writer's append until searchable here (both clocks, as {@code delivery})
 * @param embedded texts this replica sent to the embedding model for the change: 0 when the writer stored the vectors
 */
public record ReplicaCatchUp(
        long version,
        int tools,
        Duration delivery,
        Duration logRead,
        Duration storeRead,
        Duration queue,
        Duration vectors,
        Duration indexWrite,
        Duration refresh,
        Duration total,
        long embedded) {

    /** The stages by name ({@code delivery}, {@code log_read}, ..., {@code total}), in order. */
    public Map<String, Duration> stages() {
        Map<String, Duration> m = new LinkedHashMap<>();
        m.put("delivery", delivery);
        m.put("log_read", logRead);
        m.put("store_read", storeRead);
        m.put("queue", queue);
        m.put("vectors", vectors);
        m.put("index_write", indexWrite);
        m.put("refresh", refresh);
        m.put("total", total);
        return m;
    }
}
