package dev.toolscout.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.Fixture;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.events.EventBus;
import dev.toolscout.indexing.CommitPolicy;
import dev.toolscout.indexing.HashingEmbeddingModel;
import dev.toolscout.indexing.ToolIndexer;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.InMemoryStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool indexer over a Lucene index on disk with commits far apart ({@link CommitPolicy}): what it writes is
 * searchable before it is committed, and a process that dies before the commit loses nothing, since the next start
 * catches up from the store (with the stored vectors: nothing embedded again).
 */
class LuceneIndexCommitsTest {
    private static final int DIM = 64;
    /** Commits only on close: every write in these tests stays uncommitted until then. */
    private static final CommitPolicy NO_COMMITS =
            new CommitPolicy(Duration.ofMillis(100), Integer.MAX_VALUE, Duration.ofHours(1), Duration.ofHours(1));

    @TempDir
    Path dir;

    private static List<ToolSpec> tools(String source, int n) {
        List<ToolSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Fixture.tool(String.format("%s__tool%04d", source, i), "Tool number " + i + " of " + source + "."));
        }
        return out;
    }

    @Test
    void writes_are_searchable_before_their_commit_and_a_crash_before_it_is_caught_up_from_the_store()
            throws IOException {
        InMemoryStateStore store = new InMemoryStateStore(); // the durable store: it outlives the "crash"
        Path live = dir.resolve("index");
        Path crashed = dir.resolve("index-after-crash");
        long version;
        long embedded;
        try (LuceneToolIndex index = LuceneToolIndex.open(live, DIM)) {
            EventBus bus = new EventBus();
            Catalog catalog = Catalog.load(store, bus, Map.of());
            try (ToolIndexer indexer = new ToolIndexer(store, index, new HashingEmbeddingModel(DIM))
                    .commitPolicy(NO_COMMITS)
                    .attach(bus::subscribe)) {
                indexer.start(catalog, Duration.ofHours(1));
                indexer.awaitCurrent(); // the start's catch-up, committed at version 0
                long startCommit = index.committedVersion();
                catalog.searchableBy(indexer::awaitIndexed, indexer::awaitIndexedThrough);
                // a large change (several versions) and a registration after it, each acknowledged once stored
                catalog.awaitSearchable(catalog.apply(tools("bulk", 3 * Catalog.WRITE_BATCH + 7), List.of()));
                Catalog.Change small = catalog.awaitSearchable(
                        catalog.upsert(Fixture.tool("ping__check_host", "Check that a host answers to ping.")));
                version = small.version();
                indexer.awaitIndexedThrough(version);

                // searchable (a near-real-time refresh), not committed
                assertThat(index.size()).isEqualTo(catalog.size());
                assertThat(index.lexical("ping host", all(catalog.snapshot().universe()), 3))
                        .extracting(h -> catalog.snapshot().byOrd(h.ord()).name())
                        .first()
                        .isEqualTo("ping__check_host");
                assertThat(index.committedVersion()).isEqualTo(startCommit).isLessThan(version);
                assertThat(LuceneToolIndex.committedVersion(live)).isEqualTo(startCommit);
                embedded = indexer.embeddedCount();

                // the crash: the index directory as it is on disk now, before any commit of these writes
                copy(live, crashed);
            }
            // an orderly close commits what was indexed
            assertThat(LuceneToolIndex.committedVersion(live)).isEqualTo(version);
        }
        assertThat(embedded).isEqualTo(3 * Catalog.WRITE_BATCH + 8);

        // the start after the crash: the index holds only its last commit, and catches up from the store
        try (LuceneToolIndex index = LuceneToolIndex.open(crashed, DIM)) {
            assertThat(index.committedVersion()).isLessThan(version);
            assertThat(index.size()).isZero();
            EventBus bus = new EventBus();
            Catalog catalog = Catalog.load(store, bus, index.ordinals());
            try (ToolIndexer indexer =
                    new ToolIndexer(store, index, new HashingEmbeddingModel(DIM)).attach(bus::subscribe)) {
                indexer.start(catalog, Duration.ofHours(1));
                indexer.awaitCurrent();
                Map<String, Integer> ords = new HashMap<>();
                for (CatalogEntry e : catalog.snapshot().entries()) {
                    ords.put(e.name(), e.ord());
                }
                assertThat(index.ordinals()).isEqualTo(ords);
                assertThat(index.committedVersion()).isEqualTo(version);
                assertThat(indexer.embeddedCount())
                        .as("every vector came from the store")
                        .isZero();
            }
        }
    }

    @Test
    void a_run_of_large_changes_is_committed_every_commit_docs_documents() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (LuceneToolIndex index = LuceneToolIndex.open(dir.resolve("index"), DIM)) {
            EventBus bus = new EventBus();
            Catalog catalog = Catalog.load(store, bus, Map.of());
            try (ToolIndexer indexer = new ToolIndexer(store, index, new HashingEmbeddingModel(DIM))
                    .commitPolicy(new CommitPolicy(
                            Duration.ofHours(1), Catalog.WRITE_BATCH, Duration.ofHours(1), Duration.ofHours(1)))
                    .attach(bus::subscribe)) {
                indexer.start(catalog, Duration.ofHours(1));
                indexer.awaitCurrent();
                Catalog.Change big = catalog.apply(tools("bulk", 4 * Catalog.WRITE_BATCH), List.of());
                indexer.awaitIndexedThrough(big.version());
                // nothing is idle for an hour and no hour passes: only the documents written commit it
                awaitCommitted(index, big.version());
            }
        }
    }

    private static AllowedSet all(int universe) {
        java.util.BitSet bits = new java.util.BitSet();
        bits.set(0, universe);
        return AllowedSet.of(bits, universe);
    }

    private static void awaitCommitted(LuceneToolIndex index, long version) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (index.committedVersion() < version && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
        }
        assertThat(index.committedVersion()).isEqualTo(version);
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals("write.lock")) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
    }
}
