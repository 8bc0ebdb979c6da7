package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.index.Hit;
import java.util.List;
import org.junit.jupiter.api.Test;

class HybridRankerTest {
  private static String name(int ord) {
    return "t__" + (char) ('a' + ord);
  }

  @Test
  void convex_fusion_rewards_agreement_between_retrievers() {
    List<Hit> lex = List.of(new Hit(0, 10f), new Hit(1, 9f), new Hit(2, 1f));
    List<Hit> dense = List.of(new Hit(1, 0.9f), new Hit(3, 0.8f), new Hit(0, 0.2f));
    List<Ranked> r = HybridRanker.fuse(lex, dense, Fusion.DEFAULT.withMethod(Fusion.Method.CONVEX),
        HybridRankerTest::name);
    assertThat(r.get(0).ord()).isEqualTo(1);
    assertThat(r).extracting(Ranked::ord).containsExactlyInAnyOrder(0, 1, 2, 3);
    assertThat(r.get(0).score()).isLessThanOrEqualTo(1.0);
    assertThat(r.get(0).lexicalRank()).isEqualTo(2);
    assertThat(r.get(0).denseRank()).isEqualTo(1);
  }

  @Test
  void rrf_scores_are_scaled_to_one_for_first_in_both() {
    List<Hit> lex = List.of(new Hit(5, 3f));
    List<Hit> dense = List.of(new Hit(5, 0.5f));
    List<Ranked> r = HybridRanker.fuse(lex, dense, Fusion.DEFAULT.withMethod(Fusion.Method.RRF),
        HybridRankerTest::name);
    assertThat(r.get(0).score()).isEqualTo(1.0);
  }

  @Test
  void ties_break_by_name() {
    List<Hit> lex = List.of(new Hit(2, 1f), new Hit(1, 1f));
    List<Ranked> r = HybridRanker.fuse(lex, List.of(), Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL),
        HybridRankerTest::name);
    assertThat(r).extracting(Ranked::ord).containsExactly(1, 2);
  }

  @Test
  void zscore_fusion_rewards_agreement_and_keeps_scores_between_0_and_1() {
    List<Hit> lex = List.of(new Hit(0, 10f), new Hit(1, 9f), new Hit(2, 1f));
    List<Hit> dense = List.of(new Hit(1, 0.9f), new Hit(3, 0.8f), new Hit(0, 0.2f));
    List<Ranked> r = HybridRanker.fuse(lex, dense, Fusion.DEFAULT, HybridRankerTest::name);
    assertThat(Fusion.DEFAULT.method()).isEqualTo(Fusion.Method.ZSCORE);
    assertThat(r).extracting(Ranked::ord).containsExactly(1, 0, 3, 2);
    assertThat(r).allSatisfy(x -> assertThat(x.score()).isStrictlyBetween(0.0, 1.0));
  }

  @Test
  void zscore_fusion_ignores_the_scale_of_each_retriever() {
    List<Hit> lex = List.of(new Hit(0, 7f), new Hit(1, 3f), new Hit(2, 2f));
    List<Hit> lexTimes40 = List.of(new Hit(0, 280f), new Hit(1, 120f), new Hit(2, 80f));
    List<Hit> dense = List.of(new Hit(2, 0.61f), new Hit(1, 0.6f), new Hit(3, 0.3f));
    List<Ranked> a = HybridRanker.fuse(lex, dense, Fusion.DEFAULT, HybridRankerTest::name);
    List<Ranked> b = HybridRanker.fuse(lexTimes40, dense, Fusion.DEFAULT, HybridRankerTest::name);
    assertThat(b).extracting(Ranked::ord).containsExactlyElementsOf(a.stream().map(Ranked::ord).toList());
    for (int i = 0; i < a.size(); i++) {
      assertThat(b.get(i).score()).isCloseTo(a.get(i).score(), org.assertj.core.api.Assertions.within(1e-6));
    }
  }

  @Test
  void a_tool_missing_from_a_list_scores_as_that_list_lowest() {
    // ord 3 is only in the dense list; ord 2 is last in the lexical list and absent from the dense one
    List<Hit> lex = List.of(new Hit(0, 5f), new Hit(1, 4f), new Hit(2, 1f));
    List<Hit> dense = List.of(new Hit(0, 0.8f), new Hit(1, 0.7f), new Hit(3, 0.4f));
    List<Ranked> r = HybridRanker.fuse(lex, dense, Fusion.DEFAULT, HybridRankerTest::name);
    Ranked two = r.stream().filter(x -> x.ord() == 2).findFirst().orElseThrow();
    Ranked three = r.stream().filter(x -> x.ord() == 3).findFirst().orElseThrow();
    // both are last in one list and missing from the other, so they tie (then go by name)
    assertThat(two.score()).isCloseTo(three.score(), org.assertj.core.api.Assertions.within(1e-9));
    assertThat(r).extracting(Ranked::ord).containsExactly(0, 1, 2, 3);
  }

  @Test
  void zscore_scores_of_the_top_tools_do_not_depend_on_how_deep_the_lists_were_fetched() {
    java.util.List<Hit> lex = new java.util.ArrayList<>();
    java.util.List<Hit> dense = new java.util.ArrayList<>();
    for (int i = 0; i < 150; i++) {
      lex.add(new Hit(i, 100f / (i + 1)));
      dense.add(new Hit((i * 7) % 150, 0.9f - i * 0.005f)); // a permutation: the windows overlap
    }
    List<Ranked> deep = HybridRanker.fuse(lex, dense, Fusion.DEFAULT.withDepth(150), HybridRankerTest::name);
    List<Ranked> shallow = HybridRanker.fuse(lex.subList(0, Fusion.Z_WINDOW), dense.subList(0, Fusion.Z_WINDOW),
        Fusion.DEFAULT, HybridRankerTest::name);
    // tools in both windows score the same either way
    java.util.Map<Integer, Double> shallowScore = new java.util.HashMap<>();
    shallow.forEach(x -> shallowScore.put(x.ord(), x.score()));
    int compared = 0;
    for (Ranked x : deep.subList(0, 10)) {
      if (x.lexicalRank() <= Fusion.Z_WINDOW && x.denseRank() <= Fusion.Z_WINDOW && x.lexicalRank() > 0
          && x.denseRank() > 0) {
        assertThat(shallowScore.get(x.ord())).isCloseTo(x.score(), org.assertj.core.api.Assertions.within(1e-9));
        compared++;
      }
    }
    assertThat(compared).isPositive();
    assertThat(deep.get(0).ord()).isEqualTo(shallow.get(0).ord());
  }

  @Test
  void a_list_whose_scores_are_all_equal_rewards_only_presence() {
    List<Hit> lex = List.of(new Hit(0, 2f), new Hit(1, 2f));
    List<Hit> dense = List.of(new Hit(2, 0.5f), new Hit(0, 0.5f), new Hit(1, 0.5f));
    List<Ranked> r = HybridRanker.fuse(lex, dense, Fusion.DEFAULT, HybridRankerTest::name);
    assertThat(r).extracting(Ranked::ord).containsExactly(0, 1, 2);
    assertThat(r.get(0).score()).isGreaterThan(r.get(2).score());
  }

  @Test
  void the_retriever_whose_best_hit_stands_out_more_gets_more_weight() {
    double[] flat = {0.2, 0.1, -0.1, -0.2};
    double[] peaked = {1.7, -0.4, -0.6, -0.7};
    assertThat(HybridRanker.adaptiveAlpha(0.5, flat, peaked)).isGreaterThan(0.85); // dense stands out
    assertThat(HybridRanker.adaptiveAlpha(0.5, peaked, flat)).isLessThan(0.15); // lexical stands out
    assertThat(HybridRanker.adaptiveAlpha(0.5, peaked, peaked)).isEqualTo(0.5);
    assertThat(HybridRanker.adaptiveAlpha(0.5, new double[0], peaked)).isEqualTo(0.5);
    assertThat(HybridRanker.adaptiveAlpha(0.5, new double[] {0, 0}, new double[] {0, 0})).isEqualTo(0.5);
  }
}
