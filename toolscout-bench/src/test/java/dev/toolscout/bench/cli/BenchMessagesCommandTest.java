package dev.toolscout.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.server.cli.ToolScoutCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code scripts/bench.sh bench --queries-from}: a dataset's messages through the product's real engine. */
class BenchMessagesCommandTest {
    @TempDir
    Path dir;

    private void writeDataset() throws IOException {
        Files.writeString(dir.resolve("tools.jsonl"), """
        {"id": "mail", "name": "send_email", "description": "Send an email message to a recipient."}
        {"id": "weather", "name": "forecast", "description": "Weather forecast for a city."}
        """);
        Files.writeString(dir.resolve("queries.jsonl"), """
        {"id": "q1", "text": "Check the weather forecast for Oslo tomorrow. Then email the forecast to the team."}
        {"id": "q2", "text": "Send an email message to my manager."}
        """);
        Files.writeString(dir.resolve("qrels.tsv"), "query-id\ttool-id\tscore\nq1\tweather\t1\nq2\tmail\t1\n");
    }

    private int bench(StringWriter out, StringWriter err, String... more) {
        String[] base = {"bench", "--queries-from=" + dir, "--work-dir=" + dir.resolve("work"), "--format=json"};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return Bench.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void the_sets_messages_are_timed_on_the_product_and_its_peers_with_their_ratios() throws Exception {
        writeDataset();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(bench(out, err, "--queries=10", "--warmup=2"))
                .as(err.toString())
                .isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString());
        assertThat(r.path("tools").asInt()).isEqualTo(2);
        assertThat(r.path("messages").asInt()).isEqualTo(2);
        assertThat(r.path("multi_clause_pct").asDouble()).isEqualTo(50.0);
        assertThat(r.path("measured").asInt()).isEqualTo(10);
        for (String v : new String[] {"select", "langchain4j", "dense", "embed"}) {
            assertThat(r.path(v + "_p50_ms").asDouble()).as(v).isPositive();
            assertThat(r.path(v + "_p99_ms").asDouble())
                    .as(v)
                    .isGreaterThanOrEqualTo(r.path(v + "_p50_ms").asDouble());
        }
        assertThat(r.path("select_to_langchain4j_p50").asDouble()).isPositive();
        assertThat(r.path("select_to_embed_p99").asDouble()).isPositive();
    }

    @Test
    void qrels_without_queries_from_and_too_few_queries_are_bad_input_naming_the_option() throws Exception {
        StringWriter err = new StringWriter();
        assertThat(Bench.run(
                        new String[] {"bench", "--qrels=qrels.tsv"},
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(err, true)))
                .isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString()).contains("--qrels needs --queries-from, got: --qrels qrels.tsv");

        writeDataset();
        StringWriter err2 = new StringWriter();
        assertThat(bench(new StringWriter(), err2, "--queries=5")).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err2.toString()).contains("--queries must be at least 10, got: 5");
    }
}
