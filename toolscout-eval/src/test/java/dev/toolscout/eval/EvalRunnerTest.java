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
  @TempDir Path dir;

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
    return new EvalRunner(new EvalRunner.Options(dir, null, List.of(1, 2), retriever, false, model,
        dir.resolve("work"), null), new PrintWriter(log, true));
  }

  @Test
  void the_plan_opens_the_datasets_tools_with_the_chosen_retrievers_configuration() throws IOException {
    writeDataset();
    EvalRunner.Plan hybrid = runner(EvalRunner.Retriever.hybrid, "m", new StringWriter()).plan();
    assertThat(hybrid.tools()).hasSize(3);
    assertThat(hybrid.queries()).hasSize(2);
    assertThat(hybrid.qrels()).isEqualTo("qrels.tsv");
    assertThat(hybrid.selector().fusion()).isEqualTo(Fusion.DEFAULT);
    assertThat(hybrid.selector().dependencies()).isTrue();
    assertThat(hybrid.dataDir().getParent()).isEqualTo(dir.resolve("work"));

    EvalRunner.Plan bm25 = runner(EvalRunner.Retriever.bm25, "m", new StringWriter()).plan();
    assertThat(bm25.selector().fusion().method()).isEqualTo(Fusion.Method.LEXICAL);
    assertThat(bm25.selector().dependencies()).as("a retriever alone, no dependency expansion").isFalse();
    assertThat(runner(EvalRunner.Retriever.whole, "m", new StringWriter()).plan().selector().fusion().decomposes())
        .isFalse();
    // one data directory per dataset and model: a rerun reuses the embeddings, another model does not
    assertThat(bm25.dataDir()).isEqualTo(hybrid.dataDir());
    assertThat(runner(EvalRunner.Retriever.hybrid, "other", new StringWriter()).plan().dataDir())
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
    EvalRunner.Result r = runner.run(plan, new EvalRunner.Product(f.catalog, f.selector, f.index, f.access, f.tokens));
    // each query is its gold tool's own description: first for both retrievers, so first in the ranking
    assertThat(r.queries()).isEqualTo(2);
    assertThat(r.recall()).containsEntry(1, 100.0);
    assertThat(r.mrr()).isEqualTo(100.0);
    assertThat(r.ndcg10()).isEqualTo(100.0);
    assertThat(r.tokensSavedPct()).isBetween(0.0, 100.0);
    assertThat(log.toString()).contains("eval: 3 tools, 2 scored queries (qrels.tsv)");
  }

  @Test
  void run_refuses_a_missing_product_naming_it() throws IOException {
    writeDataset();
    EvalRunner runner = runner(EvalRunner.Retriever.hybrid, "m", new StringWriter());
    EvalRunner.Plan plan = runner.plan();
    assertThatThrownBy(() -> runner.run(plan, null)).hasMessage("product");
    assertThatThrownBy(() -> new EvalRunner.Product(null, null, null, null, null)).hasMessage("catalog");
  }
}
