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
    List<Ranked> r = HybridRanker.fuse(lex, dense, Fusion.DEFAULT, HybridRankerTest::name);
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
}
