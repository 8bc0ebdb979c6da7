package dev.toolscout.indexing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.catalog.SubscriberException;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.events.EventBus;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.InMemoryStateStore;
import dev.toolscout.testing.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ToolIndexerTest {
    /** The hashing model, held at the calls whose texts contain "bulk" until the test opens a gate. */
    private static final class GatedModel implements EmbeddingModel {
        final HashingEmbeddingModel inner = new HashingEmbeddingModel(256);
        final CountDownLatch firstBigBatch = new CountDownLatch(1);
        final CountDownLatch restOfBig = new CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicInteger bigCalls = new java.util.concurrent.atomic.AtomicInteger();
        volatile boolean fail;

        @Override
        public String modelId() {
            return inner.modelId();
        }

        @Override
        public int dimension() {
            return 256;
        }

        @Override
        public float[] embedQuery(String text) {
            return inner.embedQuery(text);
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            if (fail) {
                throw new IllegalStateException("model unavailable");
            }
            if (texts.stream().anyMatch(t -> t.contains("bulk"))) {
                await(bigCalls.incrementAndGet() == 1 ? firstBigBatch : restOfBig);
            }
            return inner.embedDocuments(texts);
        }

        private static void await(CountDownLatch l) {
            try {
                if (!l.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never opened the gate");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static List<ToolSpec> bulk(int n) {
        List<ToolSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Fixture.tool(String.format("big__t%04d", i), "A bulk tool number " + i + "."));
        }
        return out;
    }

    /**
     * An indexer started over a fresh store and catalog, the start's catch-up done: a change made after it is queued
     * as a change of its own (a slow start's catch-up would otherwise read it from the store whole).
     */
    private record Started(Catalog catalog, ToolIndexer indexer) implements AutoCloseable {
        static Started with(dev.toolscout.indexing.ToolIndex index, EmbeddingModel model) {
            InMemoryStateStore store = new InMemoryStateStore();
            EventBus bus = new EventBus();
            Catalog catalog = Catalog.load(store, bus, Map.of());
            ToolIndexer indexer = new ToolIndexer(store, index, model).attach(bus::subscribe);
            indexer.start(catalog, Duration.ofHours(1));
            indexer.awaitIndexed(catalog.version());
            return new Started(catalog, indexer);
        }

        @Override
        public void close() {
            indexer.close();
        }
    }

    @Test
    void a_small_change_is_searchable_while_a_large_earlier_one_is_still_being_embedded() {
        GatedModel model = new GatedModel();
        ExactToolIndex index = new ExactToolIndex(256);
        try (Started started = Started.with(index, model)) {
            Catalog catalog = started.catalog();
            ToolIndexer indexer = started.indexer();
            Catalog.Change big = catalog.sync(bulk(ToolIndexer.BATCH * 3));
            // acknowledged (durable and in the catalog) while its first batch is still held at the model
            assertThat(catalog.size()).isEqualTo(ToolIndexer.BATCH * 3);
            Catalog.Change small =
                    catalog.apply(List.of(Fixture.tool("other__ping", "Check that a host answers.")), List.of());
            model.firstBigBatch.countDown();
            indexer.awaitIndexed(small.version());
            assertThat(index.ordinals()).containsKey("other__ping");
            // the rest of the large change is still held: the small one went past it
            assertThat(index.ordinals()).doesNotContainKey("big__t0191");
            assertThat(indexer.status().queued()).isEqualTo(1);
            assertThat(indexer.status().lag()).isEqualTo(2);
            // the committed version stays below the large change: a crash now catches up from there
            assertThat(index.committedVersion()).isLessThan(big.version());
            model.restOfBig.countDown();
            indexer.awaitIndexed(big.version());
            assertThat(index.ordinals()).containsKeys("big__t0000", "big__t0191", "other__ping");
            indexer.awaitIndexed(small.version());
            assertThat(indexer.status().lag()).isZero();
            // committed once the queue runs empty (CommitPolicy.commitIdle)
            awaitCommitted(index, small.version());
        }
    }

    private static void awaitCommitted(dev.toolscout.indexing.ToolIndex index, long version) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (index.committedVersion() < version && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        assertThat(index.committedVersion()).isEqualTo(version);
    }

    @Test
    void a_registration_is_searchable_while_a_run_of_large_changes_before_it_is_still_being_indexed() {
        GatedModel model = new GatedModel();
        ExactToolIndex index = new ExactToolIndex(256);
        try (Started started = Started.with(index, model)) {
            Catalog catalog = started.catalog();
            ToolIndexer indexer = started.indexer();
            // a bulk load: several versions of WRITE_BATCH tools each, queued behind one another
            Catalog.Change big = catalog.apply(bulk(Catalog.WRITE_BATCH * 4), List.of());
            assertThat(big.events().stream().map(CatalogEvent::version).distinct())
                    .hasSize(4);
            Catalog.Change small =
                    catalog.apply(List.of(Fixture.tool("other__ping", "Check that a host answers.")), List.of());
            model.firstBigBatch.countDown();
            indexer.awaitIndexed(small.version());
            assertThat(index.ordinals()).containsKey("other__ping").doesNotContainKey("big__t1000");
            assertThat(indexer.status().lag()).isEqualTo(5);
            model.restOfBig.countDown();
            indexer.awaitIndexedThrough(small.version());
            assertThat(index.ordinals()).hasSize(Catalog.WRITE_BATCH * 4 + 1);
        }
    }

    @Test
    void waiting_through_a_version_waits_for_the_batches_its_small_last_batch_went_past() throws Exception {
        GatedModel model = new GatedModel();
        ExactToolIndex index = new ExactToolIndex(256);
        try (Started started = Started.with(index, model)) {
            Catalog catalog = started.catalog();
            ToolIndexer indexer = started.indexer();
            catalog.searchableBy(indexer::awaitIndexed, indexer::awaitIndexedThrough);
            // one sync written as two versions: 256 tools, then a last batch of 21 (at most SMALL: it may overtake)
            List<ToolSpec> tools = new ArrayList<>(bulk(Catalog.WRITE_BATCH));
            for (int i = 0; i < 21; i++) {
                tools.add(Fixture.tool(String.format("tail__t%02d", i), "A tool of the last batch, number " + i + "."));
            }
            Catalog.Change all = catalog.sync(tools);
            assertThat(all.events().stream().map(CatalogEvent::version).distinct())
                    .hasSize(2);
            model.firstBigBatch.countDown();
            // the last version alone is searchable while the first batch is still held at the model
            indexer.awaitIndexed(all.version());
            assertThat(index.ordinals()).containsKey("tail__t20").doesNotContainKey("big__t0200");
            java.util.concurrent.CompletableFuture<Void> through = java.util.concurrent.CompletableFuture.runAsync(
                    () -> catalog.awaitSearchableThrough(all.version()));
            Thread.sleep(200);
            assertThat(through).isNotDone();
            model.restOfBig.countDown();
            through.get(60, TimeUnit.SECONDS);
            assertThat(index.ordinals()).hasSize(Catalog.WRITE_BATCH + 21);
        }
    }

    /** An exact index that counts the compactions asked of it and when the last one was asked. */
    private static final class CompactionCountingIndex implements dev.toolscout.indexing.ToolIndex {
        final ExactToolIndex inner = new ExactToolIndex(256);
        final java.util.concurrent.atomic.AtomicInteger compactions = new java.util.concurrent.atomic.AtomicInteger();
        /** When the last write became searchable (a refresh or a commit that followed writes). */
        volatile long lastVisibleNanos;

        volatile long compactedNanos;
        volatile boolean written;

        @Override
        public void upsert(java.util.Collection<dev.toolscout.indexing.ToolDocument> docs) {
            inner.upsert(docs);
            written = true;
        }

        @Override
        public void remove(java.util.Collection<String> toolNames) {
            inner.remove(toolNames);
        }

        @Override
        public void clear() {
            inner.clear();
        }

        @Override
        public void commit(long catalogVersion) {
            inner.commit(catalogVersion);
            visible();
        }

        @Override
        public void refresh() {
            inner.refresh();
            visible();
        }

        private void visible() {
            if (written) {
                written = false;
                lastVisibleNanos = System.nanoTime();
            }
        }

        @Override
        public long committedVersion() {
            return inner.committedVersion();
        }

        @Override
        public boolean compact() {
            compactedNanos = System.nanoTime();
            compactions.incrementAndGet();
            return true;
        }

        @Override
        public int size() {
            return inner.size();
        }

        @Override
        public Map<String, Integer> ordinals() {
            return inner.ordinals();
        }

        @Override
        public List<dev.toolscout.indexing.Hit> lexical(
                String query, dev.toolscout.access.AllowedSet allowed, int limit) {
            return inner.lexical(query, allowed, limit);
        }

        @Override
        public List<dev.toolscout.indexing.Hit> dense(
                float[] vector, dev.toolscout.access.AllowedSet allowed, int limit) {
            return inner.dense(vector, allowed, limit);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @Test
    void the_index_is_asked_to_compact_once_the_queue_has_been_idle_a_while() throws Exception {
        CompactionCountingIndex index = new CompactionCountingIndex();
        try (Started started = Started.with(index, new HashingEmbeddingModel(256))) {
            Catalog catalog = started.catalog();
            ToolIndexer indexer = started.indexer();
            Catalog.Change c = catalog.sync(bulk(10));
            indexer.awaitIndexedThrough(c.version());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (index.compactions.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(index.compactions.get()).isEqualTo(1);
            assertThat(index.compactedNanos - index.lastVisibleNanos)
                    .isGreaterThanOrEqualTo(ToolIndexer.COMPACT_AFTER_IDLE.toNanos());
            // nothing changed since: not asked again
            Thread.sleep(ToolIndexer.COMPACT_AFTER_IDLE.toMillis() + 500);
            assertThat(index.compactions.get()).isEqualTo(1);
        }
    }

    @Test
    void changes_to_the_same_tool_keep_their_order() {
        InMemoryStateStore store = new InMemoryStateStore();
        EventBus bus = new EventBus();
        GatedModel model = new GatedModel();
        ExactToolIndex index = new ExactToolIndex(256);
        Catalog catalog = Catalog.load(store, bus, Map.of());
        try (ToolIndexer indexer = new ToolIndexer(store, index, model).attach(bus::subscribe)) {
            indexer.start(catalog, Duration.ofHours(1));
            catalog.sync(bulk(ToolIndexer.BATCH * 2));
            // removes a tool of the large change: it must wait for it, not overtake it
            Catalog.Change removal = catalog.remove("big__t0100");
            model.firstBigBatch.countDown();
            model.restOfBig.countDown();
            indexer.awaitIndexed(removal.version());
            assertThat(index.ordinals()).doesNotContainKey("big__t0100").containsKey("big__t0101");
        }
    }

    @Test
    void a_start_catches_up_from_the_store_embedding_only_what_has_no_stored_vector() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        long indexedAt = f.catalog.version();
        ExactToolIndex index = f.index;
        Catalog.Snapshot before = f.catalog.snapshot();
        String removed = before.entries().get(0).name();
        String updated = before.entries().get(1).name();
        // changes the index never saw (a crash before they were indexed): one added, one updated, one removed
        f.store.applyCatalogChange(
                List.of(
                        Fixture.tool("late__added", "Added after the index's last commit."),
                        Fixture.tool(updated, "Rewritten while the index was not looking.")),
                List.of(removed));
        assertThat(index.committedVersion()).isEqualTo(indexedAt);

        EventBus bus = new EventBus();
        Catalog reloaded = Catalog.load(f.store, bus, index.ordinals());
        try (ToolIndexer indexer =
                new ToolIndexer(f.store, index, new HashingEmbeddingModel(256)).attach(bus::subscribe)) {
            indexer.start(reloaded, Duration.ofHours(1));
            indexer.awaitIndexed(reloaded.version());
            assertThat(index.ordinals()).containsKey("late__added").doesNotContainKey(removed);
            assertThat(index.ordinals().keySet())
                    .isEqualTo(reloaded.snapshot().entries().stream()
                            .map(e -> e.name())
                            .collect(java.util.stream.Collectors.toSet()));
            assertThat(index.committedVersion()).isEqualTo(reloaded.version());
            // two new texts; every other tool's vector was stored
            assertThat(indexer.embeddedCount()).isEqualTo(2);
        }
    }

    @Test
    void a_failed_change_is_reported_to_its_waiter_and_caught_up_from_the_store() {
        GatedModel model = new GatedModel();
        ExactToolIndex index = new ExactToolIndex(256);
        try (LogCapture log = LogCapture.of(ToolIndexer.class);
                Started started = Started.with(index, model)) {
            Catalog catalog = started.catalog();
            ToolIndexer indexer = started.indexer();
            model.fail = true;
            Catalog.Change c = catalog.upsert(Fixture.tool("mail__send", "Send an email."));
            assertThatThrownBy(() -> indexer.awaitIndexed(c.version()))
                    .isInstanceOf(SubscriberException.class)
                    .hasMessageContaining("catalog version " + c.version())
                    .hasMessageContaining("model unavailable");
            assertThat(catalog.get("mail__send")).isPresent();
            assertThat(indexer.status().lastError()).contains("model unavailable");
            model.fail = false;
            indexer.awaitCurrent();
            assertThat(index.ordinals()).containsKey("mail__send");
            assertThat(indexer.status().lastError()).isNull();
            assertThat(indexer.status().lag()).isZero();
            assertThat(log.warnings())
                    .containsExactly("indexing catalog version " + c.version() + " (1 tools) failed; the change is"
                            + " stored, and the index catches up from the store"
                            + " [java.lang.IllegalStateException: model unavailable]");
        }
    }

    @Test
    void reindex_rebuilds_from_stored_vectors_without_embedding() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        EventBus bus = new EventBus();
        ExactToolIndex index = new ExactToolIndex(256);
        Catalog reloaded = Catalog.load(f.store, bus, Map.of());
        try (ToolIndexer indexer =
                new ToolIndexer(f.store, index, new HashingEmbeddingModel(256)).attach(bus::subscribe)) {
            indexer.start(reloaded, Duration.ofHours(1));
            indexer.reindex();
            assertThat(index.size()).isEqualTo(reloaded.size());
            assertThat(indexer.embeddedCount()).isZero();
        }
    }
}
