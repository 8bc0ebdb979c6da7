package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalCommandInputTest {
    @TempDir
    Path dir;

    /** Writes the dataset's three files. */
    private void write(String tools, String queries, String qrels) throws IOException {
        Files.writeString(dir.resolve("tools.jsonl"), tools);
        Files.writeString(dir.resolve("queries.jsonl"), queries);
        Files.writeString(dir.resolve("qrels.tsv"), qrels);
    }

    private int eval(StringWriter err) {
        String[] args = {"eval", "--dataset=" + dir, "--work-dir=" + dir.resolve("work"), "--format=json"};
        return ToolScoutCli.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    }

    @Test
    void a_malformed_tools_line_is_bad_input_naming_file_and_line() throws Exception {
        write(
                "{\"id\": \"a\", \"name\": \"x\", \"description\": \"d\"}\n{oops\n",
                "{\"id\": \"q\", \"text\": \"hi\"}\n",
                "query-id\ttool-id\tscore\nq\ta\t1\n");
        StringWriter err = new StringWriter();
        assertThat(eval(err)).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString()).contains("tools.jsonl:2: malformed JSON").doesNotContain("\tat ");
    }

    @Test
    void qrels_naming_an_unknown_tool_is_bad_input_naming_file_and_line() throws Exception {
        write(
                "{\"id\": \"a\", \"name\": \"x\", \"description\": \"d\"}\n",
                "{\"id\": \"q\", \"text\": \"hi\"}\n",
                "query-id\ttool-id\tscore\nq\tnope\t1\n");
        StringWriter err = new StringWriter();
        assertThat(eval(err)).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString()).contains("qrels.tsv:2: tool 'nope' is not in tools.jsonl");
    }

    @Test
    void a_missing_file_is_bad_input_naming_it() {
        StringWriter err = new StringWriter();
        assertThat(eval(err)).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString()).contains("tools.jsonl:0: missing");
    }

    @Test
    void per_query_writes_one_line_per_scored_query_with_the_rank_of_each_gold_tool() throws Exception {
        write(
                String.join(
                        "\n",
                        "{\"id\": \"w.forecast\", \"name\": \"get_weather_forecast\", \"description\": \"Weather forecast for a city\"}",
                        "{\"id\": \"m:send\", \"name\": \"send_email\", \"description\": \"Send an email message to a recipient\"}",
                        "{\"id\": \"c add\", \"name\": \"create_calendar_event\", \"description\": \"Add an event to the calendar\"}"),
                String.join(
                        "\n",
                        "{\"id\": \"q1\", \"text\": \"will it rain in Paris tomorrow\"}",
                        "{\"id\": \"q2\", \"text\": \"email Bob the weather forecast\"}",
                        "{\"id\": \"q3\", \"text\": \"not scored: no qrels line\"}"),
                "query-id\ttool-id\tscore\nq1\tw.forecast\t1\nq2\tm:send\t1\nq2\tw.forecast\t1\n");
        Path out = dir.resolve("per-query.jsonl");
        String[] args = {
            "eval", "--dataset=" + dir, "--work-dir=" + dir.resolve("work"), "--format=json", "--per-query=" + out
        };
        StringWriter err = new StringWriter();
        assertThat(ToolScoutCli.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err, true)))
                .as(err.toString())
                .isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(2);
        ObjectMapper m = new ObjectMapper();
        JsonNode q2 = m.readTree(lines.get(1));
        assertThat(q2.get("id").asText()).isEqualTo("q2");
        assertThat(q2.get("text").asText()).isEqualTo("email Bob the weather forecast");
        List<String> top = new ArrayList<>();
        q2.get("top10").forEach(n -> top.add(n.asText()));
        assertThat(top).containsExactlyInAnyOrder("w.forecast", "m:send", "c add");
        for (String gold : List.of("m:send", "w.forecast")) {
            assertThat(q2.get("gold_ranks").get(gold).asInt()).isEqualTo(top.indexOf(gold) + 1);
        }
        assertThat(m.readTree(lines.get(0)).get("gold").get(0).asText()).isEqualTo("w.forecast");
        // the line's nDCG@10 is the one its gold ranks give (binary gains, percent, two decimals)
        double dcg = 0;
        for (String gold : List.of("m:send", "w.forecast")) {
            dcg += 1 / (Math.log(q2.get("gold_ranks").get(gold).asInt() + 1) / Math.log(2));
        }
        double ideal = 1 + 1 / (Math.log(3) / Math.log(2));
        assertThat(q2.get("ndcg@10").asDouble())
                .isCloseTo(100 * dcg / ideal, org.assertj.core.api.Assertions.within(0.01));
        assertThat(dir.resolve("per-query.jsonl.part")).doesNotExist();

        // BM25 ranks only tools that share a word: a gold tool it never matched has a null rank, and --by-name
        // reports names; the new file replaces the old one
        String[] bm25 = {
            "eval",
            "--dataset=" + dir,
            "--work-dir=" + dir.resolve("work"),
            "--format=json",
            "--retriever=bm25",
            "--by-name",
            "--per-query=" + out
        };
        assertThat(ToolScoutCli.run(bm25, new PrintWriter(new StringWriter()), new PrintWriter(err, true)))
                .as(err.toString())
                .isZero();
        JsonNode q1 = m.readTree(Files.readAllLines(out).get(0));
        assertThat(q1.get("gold").get(0).asText()).isEqualTo("get_weather_forecast");
        assertThat(q1.get("gold_ranks").get("get_weather_forecast").isNull()).isTrue(); // "rain in Paris tomorrow"
        assertThat(q1.get("ndcg@10").asDouble()).isZero();
    }

    @Test
    void per_query_into_a_missing_folder_is_bad_input_before_anything_is_embedded() throws Exception {
        write(
                "{\"id\": \"a\", \"name\": \"x\", \"description\": \"d\"}\n",
                "{\"id\": \"q\", \"text\": \"hi\"}\n",
                "query-id\ttool-id\tscore\nq\ta\t1\n");
        String[] args = {
            "eval",
            "--dataset=" + dir,
            "--work-dir=" + dir.resolve("work"),
            "--per-query=" + dir.resolve("no/such/folder/out.jsonl")
        };
        StringWriter err = new StringWriter();
        assertThat(ToolScoutCli.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err, true)))
                .isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString())
                .contains("--per-query", "no/such/folder/out.jsonl", "must be a file in an existing folder");
        assertThat(dir.resolve("work")).doesNotExist();
    }

    @Test
    void an_unknown_retriever_is_bad_input_naming_the_accepted_ones() {
        String[] args = {"eval", "--dataset=" + dir, "--retriever=dense_plain"};
        StringWriter err = new StringWriter();
        assertThat(ToolScoutCli.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err, true)))
                .isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err.toString()).contains("--retriever", "'dense_plain'", "dense-plain", "langchain4j");
    }
}
