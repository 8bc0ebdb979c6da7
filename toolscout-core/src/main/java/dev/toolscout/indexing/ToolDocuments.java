package dev.toolscout.indexing;

import dev.toolscout.catalog.CatalogEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;
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

    /** One change written to the index and not yet searchable: its stages so far. */
    record Written(
            long version,
            int tools,
            long queuedNanos,
            long startNanos,
            long vectorsNanos,
            long writtenNanos,
            long embedded) {}

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
        // the texts' hashes, the documents' fields (parameter text from the JSON schema) and the definitions' token
        // counts on every core for a bulk load's batches: the indexer's one thread is what a load waits for
        IntStream range = IntStream.range(0, entries.size());
        if (entries.size() >= 32) {
            range = range.parallel();
        }
        return range.mapToObj(i -> {
                    CatalogEntry e = entries.get(i);
                    if (counts != null) {
                        counts.count(e);
                    }
                    return ToolDocument.of(e.ord(), e.spec(), vectors.get(CachedEmbeddings.hash(texts.get(i))));
                })
                .toList();
    }

    /** Called with each change's stages from {@link #searchable}; it must be quick. */
    void onIndexed(Consumer<IndexedChange> listener) {
        this.onIndexed = listener == null ? c -> {} : listener;
    }

    /** Starts timing one change's stages (the indexer's worker, before it indexes the change). */
    void begin() {
        startNanos = System.nanoTime();
        embeddedBefore = embeddings.embeddedCount();
        vectorsNanos = 0;
    }

    /** The stages of the change timed since {@link #begin}, its documents written now. */
    Written written(long version, int tools, long queuedNanos) {
        return new Written(
                version,
                tools,
                queuedNanos,
                startNanos,
                vectorsNanos,
                System.nanoTime(),
                embeddings.embeddedCount() - embeddedBefore);
    }

    /**
     * Tells the listener the stages of a change that is searchable now (a listener's failure is logged: the change is
     * searchable whatever it does).
     */
    void searchable(Written w) {
        IndexedChange c = new IndexedChange(
                w.version(),
                w.tools(),
                w.startNanos() - w.queuedNanos(),
                w.vectorsNanos(),
                w.writtenNanos() - w.startNanos() - w.vectorsNanos(),
                System.nanoTime() - w.writtenNanos(),
                w.embedded());
        try {
            onIndexed.accept(c);
        } catch (RuntimeException e) {
            LOG.warn("a listener of indexed changes failed (the change is searchable): {}", e.toString());
        }
    }
}
