package dev.toolscout.bench.frameworks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Known ranks give known figures: toolscout-eval's metrics, averaged over queries in percent. */
class TallyTest {
    @Test
    void known_ranks_give_known_recall_ndcg_completeness_and_mean_tokens() {
        Tally t = new Tally("x");
        // query 1: both gold tools, at ranks 1 and 2: everything found, ideal order
        t.add(List.of("a", "b", "c"), List.of(Set.of("a"), Set.of("b")), 100);
        // query 2: one of two gold tools, at rank 3; the other at rank 7 (beyond 5, within 10)
        t.add(List.of("x", "y", "g1", "z", "w", "v", "g2"), List.of(Set.of("g1"), Set.of("g2")), 50);
        // query 3: an any-of step (either tool serves it) found at rank 2, nothing else returned, no gold at all found
        // for its second step
        t.add(List.of("q", "alt"), List.of(Set.of("main", "alt"), Set.of("missing")), 0);
        // query 4: nothing returned
        t.add(List.of(), List.of(Set.of("a")), 0);

        Tally.Scores s = t.scores();
        assertThat(s.retriever()).isEqualTo("x");
        assertThat(s.queries()).isEqualTo(4);
        // R@5: 1 + 1/2 + 1/2 + 0 over 4
        assertThat(s.r5()).isEqualTo(50.0);
        // C@10: only queries 1 and 2 have every step within 10
        assertThat(s.c10()).isEqualTo(50.0);
        double ideal2 = 1 + 1 / log2(3);
        double q2 = (1 / log2(4) + 1 / log2(8)) / ideal2;
        double q3 = (1 / log2(3)) / ideal2;
        assertThat(s.ndcg10()).isEqualTo(Math.round((1 + q2 + q3 + 0) / 4 * 1000) / 10.0);
        assertThat(s.tokens()).isEqualTo(38.0); // 150 / 4 = 37.5, rounded
        assertThat(s.empty()).isEqualTo(1);
    }

    @Test
    void no_queries_score_zero_and_negative_tokens_are_refused_naming_the_value() {
        assertThat(new Tally("x").scores()).isEqualTo(new Tally.Scores("x", 0, 0, 0, 0, 0, 0));
        assertThatThrownBy(() -> new Tally("x").add(List.of("a"), List.of(Set.of("a")), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("definitionTokens must be >= 0, got: -1");
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
