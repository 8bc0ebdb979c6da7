package dev.toolscout.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.eval.EvalRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-message bench over core's {@link Fixture} (the product's part) and the real model (LangChain4j's
 * configuration); toolscout-server's bench command hands in the product's own engine. Asserts what was measured,
 * never how fast.
 */
class MessageBenchTest {
    @TempDir
    Path dir;

    private EvalRunner.Plan plan() throws IOException {
        Files.writeString(dir.resolve("tools.jsonl"), """
        {"id": "mail", "name": "send_email", "description": "Send an email message to a recipient."}
        {"id": "weather", "name": "forecast", "description": "Weather forecast for a city."}
        {"id": "files", "name": "read_file", "description": "Read a file from disk."}
        """);
        Files.writeString(dir.resolve("queries.jsonl"), """
        {"id": "q1", "text": "Send an email message to my manager about the launch."}
        {"id": "q2", "text": "Check the weather forecast for Oslo tomorrow. Then email the forecast to the team."}
        {"id": "q3", "text": "Read the notes file from disk."}
        """);
        Files.writeString(
                dir.resolve("qrels.tsv"), "query-id\ttool-id\tscore\nq1\tmail\t1\nq2\tweather\t1\nq3\tfiles\t1\n");
        return new EvalRunner(
                        new EvalRunner.Options(
                                dir,
                                null,
                                List.of(10),
                                EvalRunner.Retriever.hybrid,
                                false,
                                LocalEmbeddingModels.DEFAULT_ID,
                                dir.resolve("work"),
                                null),
                        new PrintWriter(new StringWriter()))
                .plan();
    }

    @Test
    void every_variant_is_timed_on_every_round_and_the_sets_messages_are_described() throws IOException {
        EvalRunner.Plan plan = plan();
        Fixture f = new Fixture(plan.selector());
        f.catalog.sync(plan.tools());
        StringWriter log = new StringWriter();

        MessageBench.Result r = new MessageBench(new MessageBench.Options(12, 2), new PrintWriter(log, true))
                .run(plan, new EvalRunner.Product(f.catalog, f.selector, f.index, f.access, f.tokens), f.model);

        assertThat(r.tools()).isEqualTo(3);
        assertThat(r.messages()).isEqualTo(3);
        assertThat(r.measured()).isEqualTo(12);
        // one of the three messages has two clauses
        assertThat(r.multiClause()).isEqualTo(33.3);
        assertThat(r.latency())
                .extracting(MessageBench.Latency::variant)
                .containsExactlyElementsOf(MessageBench.VARIANTS);
        assertThat(r.latency()).allSatisfy(l -> {
            assertThat(l.p50()).isPositive();
            assertThat(l.p50()).isLessThanOrEqualTo(l.p90());
            assertThat(l.p90()).isLessThanOrEqualTo(l.p99());
        });
        assertThat(r.ratio("embed", "embed", 50)).isEqualTo(1.0);
        assertThat(log.toString()).contains("bench: 3 tools, 3 messages (qrels.tsv), 33% of several clauses");
        // LangChain4j's tool vectors are kept beside the set's data directory, as eval keeps them
        try (var files = Files.list(plan.dataDir())) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("langchain4j-"));
        }
    }

    @Test
    void too_few_measured_messages_are_refused_naming_the_option() {
        assertThatThrownBy(() -> new MessageBench.Options(9, 0)).hasMessage("--queries must be at least 10, got: 9");
        assertThatThrownBy(() -> new MessageBench.Options(10, -1)).hasMessage("--warmup must be at least 0, got: -1");
    }
}
