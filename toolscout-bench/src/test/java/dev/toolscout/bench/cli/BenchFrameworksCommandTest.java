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

/**
 * {@code scripts/bench.sh bench-frameworks}: a set through LangChain4j's strategy and the product's real engine, side
 * by side.
 */
class BenchFrameworksCommandTest {
    @TempDir
    Path dir;

    private void writeDataset() throws IOException {
        Files.writeString(dir.resolve("tools.jsonl"), """
        {"id": "mail", "name": "send_email", "description": "Send an email message to a recipient."}
        {"id": "weather", "name": "forecast", "description": "Weather forecast for a city."}
        {"id": "files", "name": "read_file", "description": "Read a file from disk."}
        """);
        Files.writeString(dir.resolve("queries.jsonl"), """
        {"id": "q1", "text": "Send an email message to my manager."}
        {"id": "q2", "text": "What is the weather forecast for Oslo?"}
        {"id": "q3", "text": "Read the notes file from disk."}
        """);
        Files.writeString(
                dir.resolve("qrels.tsv"), "query-id\ttool-id\tscore\nq1\tmail\t1\nq2\tweather\t1\nq3\tfiles\t1\n");
    }

    private int run(StringWriter out, StringWriter err, String... args) {
        return Bench.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void every_retriever_scores_the_sets_queries_and_the_definitions_it_returns() throws Exception {
        writeDataset();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String set = "tiny|" + dir + "|qrels.tsv|2";
        assertThat(run(
                        out,
                        err,
                        "bench-frameworks",
                        "--set",
                        set,
                        "--work-dir=" + dir.resolve("work"),
                        "--format=json"))
                .as(err.toString())
                .isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString()).get(0);
        assertThat(r.path("set").asText()).isEqualTo("tiny");
        assertThat(r.path("tools").asInt()).isEqualTo(3);
        assertThat(r.path("queries").asInt()).isEqualTo(2); // the set's limit
        for (String retriever : new String[] {"langchain4j", "find", "select"}) {
            JsonNode s = r.path("retrievers").path(retriever);
            // three tools, each returns them all: every gold tool is in the top 5 and 10
            assertThat(s.path("recall@5").asDouble()).as(retriever).isEqualTo(100.0);
            assertThat(s.path("complete@10").asDouble()).as(retriever).isEqualTo(100.0);
            assertThat(s.path("ndcg@10").asDouble()).as(retriever).isPositive();
            assertThat(s.path("empty").asInt()).as(retriever).isZero();
        }
        // LangChain4j returns every tool (no cut-off score): the most definitions any of them can return
        double lc4j = r.path("retrievers").path("langchain4j").path("tokens").asDouble();
        assertThat(lc4j).isPositive();
        assertThat(r.path("retrievers").path("find").path("tokens").asDouble())
                .isPositive()
                .isLessThanOrEqualTo(lc4j);

        StringWriter md = new StringWriter();
        assertThat(run(md, new StringWriter(), "bench-frameworks", "--set", set, "--work-dir=" + dir.resolve("work")))
                .isZero();
        assertThat(md.toString())
                .startsWith("| set | tools | queries | R@5 (LangChain4j / find / select) |")
                .contains("| tiny | 3 | 2 | 100.0 / 100.0 / 100.0 |");
    }

    @Test
    void a_set_that_is_not_four_fields_or_has_a_bad_limit_is_bad_input_naming_it() {
        StringWriter err = new StringWriter();
        assertThat(run(new StringWriter(), err, "bench-frameworks", "--set", "tiny|" + dir))
                .isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString())
                .contains("--set must be LABEL|DIR|QRELS|LIMIT (LIMIT may be empty), got: 'tiny|" + dir + "'");
        StringWriter err2 = new StringWriter();
        assertThat(run(new StringWriter(), err2, "bench-frameworks", "--set", "tiny|" + dir + "|qrels.tsv|0"))
                .isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err2.toString()).contains("--set's LIMIT must be a whole number of at least 1, got: '0'");
    }
}
