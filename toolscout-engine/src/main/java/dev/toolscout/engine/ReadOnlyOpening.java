package dev.toolscout.engine;

import dev.toolscout.catalog.CatalogStore;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.lucene.LuceneToolIndex;
import dev.toolscout.store.SqliteStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a data directory for reading only ({@link Engine.Options#readOnly}), beside a process that may hold and
 * write it: the store through SQLite's read-only connection, and the search index that holds exactly the
 * stored catalog. Takes no lock, runs no migration, writes nothing and embeds no tool.
 *
 * <p>The index: the committed Lucene index of the model, opened with a plain reader, when its commit records
 * the store's catalog version (the writer commits the index as soon as its queue runs empty after a change,
 * {@code CommitPolicy}, so this is the usual case; it opens about as fast as a writing engine). When the index is ahead of the catalog read (the writer
 * changed both since), the catalog is read again. When it is behind (the writer is still embedding and
 * indexing a change), this waits up to {@link #CATCH_UP} for the writer to commit it, checking the commit point
 * every {@link #POLL}. Only when none catches up, or the index is missing or damaged, is one built in memory
 * from the vectors in the store: about 25 s at 10k tools on two loaded cores, against 2.5 s for the committed
 * one (docs/USAGE.md has the figures and their commands). A tool with no stored vector for the model is then an error, since a
 * read-only opening embeds nothing. Not thread-safe; used once, by the engine's constructor.
 */
final class ReadOnlyOpening {
    private static final Logger LOG = LoggerFactory.getLogger(ReadOnlyOpening.class);

    /**
     * How long to wait for a writer to commit the index of a change it stored. Generous, since the writer embeds
     * the change's tools first (about 300 a second) and the alternative, an index built in memory, takes longer
     * at 10k tools.
     */
    static final Duration CATCH_UP = Duration.ofSeconds(10);

    /** How often the index's commit point is read while waiting (one small file). */
    static final Duration POLL = Duration.ofMillis(100);

    /** The store, the catalog read from it, and an index of exactly that catalog (or an empty one to build). */
    record Opened(
            SqliteStateStore store, CatalogStore.StoredCatalog stored, LuceneToolIndex index, boolean persisted) {}

    private ReadOnlyOpening() {}

    /**
     * Opens the store and matches an index to it.
     *
     * @return with {@code persisted} false, an empty in-memory index the caller fills from the stored vectors
     *     (with {@link #storedVectorsOnly}) once the catalog has its ordinals
     * @throws IllegalArgumentException when the directory holds no store
     * @throws IllegalStateException when the store's schema is not this code's
     */
    static Opened open(Path dataDir, Path indexDir, int dimension) {
        Path db = dataDir.resolve("state.db");
        if (!Files.isRegularFile(db)) {
            throw new IllegalArgumentException("no ToolScout data directory at " + dataDir + " (it holds no state.db); "
                    + "a read-only opening reads an existing one and creates nothing");
        }
        long start = System.nanoTime();
        long deadline = start + CATCH_UP.toNanos();
        // the first index opens (and its checksums are read) while the catalog loads, as a writing engine does
        CompletableFuture<Optional<LuceneToolIndex>> first = CompletableFuture.supplyAsync(
                () -> index(indexDir, dimension),
                r -> Thread.ofVirtual().name("index-open").start(r));
        SqliteStateStore s = null;
        try {
            s = SqliteStateStore.openReadOnly(db);
            CatalogStore.StoredCatalog stored = s.loadCatalog();
            long loaded = System.nanoTime();
            while (true) {
                Optional<LuceneToolIndex> opened = first != null ? first.join() : index(indexDir, dimension);
                if (first != null) {
                    LOG.debug(
                            "read-only: catalog of {} tools loaded in {} ms, waited {} ms more for the index",
                            stored.tools().size(),
                            (loaded - start) / 1_000_000,
                            (System.nanoTime() - loaded) / 1_000_000);
                    first = null;
                }
                if (opened.isEmpty()) {
                    break;
                }
                LuceneToolIndex idx = opened.get();
                long committed = idx.committedVersion();
                if (committed == stored.version()
                        && idx.size() == stored.tools().size()) {
                    return new Opened(s, stored, idx, true);
                }
                idx.close();
                // another document layout, or the same version with other tools (a damaged index): only a writer fixes
                // these; behind: the writer stored a change and is indexing it (or no writer will: hence the deadline);
                // ahead: the writer committed a change after the catalog was read
                boolean usable = committed >= 0
                        && committed != stored.version()
                        && (committed > stored.version() || awaitCommit(indexDir, stored.version(), deadline))
                        && System.nanoTime() < deadline;
                if (!usable) {
                    LOG.debug(
                            "the search index at {} is at catalog version {}, the store at {}: building one in memory",
                            indexDir,
                            committed,
                            stored.version());
                    break;
                }
                stored = s.loadCatalog();
            }
            return new Opened(s, stored, LuceneToolIndex.inMemory(dimension), false);
        } catch (RuntimeException | Error e) {
            if (first != null) {
                // the store failed first: close what the index open made (index() reports its own failures as empty)
                first.join().ifPresent(LuceneToolIndex::close);
            }
            if (s != null) {
                s.close();
            }
            throw e;
        }
    }

    /**
     * Waits until the index's commit records catalog version {@code version} or later; false at the deadline.
     * Returns at once when it does already (the index is ahead of the catalog read).
     */
    private static boolean awaitCommit(Path indexDir, long version, long deadline) {
        while (LuceneToolIndex.committedVersion(indexDir) < version) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** The committed index of the model, or empty when there is none or it cannot be read (logged). */
    private static Optional<LuceneToolIndex> index(Path dir, int dimension) {
        try {
            Optional<LuceneToolIndex> idx = LuceneToolIndex.openReadOnly(dir, dimension);
            if (idx.isPresent()) {
                try {
                    idx.get().checkIntegrity();
                } catch (RuntimeException e) {
                    idx.get().close();
                    throw e;
                }
            }
            return idx;
        } catch (RuntimeException e) {
            // the writable opening would delete and rebuild it; this one leaves it to the writer
            LOG.warn(
                    "the search index at {} cannot be used ({}); building one in memory from the store",
                    dir,
                    e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * {@code model} for queries, refusing to embed documents: an index built by a read-only engine takes every
     * tool's vector from the store.
     */
    static EmbeddingModel storedVectorsOnly(EmbeddingModel model, Path dataDir) {
        return new EmbeddingModel() {
            @Override
            public String modelId() {
                return model.modelId();
            }

            @Override
            public int dimension() {
                return model.dimension();
            }

            @Override
            public float[] embedQuery(String text) {
                return model.embedQuery(text);
            }

            @Override
            public List<float[]> embedQueries(String message, List<String> clauses) {
                return model.embedQueries(message, clauses);
            }

            // a message's document vector (the router's) is a query-time vector, never stored: allowed here
            @Override
            public dev.toolscout.embedding.MessageVectors embedMessage(String message, List<String> clauses) {
                return model.embedMessage(message, clauses);
            }

            @Override
            public List<float[]> embedDocuments(List<String> texts) {
                throw new IllegalStateException("data directory " + dataDir + " holds tools with no stored vector of "
                        + "model '" + model.modelId() + "' (at least " + texts.size()
                        + "), and a read-only opening embeds "
                        + "nothing: retry once the process that holds the directory has indexed them, or open it for writing "
                        + "with this model when no other process holds it");
            }
        };
    }
}
