package dev.toolscout.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.catalog.CatalogStore.StoredCatalog;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.state.StoreContract;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What every {@link CatalogStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class CatalogStoreContract extends StoreContract {
    // --- the catalog ---

    @Test
    void empty_store_has_version_zero_and_holds_nothing() {
        assertThat(store.catalogVersion()).isZero();
        assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(0, List.of()));
        assertThat(store.loadVectors(MODEL, List.of("h1"))).isEmpty();
        assertThat(store.loadPolicyJson()).isEmpty();
        assertThat(store.loadServers()).isEmpty();
    }

    @Test
    void the_tools_changed_since_a_version_include_every_tool_written_after_it() {
        long first = store.applyCatalogChange(List.of(tool("crm__a"), tool("crm__b")), List.of());
        store.applyCatalogChange(
                List.of(tool("crm__a").toBuilder().tags(List.of("changed")).build(), tool("crm__c")), List.of());

        // a store that keeps each tool's version names exactly these; the default (every stored tool) is a superset
        assertThat(store.toolsChangedSince(first))
                .contains("crm__a", "crm__c")
                .isSubsetOf("crm__a", "crm__b", "crm__c");
        assertThat(store.toolsChangedSince(first + 1)).isSubsetOf("crm__a", "crm__b", "crm__c");
    }

    @Test
    void apply_change_upserts_and_removes_in_one_step() {
        store.applyCatalogChange(List.of(tool("crm__a"), tool("crm__b"), tool("crm__c")), List.of());

        ToolSpec newA = tool("crm__a").toBuilder().tags(List.of("changed")).build();
        long version = store.applyCatalogChange(List.of(newA, tool("crm__d")), List.of("crm__b", "crm__c"));

        assertThat(version).isEqualTo(2);
        assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(2, List.of(newA, tool("crm__d"))));
    }

    @Test
    void removing_unknown_tools_is_ignored() {
        store.applyCatalogChange(List.of(tool("crm__a")), List.of());

        long version = store.applyCatalogChange(List.of(), List.of("crm__never_stored"));

        assertThat(version).isEqualTo(2);
        assertThat(names(store.loadCatalog())).containsExactly("crm__a");
    }

    @Test
    void change_that_upserts_and_removes_the_same_tool_is_rejected_and_writes_nothing() {
        store.applyCatalogChange(List.of(tool("crm__a")), List.of());

        assertThatThrownBy(() -> store.applyCatalogChange(List.of(tool("crm__b"), tool("crm__a")), List.of("crm__a")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'crm__a'");
        assertThatThrownBy(() -> store.applyCatalogChange(List.of(tool("crm__b"), tool("crm__b")), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'crm__b'");

        assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(1, List.of(tool("crm__a"))));
    }

    @Test
    void version_grows_by_one_per_change_even_an_empty_one() {
        List<Long> versions = new ArrayList<>();
        versions.add(store.applyCatalogChange(List.of(tool("crm__a")), List.of()));
        versions.add(store.applyCatalogChange(List.of(), List.of()));
        versions.add(store.applyCatalogChange(List.of(), List.of("crm__a")));

        assertThat(versions).containsExactly(1L, 2L, 3L);
        assertThat(store.catalogVersion()).isEqualTo(3);
        assertThat(store.loadCatalog().version()).isEqualTo(3);
    }

    @Test
    void upsert_replaces_the_tool_with_the_same_name() {
        store.applyCatalogChange(List.of(tool("crm__a")), List.of());
        ToolSpec changed = ToolSpec.builder("crm__a", "A new description")
                .aiAccess(AiAccess.BLOCKED)
                .build();

        store.applyCatalogChange(List.of(changed), List.of());

        assertThat(store.loadCatalog().tools()).containsExactly(changed);
    }

    @Test
    void tools_load_in_name_order() {
        List<String> names = new ArrayList<>(
                List.of("b__x", "a__y", "A__z", "a-b__c", "a_b__c", "a__y2", "a__Y", "Z9__q", "a__y-1"));
        Collections.shuffle(names, new Random(42));

        store.applyCatalogChange(names.stream().map(StoreContract::tool).toList(), List.of());

        assertThat(names(store.loadCatalog())).containsExactlyElementsOf(new TreeSet<>(names));
    }

    @Test
    void specs_round_trip_exactly() {
        ToolSpec rich = richTool();
        ToolSpec plain = tool("plain__tool");

        store.applyCatalogChange(List.of(rich, plain), List.of());
        List<ToolSpec> loaded = reopened().loadCatalog().tools();

        assertThat(loaded).containsExactly(rich, plain);
        ToolSpec back = loaded.get(0);
        assertThat(back.contentHash()).isEqualTo(rich.contentHash());
        // Equality of JSON objects ignores key order; the parameters' order is shown to the model, so check it.
        assertThat(back.parameterNames()).containsExactly("zeta", "address", "count", "ratio", "flags", "maybe");
        assertThat(ToolSpecJson.toJson(back).toString())
                .isEqualTo(ToolSpecJson.toJson(rich).toString());
    }

    @Test
    void readers_never_see_half_a_change() throws Exception {
        // Change i replaces tool n{i-1} by n{i}: a consistent snapshot at version v holds exactly step__n{v}.
        int changes = 60;
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        CountDownLatch readerStarted = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            readerStarted.countDown();
            do {
                StoredCatalog c = store.loadCatalog();
                List<String> expected = c.version() == 0 ? List.of() : List.of("step__n" + c.version());
                if (!names(c).equals(expected)) {
                    violations.add("version " + c.version() + " holds " + names(c));
                }
            } while (!done.get());
        });
        reader.start();
        readerStarted.await();
        try {
            for (int i = 1; i <= changes; i++) {
                List<String> removals = i == 1 ? List.of() : List.of("step__n" + (i - 1));
                store.applyCatalogChange(List.of(tool("step__n" + i)), removals);
            }
        } finally {
            done.set(true);
            reader.join();
        }

        assertThat(violations).isEmpty();
        assertThat(names(store.loadCatalog())).containsExactly("step__n" + changes);
    }

    @Test
    void concurrent_changes_each_get_their_own_version() throws Exception {
        int threads = 4;
        int perThread = 8;
        ConcurrentLinkedQueue<Long> versions = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            writers.add(new Thread(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        versions.add(store.applyCatalogChange(List.of(tool("w" + id + "__t" + i)), List.of()));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        writers.forEach(Thread::start);
        for (Thread w : writers) {
            w.join();
        }

        assertThat(failures).isEmpty();
        assertThat(versions)
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, threads * perThread)
                        .mapToObj(i -> (long) i)
                        .toList());
        assertThat(store.loadCatalog().tools()).hasSize(threads * perThread);
    }
}
