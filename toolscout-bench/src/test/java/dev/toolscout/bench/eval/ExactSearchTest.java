package dev.toolscout.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExactSearchTest {
    @Test
    void returns_the_best_k_by_dot_product_best_first() {
        ExactSearch s = new ExactSearch(
                List.of("a", "b", "c", "d"),
                List.of(new float[] {1, 0}, new float[] {0, 1}, new float[] {0.8f, 0.6f}, new float[] {-1, 0}));
        assertThat(s.topK(new float[] {1, 0}, 2)).containsExactly(0, 2);
        assertThat(s.topK(new float[] {0, 1}, 10)).containsExactly(1, 2, 0, 3);
    }

    @Test
    void equal_scores_are_ordered_by_key() {
        ExactSearch s = new ExactSearch(
                List.of("t__zeta", "t__alpha", "t__mid"),
                List.of(new float[] {1, 0}, new float[] {1, 0}, new float[] {1, 0}));
        assertThat(s.topK(new float[] {1, 0}, 2)).containsExactly(1, 2);
    }

    @Test
    void vectors_of_different_lengths_are_rejected() {
        assertThatThrownBy(() -> new ExactSearch(List.of("a", "b"), List.of(new float[2], new float[3])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("vector 1 has length 3, expected 2");
    }
}
