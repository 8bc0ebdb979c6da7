package dev.toolscout.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetricsTest {
    private static final List<String> RANKED = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k");

    @Test
    void recall_is_the_share_of_gold_found_in_the_top_k() {
        Set<String> gold = Set.of("b", "x");
        assertThat(Metrics.recallAt(5, RANKED, gold)).isEqualTo(0.5);
        assertThat(Metrics.recallAt(1, RANKED, gold)).isEqualTo(0.0);
    }

    @Test
    void gold_at_rank_six_counts_for_k_ten_but_not_for_k_five() {
        Set<String> gold = Set.of("f");
        assertThat(Metrics.recallAt(5, RANKED, gold)).isEqualTo(0.0);
        assertThat(Metrics.recallAt(10, RANKED, gold)).isEqualTo(1.0);
        assertThat(Metrics.completeAt(5, RANKED, gold)).isEqualTo(0.0);
        assertThat(Metrics.completeAt(10, RANKED, gold)).isEqualTo(1.0);
        // 1 / log2(6 + 1) over an ideal of 1 / log2(2) = 1
        assertThat(Metrics.ndcgAt(10, RANKED, gold)).isCloseTo(0.356207, within(1e-6));
    }

    @Test
    void ndcg_uses_binary_gains_and_log2_discounts() {
        // gold at ranks 1 and 3: (1 + 1/log2(4)) / (1 + 1/log2(3)) = 1.5 / 1.630930
        assertThat(Metrics.ndcgAt(10, RANKED, Set.of("a", "c"))).isCloseTo(0.919721, within(1e-6));
        // one of two gold at rank 2: (1/log2(3)) / (1 + 1/log2(3)) = 0.630930 / 1.630930
        assertThat(Metrics.ndcgAt(10, RANKED, Set.of("b", "x"))).isCloseTo(0.386853, within(1e-6));
        assertThat(Metrics.ndcgAt(10, RANKED, Set.of("a"))).isEqualTo(1.0);
        assertThat(Metrics.ndcgAt(10, RANKED, Set.of("x"))).isEqualTo(0.0);
    }

    @Test
    void ideal_ranking_is_capped_at_k_when_there_are_more_gold_tools_than_k() {
        List<String> ranked = new ArrayList<>();
        Set<String> gold = new LinkedHashSet<>();
        for (int i = 0; i < 12; i++) {
            ranked.add("g" + i);
            gold.add("g" + i);
        }
        assertThat(Metrics.ndcgAt(10, ranked, gold)).isCloseTo(1.0, within(1e-12));
        assertThat(Metrics.recallAt(10, ranked, gold)).isCloseTo(10.0 / 12, within(1e-12));
        assertThat(Metrics.completeAt(10, ranked, gold)).isEqualTo(0.0);
    }

    @Test
    void any_of_steps_count_once_by_their_first_ranked_tool() {
        // step 1 served by "a" (rank 1) or "c"; step 2 by "x" or "f" (rank 6); step 3 by "y" only (missing)
        List<Set<String>> steps = List.of(Set.of("a", "c"), Set.of("x", "f"), Set.of("y"));
        assertThat(Metrics.stepRecallAt(5, RANKED, steps)).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(Metrics.stepRecallAt(10, RANKED, steps)).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(Metrics.stepCompleteAt(10, RANKED, steps)).isEqualTo(0.0);
        assertThat(Metrics.stepCompleteAt(10, RANKED, steps.subList(0, 2))).isEqualTo(1.0);
        // "c" at rank 3 gains nothing: its step was served at rank 1; DCG 1 + 1/log2(7) over 1 + 1/log2(3) + 1/log2(4)
        double ideal = 1 + 1 / log2(3) + 1 / log2(4);
        assertThat(Metrics.stepNdcgAt(10, RANKED, steps)).isCloseTo((1 + 1 / log2(7)) / ideal, within(1e-12));
        // one tool per step is the plain metric
        assertThat(Metrics.stepNdcgAt(10, RANKED, List.of(Set.of("a"), Set.of("c"))))
                .isEqualTo(Metrics.ndcgAt(10, RANKED, Set.of("a", "c")));
        assertThatThrownBy(() -> Metrics.stepRecallAt(5, RANKED, List.of(Set.of("a"), Set.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("each with at least one tool");
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    @Test
    void completeness_needs_every_gold_tool() {
        assertThat(Metrics.completeAt(5, RANKED, Set.of("a", "e"))).isEqualTo(1.0);
        assertThat(Metrics.completeAt(5, RANKED, Set.of("a", "f"))).isEqualTo(0.0);
    }

    @Test
    void ranking_shorter_than_k_is_scored_on_what_it_has() {
        List<String> shortRanking = List.of("x", "a");
        assertThat(Metrics.recallAt(10, shortRanking, Set.of("a", "b"))).isEqualTo(0.5);
        assertThat(Metrics.ndcgAt(10, shortRanking, Set.of("a"))).isCloseTo(0.630930, within(1e-6));
    }

    @Test
    void accumulator_averages_over_queries_in_percent() {
        Metrics.Accumulator acc = new Metrics.Accumulator();
        acc.add(RANKED, Set.of("a")); // all metrics 1
        acc.add(RANKED, Set.of("f", "x")); // R@5 0, R@10 0.5, C@5 0, C@10 0
        Metrics.Scores s = acc.scores();
        assertThat(s.queries()).isEqualTo(2);
        assertThat(s.r5()).isCloseTo(50.0, within(1e-9));
        assertThat(s.r10()).isCloseTo(75.0, within(1e-9));
        assertThat(s.c5()).isCloseTo(50.0, within(1e-9));
        assertThat(s.c10()).isCloseTo(50.0, within(1e-9));
        // second query: (1/log2(7)) / (1 + 1/log2(3)) = 0.356207 / 1.630930 = 0.218407
        assertThat(s.ndcg10()).isCloseTo(100 * (1 + 0.218407) / 2, within(1e-4));
    }

    @Test
    void empty_accumulator_reports_zero_queries() {
        assertThat(new Metrics.Accumulator().scores().queries()).isZero();
    }

    @Test
    void query_without_gold_is_rejected() {
        assertThatThrownBy(() -> Metrics.recallAt(5, RANKED, Set.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gold must hold at least one tool");
    }

    @Test
    void k_below_one_is_rejected_naming_the_value() {
        assertThatThrownBy(() -> Metrics.ndcgAt(0, RANKED, Set.of("a")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("k must be >= 1, got: 0");
    }

    @Test
    void percentile_is_nearest_rank_and_leaves_the_input_alone() {
        double[] v = {5, 1, 4, 2, 3, 10, 9, 8, 7, 6};
        org.assertj.core.api.Assertions.assertThat(Metrics.percentile(v, 50)).isEqualTo(5.0);
        org.assertj.core.api.Assertions.assertThat(Metrics.percentile(v, 99)).isEqualTo(10.0);
        org.assertj.core.api.Assertions.assertThat(Metrics.percentile(v, 1)).isEqualTo(1.0);
        org.assertj.core.api.Assertions.assertThat(v[0]).isEqualTo(5.0);
        org.assertj.core.api.Assertions.assertThat(Metrics.percentile(new double[0], 50))
                .isZero();
    }
}
