package dev.toolscout.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.state.StoreContract;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What every {@link VectorStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class VectorStoreContract extends StoreContract {
    // --- vectors ---

    @Test
    void vectors_round_trip_bit_exactly() {
        float[] edgy = {
            0f,
            -0f,
            Float.MIN_VALUE,
            -Float.MIN_VALUE,
            Float.MIN_NORMAL,
            Float.MAX_VALUE,
            -Float.MAX_VALUE,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            Float.NaN,
            1f / 3f,
            (float) Math.PI,
            1e-30f,
            -7.5f
        };
        float[] random = randomVector(new Random(7), 384);
        float[] single = {0.5f};

        store.saveVectors(MODEL, Map.of("edgy", edgy, "random", random, "single", single));
        Map<String, float[]> loaded = reopened().loadVectors(MODEL, List.of("edgy", "random", "single"));

        assertThat(loaded).containsOnlyKeys("edgy", "random", "single");
        assertThat(rawBits(loaded.get("edgy"))).containsExactly(rawBits(edgy));
        assertThat(rawBits(loaded.get("random"))).containsExactly(rawBits(random));
        assertThat(rawBits(loaded.get("single"))).containsExactly(rawBits(single));
    }

    @Test
    void saved_vector_is_not_changed_by_later_writes_to_the_caller_array() {
        float[] v = {1f, 2f, 3f};
        store.saveVectors(MODEL, Map.of("h", v));

        v[0] = 99f;

        assertThat(store.loadVectors(MODEL, List.of("h")).get("h")).containsExactly(1f, 2f, 3f);
    }

    @Test
    void vectors_of_another_model_are_not_returned() {
        store.saveVectors("model-a", Map.of("shared", new float[] {1f, 2f}, "only-a", new float[] {3f}));
        store.saveVectors("model-b", Map.of("shared", new float[] {9f, 8f, 7f}));

        Map<String, float[]> forB = store.loadVectors("model-b", List.of("shared", "only-a"));

        assertThat(forB).containsOnlyKeys("shared");
        assertThat(forB.get("shared")).containsExactly(9f, 8f, 7f);
        assertThat(store.loadVectors("model-a", List.of("shared")).get("shared"))
                .containsExactly(1f, 2f);
    }

    @Test
    void saving_a_vector_again_replaces_it() {
        store.saveVectors(MODEL, Map.of("h", new float[] {1f, 2f}));

        store.saveVectors(MODEL, Map.of("h", new float[] {3f, 4f, 5f}));

        assertThat(store.loadVectors(MODEL, List.of("h")).get("h")).containsExactly(3f, 4f, 5f);
    }

    @Test
    void loading_many_vectors_returns_exactly_the_stored_ones() {
        // More hashes than fit one query, with unknown and repeated ones mixed in.
        Random random = new Random(11);
        Map<String, float[]> stored = new LinkedHashMap<>();
        for (int i = 0; i < 1234; i++) {
            stored.put("hash-" + i, randomVector(random, 8));
        }
        store.saveVectors(MODEL, stored);
        List<String> asked = new ArrayList<>(stored.keySet());
        IntStream.range(0, 700).forEach(i -> asked.add("missing-" + i));
        asked.addAll(List.of("hash-0", "hash-1233"));
        Collections.shuffle(asked, random);

        Map<String, float[]> loaded = store.loadVectors(MODEL, asked);

        assertThat(loaded).containsOnlyKeys(stored.keySet());
        stored.forEach((hash, v) -> assertThat(loaded.get(hash)).as(hash).containsExactly(v));
    }

    @Test
    void loading_no_hashes_returns_nothing() {
        store.saveVectors(MODEL, Map.of("h", new float[] {1f}));

        assertThat(store.loadVectors(MODEL, List.of())).isEmpty();
    }
}
