package dev.toolscout.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.selection.Fusion;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's two steps: {@link EvalRunner#plan()} says which engine to open, {@link EvalRunner#run} scores the
 * ranking it is handed. The engine here is core's {@link Fixture} (in-memory store, exact index, hashing
 * embedder); toolscout-server's eval command hands in the product's own (EvalCommandInputTest).
 */
class EvalRunnerTest {
    @TempDir
    Path dir;

    private void writeDataset() throws IOException {
        Files.writeString(dir.resolve("tools.jsonl"), """
        {"id": "mail", "name": "send_email", "description": "Send an email message to a recipient."}
        {"id": "weather", "name": "forecast", "description": "Weather forecast for a city."}
        {"id": "files", "name": "read_file", "description": "Read a file from disk."}
        """);
        Files.writeString(dir.resolve("queries.jsonl"), """
        {"id": "q1", "text": "Send an email message to a recipient."}
        {"id": "q2", "text": "Weather forecast for a city."}
        """);
        Files.writeString(dir.resolve("qrels.tsv"), "query-id\ttool-id\tscore\nq1\tmail\t1\nq2\tweather\t1\n");
    }

    private EvalRunner runner(EvalRunner.Retriever retriever, String model, StringWriter log) {
        return new EvalRunner(
                new EvalRunner.Options(dir, null, List.of(1, 2), retriever, false, model, dir.resolve("work"), null),
                new PrintWriter(log, true));
    }

    @Test
    void the_plan_opens_the_datasets_tools_with_the_chosen_retrievers_configuration() throws IOException {
        writeDataset();
        EvalRunner.Plan hybrid =
                runner(EvalRunner.Retriever.hybrid, "m", new StringWriter()).plan();
        assertThat(hybrid.tools()).hasSize(3);
        assertThat(hybrid.queries()).hasSize(2);
        assertThat(hybrid.qrels()).isEqualTo("qrels.tsv");
        assertThat(hybrid.selector().fusion()).isEqualTo(Fusion.DEFAULT);
        assertThat(hybrid.selector().dependencies()).isTrue();
        assertThat(hybrid.dataDir().getParent()).isEqualTo(dir.resolve("work"));

        EvalRunner.Plan bm25 =
                runner(EvalRunner.Retriever.bm25, "m", new StringWriter()).plan();
        assertThat(bm25.selector().fusion().method()).isEqualTo(Fusion.Method.LEXICAL);
        assertThat(bm25.selector().dependencies())
                .as("a retriever alone, no dependency expansion")
                .isFalse();
        assertThat(runner(EvalRunner.Retriever.whole, "m", new StringWriter())
                        .plan()
                        .selector()
                        .fusion()
                        .decomposes())
                .isFalse();
        // one data directory per dataset and model: a rerun reuses the embeddings, another model does not
        assertThat(bm25.dataDir()).isEqualTo(hybrid.dataDir());
        assertThat(runner(EvalRunner.Retriever.hybrid, "other", new StringWriter())
                        .plan()
                        .dataDir())
                .isNotEqualTo(hybrid.dataDir());
    }

    @Test
    void run_scores_the_ranking_it_is_handed_by_the_datasets_ids() throws IOException {
        writeDataset();
        StringWriter log = new StringWriter();
        EvalRunner runner = runner(EvalRunner.Retriever.hybrid, "m", log);
        EvalRunner.Plan plan = runner.plan();
        Fixture f = new Fixture(plan.selector());
        f.catalog.sync(plan.tools());
        EvalRunner.Result r =
                runner.run(plan, new EvalRunner.Product(f.catalog, f.selector, f.index, f.access, f.tokens));
        // each query is its gold tool's own description: first for both retrievers, so first in the ranking
        assertThat(r.queries()).isEqualTo(2);
        assertThat(r.recall()).containsEntry(1, 100.0);
        assertThat(r.mrr()).isEqualTo(100.0);
        assertThat(r.ndcg10()).isEqualTo(100.0);
        assertThat(r.tokensSavedPct()).isBetween(0.0, 100.0);
        assertThat(log.toString()).contains("eval: 3 tools, 2 scored queries (qrels.tsv)");
    }

    @Test
    void an_any_of_step_is_found_by_any_of_its_tools_and_the_per_query_file_lists_the_steps() throws IOException {
        writeDataset();
        // q1's one step is served by mail or files: mail ranks first, so the step is found at rank 1 and files
        // (ranked lower, or not at all) costs nothing; scored as plain gold, both tools would be needed
        Files.writeString(
                dir.resolve("qrels.anyof.tsv"),
                "query-id\ttool-id\tscore\tstep\nq1\tmail\t1\t1\nq1\tfiles\t1\t1\nq2\tweather\t1\t1\n");
        Path perQuery = dir.resolve("per-query.jsonl");
        EvalRunner runner = new EvalRunner(
                new EvalRunner.Options(
                        dir,
                        "qrels.anyof.tsv",
                        List.of(1),
                        EvalRunner.Retriever.hybrid,
                        false,
                        "m",
                        dir.resolve("work"),
                        null,
                        perQuery),
                new PrintWriter(new StringWriter(), true));
        EvalRunner.Plan plan = runner.plan();
        Fixture f = new Fixture(plan.selector());
        f.catalog.sync(plan.tools());
        EvalRunner.Result r =
                runner.run(plan, new EvalRunner.Product(f.catalog, f.selector, f.index, f.access, f.tokens));
        assertThat(r.recall()).containsEntry(1, 100.0);
        assertThat(r.complete()).containsEntry(1, 100.0);
        assertThat(r.ndcg10()).isEqualTo(100.0);
        List<String> lines = Files.readAllLines(perQuery);
        assertThat(lines.get(0)).contains("\"gold\":[\"mail\",\"files\"],\"steps\":[[\"mail\",\"files\"]]");
        assertThat(lines.get(1)).doesNotContain("\"steps\"");
    }

    @Test
    void run_refuses_a_missing_product_naming_it() throws IOException {
        writeDataset();
        EvalRunner runner = runner(EvalRunner.Retriever.hybrid, "m", new StringWriter());
        EvalRunner.Plan plan = runner.plan();
        assertThatThrownBy(() -> runner.run(plan, null)).hasMessage("product");
        assertThatThrownBy(() -> new EvalRunner.Product(null, null, null, null, null))
                .hasMessage("catalog");
    }

    private void writeLearnSplit() throws IOException {
        // q3 asks for the mail tool in words its text does not have; q4 says the same in other words
        Files.writeString(dir.resolve("queries.jsonl"), """
        {"id": "q1", "text": "Send an email message to a recipient."}
        {"id": "q2", "text": "Weather forecast for a city."}
        {"id": "q3", "text": "ping bob about lunch"}
        {"id": "q4", "text": "ping bob about lunch today"}
        """);
        Files.writeString(dir.resolve("qrels.learn.tsv"), "query-id\ttool-id\tscore\nq3\tmail\t1\n");
        Files.writeString(dir.resolve("qrels.test.tsv"), "query-id\ttool-id\tscore\nq4\tmail\t1\n");
    }

    @Test
    void learn_qrels_are_learned_then_the_test_queries_are_scored_with_and_without_learning() throws IOException {
        writeDataset();
        writeLearnSplit();
        EvalRunner runner = new EvalRunner(
                new EvalRunner.Options(
                        dir,
                        "qrels.test.tsv",
                        List.of(1),
                        EvalRunner.Retriever.hybrid,
                        false,
                        "m",
                        dir.resolve("work"),
                        null,
                        null,
                        "qrels.learn.tsv"),
                new PrintWriter(new StringWriter()));
        EvalRunner.Plan plan = runner.plan();
        assertThat(plan.learn()).hasSize(1);
        Fixture f = new Fixture(plan.selector());
        f.catalog.sync(plan.tools());
        dev.toolscout.learning.UsageMemory memory =
                new dev.toolscout.learning.UsageMemory(f.store, f.model, java.time.Clock.systemUTC());
        dev.toolscout.selection.Selector selector = new dev.toolscout.selection.Selector(
                f.catalog, f.ranker, f.model, f.access, f.tokens, plan.selector(), List.of(), memory);

        EvalRunner.Result r =
                runner.run(plan, new EvalRunner.Product(f.catalog, selector, f.index, f.access, f.tokens, memory));

        assertThat(r.withoutLearning().recall()).containsEntry(1, 0.0);
        assertThat(r.recall()).containsEntry(1, 100.0);
        // the evaluation's data directory keeps nothing learned for the next run
        assertThat(memory.isEmpty()).isTrue();
    }

    @Test
    void a_query_in_both_the_learned_and_the_scored_qrels_is_refused_naming_it() throws IOException {
        writeDataset();
        writeLearnSplit();
        EvalRunner runner = new EvalRunner(
                new EvalRunner.Options(
                        dir,
                        "qrels.tsv",
                        List.of(1),
                        EvalRunner.Retriever.hybrid,
                        false,
                        "m",
                        dir.resolve("work"),
                        null,
                        null,
                        "qrels.learn.tsv"),
                new PrintWriter(new StringWriter()));
        Files.writeString(dir.resolve("qrels.learn.tsv"), "query-id\ttool-id\tscore\nq3\tmail\t1\nq2\tweather\t1\n");
        assertThatThrownBy(runner::plan)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "--learn-qrels qrels.learn.tsv and --qrels qrels.tsv share 1 query ids (a query learned must not "
                                + "be scored), e.g. 'q2'");
    }
}
