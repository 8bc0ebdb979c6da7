package dev.toolscout.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.memory.MemoryStore.StoredMemory;
import dev.toolscout.state.StoreContract;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link MemoryStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class MemoryStoreContract extends StoreContract {
    // --- memories ---

    @Test
    void memories_round_trip_with_their_vectors_in_id_order_and_survive_reopen() {
        StoredMemory b = memory("mem_b", "bob", "{\"content\":\"Bob's dog is called Rex ✓\"}");
        StoredMemory a = new StoredMemory("mem_a", "space", "team", "{\"content\":\"no vector yet\"}", null, null);

        store.saveMemory(b);
        store.saveMemory(a);

        for (List<StoredMemory> loaded :
                List.of(store.loadMemories(), reopened().loadMemories())) {
            assertThat(loaded).extracting(StoredMemory::id).containsExactly("mem_a", "mem_b");
            assertThat(loaded.get(0).vector()).isNull();
            assertThat(loaded.get(0).modelId()).isNull();
            assertThat(loaded.get(0).scope()).isEqualTo("space");
            assertThat(loaded.get(1).json()).isEqualTo(b.json());
            assertThat(loaded.get(1).owner()).isEqualTo("bob");
            assertThat(loaded.get(1).modelId()).isEqualTo(MODEL);
            assertThat(loaded.get(1).vector()).containsExactly(0.6f, -0.8f, 0f);
        }
    }

    @Test
    void saving_a_memory_again_replaces_it_and_delete_removes_it_for_good() {
        store.saveMemory(memory("mem_a", "ann", "{\"v\":1}"));
        store.saveMemory(memory("mem_a", "ann", "{\"v\":2}"));

        assertThat(store.loadMemories()).extracting(StoredMemory::json).containsExactly("{\"v\":2}");
        assertThat(store.deleteMemory("mem_a")).isTrue();
        assertThat(store.deleteMemory("mem_a")).isFalse();
        assertThat(store.loadMemories()).isEmpty();
        assertThat(reopened().loadMemories()).isEmpty();
    }

    @Test
    void memories_are_kept_apart_from_the_catalog_vectors_and_skills() {
        store.saveMemory(memory("mem_a", "ann", "{}"));

        assertThat(store.loadCatalog().tools()).isEmpty();
        assertThat(store.loadSkills()).isEmpty();
        assertThat(store.loadVectors(MODEL, List.of("mem_a"))).isEmpty();
    }
}
