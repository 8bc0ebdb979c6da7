package dev.toolscout.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.toolscout.bench.server.SyntheticCatalog;
import dev.toolscout.indexing.HashingEmbeddingModel;
import dev.toolscout.indexing.Hit;
import dev.toolscout.selection.Ranked;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The benchmark's state and methods, run once each outside JMH, so a change that breaks them fails the build. */
class SelectionPathBenchmarkTest {
    static SelectionPathBenchmark bench;

    @BeforeAll
    static void setUp() {
        bench = new SelectionPathBenchmark();
        bench.tools = 1200; // past REAL, so the perturbed copies are built too
        bench.setUp();
    }

    @AfterAll
    static void tearDown() {
        bench.tearDown();
    }

    @Test
    void each_step_returns_what_the_next_one_needs() {
        SelectionPathBenchmark.Cursor c = new SelectionPathBenchmark.Cursor();
        float[] v = bench.embedQuery(c);
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        assertThat(v).hasSize(384);
        assertThat(norm).isCloseTo(1.0, offset(1e-3));
        assertThat(bench.lexical(c)).isNotEmpty().hasSizeLessThanOrEqualTo(SelectionPathBenchmark.CANDIDATES);
        List<Hit> dense = bench.dense(c);
        assertThat(dense).hasSize(SelectionPathBenchmark.CANDIDATES);
        assertThat(bench.fuse(c)).hasSizeGreaterThanOrEqualTo(SelectionPathBenchmark.CANDIDATES);
    }

    @Test
    void steps_in_order_rank_exactly_as_the_ranker_does() {
        for (int q = 0; q < SelectionPathBenchmark.QUERIES; q++) {
            SelectionPathBenchmark.Cursor a = new SelectionPathBenchmark.Cursor();
            SelectionPathBenchmark.Cursor b = new SelectionPathBenchmark.Cursor();
            a.next = q;
            b.next = q;
            List<Integer> inOrder =
                    bench.stepsInOrder(a).stream().map(Ranked::ord).toList();
            List<Integer> ranked = bench.rank(b).stream().map(Ranked::ord).toList();
            assertThat(inOrder).as("query %d", q).isNotEmpty().isEqualTo(ranked);
        }
    }

    @Test
    void a_two_clause_message_is_embedded_with_its_clauses_and_ranked_with_them() {
        for (int q = 0; q < SelectionPathBenchmark.QUERIES; q++) {
            SelectionPathBenchmark.Cursor a = new SelectionPathBenchmark.Cursor();
            SelectionPathBenchmark.Cursor b = new SelectionPathBenchmark.Cursor();
            SelectionPathBenchmark.Cursor r = new SelectionPathBenchmark.Cursor();
            a.next = q;
            b.next = q;
            r.next = q;
            List<float[]> one = bench.embedMessage(a);
            List<float[]> alone = bench.embedMessageClausesAlone(b);
            // the message and both its clauses, the message's vector the same either way
            assertThat(one).as("query %d", q).hasSize(3);
            assertThat(alone).hasSize(3);
            assertThat(one.get(0)).containsExactly(alone.get(0));
            assertThat(bench.rankMessage(r))
                    .anySatisfy(x -> assertThat(x.clause()).isNotNull());
        }
    }

    @Test
    void perturbed_copies_are_unit_vectors_near_their_real_tool_but_not_equal_to_it() {
        // what is checked is vectors() and the perturbation, for any unit vectors: core's hashing model gives them
        // at once, where the real model embedded the same 1,000 tools setUp has embedded already (half this class)
        float[][] v = SelectionPathBenchmark.vectors(
                new HashingEmbeddingModel(384),
                SyntheticCatalog.tools(SelectionPathBenchmark.REAL + 3, 42),
                new Random(1));
        for (int i = 0; i < 3; i++) {
            float[] real = v[i];
            float[] copy = v[SelectionPathBenchmark.REAL + i];
            double dot = 0;
            double norm = 0;
            for (int d = 0; d < real.length; d++) {
                dot += real[d] * copy[d];
                norm += copy[d] * copy[d];
            }
            assertThat(norm).isCloseTo(1.0, offset(1e-4));
            assertThat(dot).isGreaterThan(0.8).isLessThan(0.9999);
        }
    }
}
