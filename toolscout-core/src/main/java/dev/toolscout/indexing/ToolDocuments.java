package dev.toolscout.indexing;

import dev.toolscout.catalog.CatalogEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search documents of catalog entries for the tool indexer: each tool's text, its vector (stored, or embedded
 * when the store has none: {@link CachedEmbeddings}) and, when counting, its tokens; and the stages of the change being
 * indexed ({@link IndexedChange}: the time spent getting the vectors among them).
 *
 * <p>Not thread-safe: used by the indexer's one worker (or, with no worker, by the one thread that indexes).
 */
final class ToolDocuments {
    private static final Logger LOG = LoggerFactory.getLogger(ToolDocuments.class);
    private final CachedEmbeddings embeddings;
    private volatile Consumer<IndexedChange> onIndexed = c -> {};
    private long vectorsNanos;
    private long startNanos;
    private long embeddedBefore;

    ToolDocuments(CachedEmbeddings embeddings) {
        this.embeddings = embeddings;
    }

    /** The documents of {@code entries}, embedding the texts that have no stored vector for this model. */
    List<ToolDocument> of(List<CatalogEntry> entries, int doneBefore, IntConsumer progress, TokenCounts counts) {
        List<String> texts = new ArrayList<>(entries.size());
        for (CatalogEntry e : entries) {
            texts.add(ToolText.embeddingText(e.spec()));
        }
        long t0 = System.nanoTime();
        Map<String, float[]> vectors = embeddings.vectors(texts, n -> progress.accept(doneBefore + n));
        vectorsNanos += System.nanoTime() - t0;
        if (counts != null) {
            counts.count(entries);
        }
        List<ToolDocument> docs = new ArrayList<>(entries.size());
        Map<String, String> hashes = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String h = hashes.computeIfAbsent(texts.get(i), CachedEmbeddings::hash);
            docs.add(ToolDocument.of(entries.get(i).ord(), entries.get(i).spec(), vectors.get(h)));
        }
        return docs;
    }

    /** Called with each change's stages from {@link #end}; it must be quick. */
    void onIndexed(Consumer<IndexedChange> listener) {
        this.onIndexed = listener == null ? c -> {} : listener;
    }

    /** Starts timing one change's stages (the indexer's worker, before it indexes the change). */
    void begin() {
        startNanos = System.nanoTime();
        embeddedBefore = embeddings.embeddedCount();
        vectorsNanos = 0;
    }

    /**
     * Tells the listener the stages of the change timed since {@link #begin}, searchable now (a listener's failure is
     * logged: the change is searchable whatever it does).
     *
     * @param queuedNanos when it was queued ({@link System#nanoTime})
     * @param writtenNanos when its documents were written
     */
    void end(long version, int tools, long queuedNanos, long writtenNanos) {
        IndexedChange c = new IndexedChange(
                version,
                tools,
                startNanos - queuedNanos,
                vectorsNanos,
                writtenNanos - startNanos - vectorsNanos,
                System.nanoTime() - writtenNanos,
                embeddings.embeddedCount() - embeddedBefore);
        try {
            onIndexed.accept(c);
        } catch (RuntimeException e) {
            LOG.warn("a listener of indexed changes failed (the change is searchable): {}", e.toString());
        }
    }
}
