package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.Fixture;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.indexing.Hit;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class HybridRankerTest {
    private static String name(int ord) {
        return "t__" + (char) ('a' + ord);
    }

    @Test
    void ties_break_by_name() {
        List<Hit> lex = List.of(new Hit(2, 1f), new Hit(1, 1f));
        List<Ranked> r = HybridRanker.fuse(
                lex, List.of(), Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL), HybridRankerTest::name);
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
        assertThat(b)
                .extracting(Ranked::ord)
                .containsExactlyElementsOf(a.stream().map(Ranked::ord).toList());
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
        List<Ranked> shallow = HybridRanker.fuse(
                lex.subList(0, Fusion.Z_WINDOW),
                dense.subList(0, Fusion.Z_WINDOW),
                Fusion.DEFAULT,
                HybridRankerTest::name);
        // tools in both windows score the same either way
        java.util.Map<Integer, Double> shallowScore = new java.util.HashMap<>();
        shallow.forEach(x -> shallowScore.put(x.ord(), x.score()));
        int compared = 0;
        for (Ranked x : deep.subList(0, 10)) {
            if (x.lexicalRank() <= Fusion.Z_WINDOW
                    && x.denseRank() <= Fusion.Z_WINDOW
                    && x.lexicalRank() > 0
                    && x.denseRank() > 0) {
                assertThat(shallowScore.get(x.ord()))
                        .isCloseTo(x.score(), org.assertj.core.api.Assertions.within(1e-9));
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
        assertThat(HybridRanker.adaptiveAlpha(0.5, new double[] {0, 0}, new double[] {0, 0}))
                .isEqualTo(0.5);
    }

    /** A ZSCORE-style ranked entry whose value before the logistic is {@code value}. */
    private static Ranked at(int ord, double value) {
        return new Ranked(ord, 1 / (1 + Math.exp(-value)), 1, 1, 0.5);
    }

    private static double valueOf(Ranked r) {
        return Math.log(r.score() / (1 - r.score()));
    }

    @Test
    void a_clauses_first_tools_join_at_their_own_value_and_the_rest_less_the_penalty() {
        List<Ranked> whole = List.of(at(0, 3.0), at(1, 1.0), at(2, 0.0));
        // the clause's share (its first two tools) at their clause value, the third less the penalty
        List<Ranked> clause = List.of(at(3, 2.5), at(4, 2.2), at(5, 2.1));

        List<Ranked> p2 =
                HybridRanker.mergeClauses(whole, List.of("book a room"), List.of(clause), 2.0, HybridRankerTest::name);
        assertThat(HybridRanker.CLAUSE_SHARE).isEqualTo(2);
        assertThat(p2).extracting(Ranked::ord).containsExactly(0, 3, 4, 1, 5, 2);
        assertThat(p2.get(1).clause()).isEqualTo("book a room");
        assertThat(valueOf(p2.get(1))).isCloseTo(2.5, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(valueOf(p2.get(4))).isCloseTo(0.1, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(p2.get(0).clause()).isNull();

        // a larger penalty moves only the tools past the share: 2.1 - 5 is below the floor, tied with it by name
        List<Ranked> p5 =
                HybridRanker.mergeClauses(whole, List.of("book a room"), List.of(clause), 5.0, HybridRankerTest::name);
        assertThat(p5).extracting(Ranked::ord).containsExactly(0, 3, 4, 1, 2, 5);
    }

    @Test
    void a_clause_tool_below_the_message_keeps_the_messages_value() {
        List<Ranked> whole = List.of(at(0, 3.0), at(1, 2.0));
        List<Ranked> clause = List.of(at(2, 1.5), at(1, 1.0)); // 1.0 for tool 1 does not beat its 2.0 for the message
        List<Ranked> r = HybridRanker.mergeClauses(whole, List.of("c"), List.of(clause), 2.0, HybridRankerTest::name);
        assertThat(r).extracting(Ranked::ord).containsExactly(0, 1, 2);
        assertThat(r.get(1).clause()).isNull();
        assertThat(r.get(2).clause()).isEqualTo("c");
    }

    @Test
    void a_tie_between_the_message_and_a_clause_goes_to_the_message() {
        // values whose logistic round trip is exact, so the tie is exact: 1.0 - 1.0 (past the share) = 0.0
        List<Ranked> whole = List.of(at(0, 3.0), at(1, 0.0));
        List<Ranked> clause = List.of(at(2, 5.0), at(3, 4.0), at(1, 1.0));
        List<Ranked> r = HybridRanker.mergeClauses(whole, List.of("c"), List.of(clause), 1.0, HybridRankerTest::name);
        assertThat(r).extracting(Ranked::ord).containsExactly(2, 3, 0, 1);
        assertThat(r.get(3).clause()).isNull();
    }

    @Test
    void a_weak_clause_tool_the_message_lacks_ranks_with_the_messages_lowest() {
        List<Ranked> whole = List.of(at(0, 3.0), at(4, 0.0));
        List<Ranked> clause = List.of(at(5, 4.0), at(6, 3.5), at(2, 0.5)); // 0.5 - 2 is below the floor of 0.0
        List<Ranked> r = HybridRanker.mergeClauses(whole, List.of("c"), List.of(clause), 2.0, HybridRankerTest::name);
        assertThat(r).extracting(Ranked::ord).containsExactly(5, 6, 0, 2, 4); // tied at the floor: by name, t__c < t__e
        assertThat(valueOf(r.get(3))).isCloseTo(0.0, org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    void each_clause_counts_and_the_best_clause_wins() {
        List<Ranked> whole = List.of(at(0, 2.0), at(1, 1.0));
        List<Ranked> c1 = List.of(at(2, 3.5));
        List<Ranked> c2 = List.of(at(2, 4.5), at(3, 3.8));
        List<Ranked> r =
                HybridRanker.mergeClauses(whole, List.of("one", "two"), List.of(c1, c2), 2.0, HybridRankerTest::name);
        assertThat(r).extracting(Ranked::ord).containsExactly(2, 3, 0, 1);
        assertThat(r.get(0).clause()).isEqualTo("two");
        assertThat(valueOf(r.get(0))).isCloseTo(4.5, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(r.get(1).clause()).isEqualTo("two");
    }

    @Test
    void only_zscore_fusion_with_a_finite_penalty_decomposes() {
        assertThat(Fusion.DEFAULT.decomposes()).isTrue();
        assertThat(Fusion.DEFAULT.withClausePenalty(Double.POSITIVE_INFINITY).decomposes())
                .isFalse();
        assertThat(Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL).decomposes())
                .isFalse();
        assertThat(Fusion.DEFAULT.withMethod(Fusion.Method.DENSE).decomposes()).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fusion.DEFAULT.withClausePenalty(-1))
                .hasMessage("fusion clausePenalty must be at least 0 (Infinity: no clause search), got: -1.0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fusion.DEFAULT.withClausePenalty(Double.NaN))
                .hasMessageContaining("got: NaN");
    }

    @Test
    void a_message_of_one_clause_takes_the_one_clause_dense_weight() {
        assertThat(Fusion.DEFAULT.forClauses(0).alpha()).isEqualTo(0.6);
        assertThat(Fusion.DEFAULT.forClauses(2).alpha()).isEqualTo(0.5);
        assertThat(Fusion.DEFAULT
                        .withMethod(Fusion.Method.LEXICAL)
                        .forClauses(0)
                        .alpha())
                .isEqualTo(0.5);
        assertThat(Fusion.DEFAULT.withAlpha(0.3))
                .extracting(Fusion::alpha, Fusion::oneClauseAlpha)
                .containsExactly(0.3, 0.3);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Fusion(Fusion.Method.ZSCORE, 0.5, 1.5, 50, 2.0))
                .hasMessage("fusion oneClauseAlpha must be between 0 and 1, got: 1.5");
    }

    /** Names of {@code query}'s ranking over the fixture's catalog. */
    private static List<String> ranked(Fixture f, String query, Fusion fusion) {
        Catalog.Snapshot snap = f.catalog.snapshot();
        BitSet all = new BitSet();
        all.set(0, snap.universe());
        return f
                .ranker
                .rank(
                        query,
                        f.model::embedQueries,
                        AllowedSet.of(all, snap.universe()),
                        fusion,
                        ord -> snap.byOrd(ord).name())
                .stream()
                .map(r -> snap.byOrd(r.ord()).name())
                .toList();
    }

    @Test
    void rank_weighs_a_one_clause_message_by_the_one_clause_alpha_and_a_longer_one_by_alpha() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        String one = "send an email to the team about the quarterly report";
        String two = "Send an email to the team about the report. Then book a meeting room for Friday.";
        assertThat(QueryClauses.split(two)).hasSize(2);
        // dense weight 1 for one clause, 0 for several; no clause search, so each message is ranked whole
        Fusion split = new Fusion(Fusion.Method.ZSCORE, 0.0, 1.0, 50, Double.POSITIVE_INFINITY);

        List<String> dense = ranked(f, one, Fusion.DEFAULT.withMethod(Fusion.Method.DENSE));
        List<String> lexical = ranked(f, two, Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL));
        assertThat(ranked(f, one, split).subList(0, 5)).isEqualTo(dense.subList(0, 5));
        assertThat(ranked(f, two, split).subList(0, 5)).isEqualTo(lexical.subList(0, 5));
        // the two retrievers disagree on both messages, so each equality above says which weight was used
        assertThat(dense.subList(0, 5))
                .isNotEqualTo(ranked(f, one, Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL))
                        .subList(0, 5));
        assertThat(lexical.subList(0, 5))
                .isNotEqualTo(ranked(f, two, Fusion.DEFAULT.withMethod(Fusion.Method.DENSE))
                        .subList(0, 5));
    }

    @Test
    void a_message_and_its_clauses_are_embedded_by_one_call() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        Catalog.Snapshot snap = f.catalog.snapshot();
        BitSet all = new BitSet();
        all.set(0, snap.universe());
        String message = "Send an email to the team about the report. Then book a meeting room for Friday.";
        List<List<String>> calls = new java.util.ArrayList<>();
        List<Ranked> r = f.ranker.rank(
                message,
                (m, clauses) -> {
                    calls.add(java.util.stream.Stream.concat(java.util.stream.Stream.of(m), clauses.stream())
                            .toList());
                    return f.model.embedQueries(m, clauses);
                },
                AllowedSet.of(all, snap.universe()),
                Fusion.DEFAULT,
                ord -> snap.byOrd(ord).name());

        assertThat(calls)
                .containsExactly(List.of(
                        message, "Send an email to the team about the report", "book a meeting room for Friday"));
        // the clause search ran: some tool's best score came from a clause
        assertThat(r).anySatisfy(x -> assertThat(x.clause()).isNotNull());
        // a lexical ranking needs no vector at all
        calls.clear();
        f.ranker.rank(
                message,
                (m, clauses) -> {
                    calls.add(List.of(m));
                    return f.model.embedQueries(m, clauses);
                },
                AllowedSet.of(all, snap.universe()),
                Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL),
                ord -> snap.byOrd(ord).name());
        assertThat(calls).isEmpty();
    }

    @Test
    void a_clause_nearly_the_whole_message_is_not_ranked_again() {
        String longClause =
                "Please find every open invoice from the suppliers in Norway and in Sweden that is older than"
                        + " thirty days and has not been paid yet by our accounting team or by the finance office in Oslo, whatever"
                        + " its amount or currency";
        String message = longClause + ". Then archive them all.";
        assertThat(QueryClauses.split(message)).containsExactly(longClause, "archive them all");
        // the long clause has 41 of the message's 45 words: its ranking would repeat the message's
        assertThat(QueryClauses.words(longClause)).isEqualTo(41);
        assertThat(HybridRanker.withoutNearlyWhole(message, QueryClauses.split(message)))
                .containsExactly("archive them all");
        String even = "Find the open invoices from Norway. Then archive the paid ones.";
        assertThat(HybridRanker.withoutNearlyWhole(even, QueryClauses.split(even)))
                .hasSize(2);
    }

    @Test
    void a_closed_ranker_refuses_to_rank_instead_of_hanging() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        assertThat(ranked(f, "send an email and book a meeting", Fusion.DEFAULT))
                .isNotEmpty();

        f.ranker.close();

        assertThat(f.ranker.isClosed()).isTrue();
        // a message of one clause and one of several alike
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> ranked(f, "send an email to the team. Then book a meeting", Fusion.DEFAULT))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ranked(f, "email", Fusion.DEFAULT))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    }
}
