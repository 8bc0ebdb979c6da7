package dev.toolscout.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CatalogTest {
    @Test
    void first_tools_of_a_source_register_the_interface() {
        Fixture f = new Fixture();
        List<CatalogEvent> seen = new ArrayList<>();
        f.bus.subscribe(seen::addAll);
        f.catalog.apply(
                List.of(Fixture.tool("gmail__send", "Send mail."), Fixture.tool("gmail__list", "List mail.")),
                List.of());
        assertThat(seen).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo("interface.registered");
            assertThat(((CatalogEvent.InterfaceRegistered) e).tools()).hasSize(2);
        });
    }

    @Test
    void later_changes_are_action_events_and_the_last_removal_unregisters() {
        Fixture f = new Fixture();
        f.catalog.apply(
                List.of(Fixture.tool("gmail__send", "Send mail."), Fixture.tool("gmail__list", "List mail.")),
                List.of());
        List<String> types = new ArrayList<>();
        f.bus.subscribe(b -> b.forEach(e -> types.add(e.type())));
        f.catalog.upsert(Fixture.tool("gmail__draft", "Draft mail."));
        f.catalog.upsert(Fixture.tool("gmail__send", "Send an email."));
        f.catalog.remove("gmail__draft");
        f.catalog.apply(List.of(), List.of("gmail__send", "gmail__list"));
        assertThat(types)
                .containsExactly(
                        "interface.action_added",
                        "interface.action_updated",
                        "interface.action_removed",
                        "interface.unregistered");
    }

    @Test
    void unchanged_tools_are_skipped_and_never_embedded_again() {
        Fixture f = new Fixture();
        List<dev.toolscout.model.ToolSpec> tools = Fixture.assistantCatalog();
        f.catalog.sync(tools);
        long embedded = f.indexer.embeddedCount();
        long version = f.catalog.version();
        Catalog.Change again = f.catalog.sync(tools);
        assertThat(again.isEmpty()).isTrue();
        assertThat(f.catalog.version()).isEqualTo(version);
        assertThat(f.indexer.embeddedCount()).isEqualTo(embedded);
    }

    @Test
    void an_update_keeps_the_ordinal() {
        Fixture f = new Fixture();
        f.catalog.upsert(Fixture.tool("a__x", "First."));
        int ord = f.catalog.get("a__x").orElseThrow().ord();
        f.catalog.upsert(Fixture.tool("a__x", "Second."));
        assertThat(f.catalog.get("a__x").orElseThrow().ord()).isEqualTo(ord);
        assertThat(f.catalog.get("a__x").orElseThrow().spec().description()).isEqualTo("Second.");
    }

    @Test
    void a_restart_rebuilds_the_index_from_stored_vectors_without_embedding() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        // a new process: same store, empty index
        dev.toolscout.events.EventBus bus = new dev.toolscout.events.EventBus();
        dev.toolscout.indexing.ExactToolIndex index = new dev.toolscout.indexing.ExactToolIndex(256);
        Catalog reloaded = Catalog.load(f.store, bus, Map.of());
        dev.toolscout.indexing.ToolIndexer indexer =
                new dev.toolscout.indexing.ToolIndexer(f.store, index, f.model).attach(bus::subscribe);
        assertThat(indexer.rebuildIfStale(reloaded.snapshot())).isTrue();
        assertThat(indexer.embeddedCount()).isZero();
        assertThat(index.size()).isEqualTo(reloaded.size());
        assertThat(indexer.rebuildIfStale(reloaded.snapshot())).isFalse();
    }

    @Test
    void ordinal_hints_are_kept_on_load() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        Map<String, Integer> hints = Map.of("gmail__send_email", 40, "tasks__list", 3);
        Catalog reloaded = Catalog.load(f.store, new dev.toolscout.events.EventBus(), hints);
        assertThat(reloaded.get("gmail__send_email").orElseThrow().ord()).isEqualTo(40);
        assertThat(reloaded.get("tasks__list").orElseThrow().ord()).isEqualTo(3);
        assertThat(reloaded.snapshot().entries().stream()
                        .map(CatalogEntry::ord)
                        .distinct()
                        .count())
                .isEqualTo(reloaded.size());
    }

    @Test
    void a_tool_named_twice_in_one_change_is_an_error_naming_it() {
        Fixture f = new Fixture();
        assertThatThrownBy(() ->
                        f.catalog.apply(List.of(Fixture.tool("a__x", "One."), Fixture.tool("a__x", "Two.")), List.of()))
                .hasMessageContaining("'a__x'")
                .hasMessageContaining("twice");
        assertThat(f.catalog.size()).isZero();
    }

    @Test
    void a_failing_indexer_does_not_lose_the_stored_change() {
        Fixture f = new Fixture();
        f.bus.subscribe(b -> {
            throw new IllegalStateException("index disk full");
        });
        assertThatThrownBy(() -> f.catalog.upsert(Fixture.tool("a__x", "One.")))
                .hasMessageContaining("index disk full")
                .hasMessageContaining("the change itself is stored");
        assertThat(f.store.loadCatalog().tools()).extracting(t -> t.fullName()).containsExactly("a__x");
        assertThat(f.catalog.get("a__x")).isPresent();
    }

    @Test
    void a_large_change_is_stored_in_batches_and_a_write_arriving_meanwhile_waits_for_one_batch() throws Exception {
        Fixture f = new Fixture();
        int total = 3 * Catalog.WRITE_BATCH + 10;
        List<ToolSpec> bulk = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            bulk.add(Fixture.tool(String.format(java.util.Locale.ROOT, "bulk__op%04d", i), "Operation " + i + "."));
        }
        List<String> written = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch inFirstBatch = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        f.store.beforeCatalogChange = (upserts, removals) -> {
            written.add(upserts.get(0).name().source() + ":" + upserts.size());
            if (written.size() == 1) {
                inFirstBatch.countDown();
                await(release);
            }
        };
        Catalog.Change[] big = {null};
        Thread bulkWriter = Thread.ofPlatform()
                .start(() -> big[0] = f.catalog.sync(bulk, e -> e.name().startsWith("bulk__")));
        await(inFirstBatch);
        Catalog.Change[] small = {null};
        Thread smallWriter = Thread.ofPlatform()
                .start(() -> small[0] = f.catalog.upsert(Fixture.tool("other__ping", "Ping a host.")));
        while (smallWriter.getState() != Thread.State.WAITING) { // queued on the catalog's write lock
            Thread.onSpinWait();
        }
        release.countDown();
        bulkWriter.join();
        smallWriter.join();

        int b = Catalog.WRITE_BATCH;
        assertThat(written).containsExactly("bulk:" + b, "other:1", "bulk:" + b, "bulk:" + b, "bulk:10");
        assertThat(small[0].version()).isEqualTo(2);
        assertThat(big[0].version()).isEqualTo(5);
        assertThat(big[0].added()).isEqualTo(total);
        assertThat(big[0].events()).extracting(CatalogEvent::version).containsOnly(1L, 3L, 4L, 5L);
        assertThat(big[0].events().get(0).type()).isEqualTo("interface.registered");
        assertThat(f.catalog.size()).isEqualTo(total + 1);
        // read-your-write over every batch: the whole change is indexed
        f.catalog.awaitSearchable(big[0]);
        assertThat(f.index.ordinals()).hasSize(total + 1);
    }

    @Test
    void a_large_change_stopped_midway_keeps_what_it_kept_and_applying_it_again_completes_it() {
        Fixture f = new Fixture();
        f.catalog.apply(List.of(Fixture.tool("up__keep", "Kept."), Fixture.tool("up__drop", "Dropped.")), List.of());
        List<ToolSpec> listing = new ArrayList<>();
        listing.add(Fixture.tool("up__keep", "Kept."));
        for (int i = 0; i < 2 * Catalog.WRITE_BATCH; i++) {
            listing.add(Fixture.tool(String.format(java.util.Locale.ROOT, "up__new%04d", i), "New " + i + "."));
        }
        int[] calls = {0};
        f.store.beforeCatalogChange = (u, r) -> {
            if (++calls[0] == 2) {
                throw new IllegalStateException("disk full");
            }
        };
        java.util.function.Predicate<CatalogEntry> upstream =
                e -> e.spec().name().source().equals("up");
        try (LogCapture log = LogCapture.of(Catalog.class)) {
            assertThatThrownBy(() -> f.catalog.sync(listing, upstream)).hasMessageContaining("disk full");
            // the part stored is logged, with what to do about it
            assertThat(log.warnings())
                    .singleElement()
                    .asString()
                    .startsWith(
                            "a change of " + (2 * Catalog.WRITE_BATCH) + " upserts and 1 removals was stored in part"
                                    + " (1 batches of " + Catalog.WRITE_BATCH + " tools); applying it again");
        }
        // a reader sees the first batch and every tool the listing keeps; the removal comes last, so it is not done
        Catalog.Snapshot midway = f.catalog.snapshot();
        assertThat(midway.size()).isEqualTo(2 + Catalog.WRITE_BATCH);
        assertThat(midway.get("up__keep")).isNotNull();
        assertThat(midway.get("up__drop")).isNotNull();
        assertThat(f.store.loadCatalog().tools()).hasSize(2 + Catalog.WRITE_BATCH);

        f.store.beforeCatalogChange = (u, r) -> {};
        Catalog.Change again = f.catalog.sync(listing, upstream);
        assertThat(again.added()).as("only what the first try did not write").isEqualTo(Catalog.WRITE_BATCH);
        assertThat(again.removed()).isEqualTo(1);
        assertThat(f.catalog.snapshot().entries())
                .extracting(CatalogEntry::name)
                .containsExactlyInAnyOrderElementsOf(
                        listing.stream().map(ToolSpec::fullName).toList());
        assertThat(f.store.loadCatalog().tools()).hasSize(listing.size());
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting for the other writer");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
