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

    /**
     * A dataset in the layout of ../shared/datasets/* ({@code <set>/normalized/} with tools, queries and qrels.test
     * and qrels.train), whose {@code long} query is a request followed by a pasted document of 20,000 characters.
     */
    private Path longQueryDataset(String extraTrainQuery) throws IOException {
        Path set = dir.resolve("long-set");
        Path norm = Files.createDirectories(set.resolve("normalized"));
        String pasted = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ";
        String request = "email Bob the minutes of the meeting pasted below: ";
        String longText = request + pasted.repeat((20_000 - request.length()) / pasted.length() + 1);
        longText = longText.substring(0, 20_000);
        ObjectMapper m = new ObjectMapper();
        Files.writeString(
                norm.resolve("tools.jsonl"),
                String.join(
                        "\n",
                        "{\"id\": \"w\", \"name\": \"get_weather_forecast\", \"description\": \"Weather forecast for a city\"}",
                        "{\"id\": \"m\", \"name\": \"send_email\", \"description\": \"Send an email message to a recipient\"}",
                        "{\"id\": \"c\", \"name\": \"create_calendar_event\", \"description\": \"Add an event to the calendar\"}"));
        Files.writeString(
                norm.resolve("queries.jsonl"),
                String.join(
                        "\n",
                        "{\"id\": \"q1\", \"text\": \"will it rain in Paris tomorrow\"}",
                        m.createObjectNode()
                                .put("id", "long")
                                .put("text", longText)
                                .toString(),
                        "{\"id\": \"q3\", \"text\": \"put the team meeting on my calendar\"}",
                        "{\"id\": \"t1\", \"text\": \"send a message to Alice\"}",
                        m.createObjectNode()
                                .put("id", "t2")
                                .put("text", extraTrainQuery == null ? "forecast for Rome" : extraTrainQuery)
                                .toString()));
        Files.writeString(norm.resolve("qrels.test.tsv"), "query-id\ttool-id\tscore\nq1\tw\t1\nlong\tm\t1\nq3\tc\t1\n");
        Files.writeString(norm.resolve("qrels.train.tsv"), "query-id\ttool-id\tscore\nt1\tm\t1\nt2\tw\t1\n");
        return set;
    }

    @Test
    void a_query_longer_than_the_ranking_reads_is_ranked_on_its_first_part_and_the_run_says_one_was_shortened()
            throws Exception {
        Path set = longQueryDataset(null);
        Path perQuery = dir.resolve("per-query.jsonl");
        String[] args = {
            "eval",
            "--dataset=" + set,
            "--qrels=qrels.test.tsv",
            "--work-dir=" + dir.resolve("work"),
            "--format=json",
            "--per-query=" + perQuery
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(ToolScoutCli.run(args, new PrintWriter(out), new PrintWriter(err, true)))
                .as(err.toString())
                .isZero();
        assertThat(err.toString())
                .contains("eval: shortened 1 of 3 queries: longer than the ranking reads (8,192 characters), each was"
                        + " ranked on its first part");
        JsonNode r = new ObjectMapper().readTree(out.toString());
        assertThat(r.path("queries").asInt()).as(out.toString()).isEqualTo(3);
        assertThat(r.path("shortened").isInt()).as(out.toString()).isTrue();
        assertThat(r.path("shortened").asInt()).as(out.toString()).isEqualTo(1);
        // its first part asks for an email: the long query is scored, and on what it asks
        JsonNode longLine =
                new ObjectMapper().readTree(Files.readAllLines(perQuery).get(1));
        assertThat(longLine.path("id").asText()).isEqualTo("long");
        assertThat(longLine.path("gold_ranks").path("m").asInt()).isEqualTo(1);

        // the table says it too, on stdout beside the figures, not only in the progress on stderr
        StringWriter table = new StringWriter();
        assertThat(ToolScoutCli.run(
                        new String[] {
                            "eval", "--dataset=" + set, "--qrels=qrels.test.tsv", "--work-dir=" + dir.resolve("work")
                        },
                        new PrintWriter(table),
                        new PrintWriter(new StringWriter(), true)))
                .isZero();
        assertThat(table.toString())
                .contains("  shortened 1 of 3 queries: longer than the ranking reads (8,192 characters), each ranked"
                        + " on its first part");
    }

    @Test
    void learning_from_a_set_with_a_long_query_and_scoring_one_past_every_cap_still_finishes() throws Exception {
        // one learned query past the learned-message cap (16,384), one scored past even a request's (1 Mi)
        Path set = longQueryDataset("forecast for Rome " + "and more words ".repeat(2_000));
        Path queries = set.resolve("normalized/queries.jsonl");
        String huge = "will it rain in Paris tomorrow "
                + "x".repeat(dev.toolscout.model.InputLimits.MAX_REQUEST_MESSAGE_CHARS);
        Files.writeString(
                queries,
                Files.readString(queries)
                        .replace(
                                "{\"id\": \"q1\", \"text\": \"will it rain in Paris tomorrow\"}",
                                new ObjectMapper()
                                        .createObjectNode()
                                        .put("id", "q1")
                                        .put("text", huge)
                                        .toString()));
        String[] args = {
            "eval",
            "--dataset=" + set,
            "--qrels=qrels.test.tsv",
            "--learn-qrels=qrels.train.tsv",
            "--work-dir=" + dir.resolve("work"),
            "--format=json"
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(ToolScoutCli.run(args, new PrintWriter(out), new PrintWriter(err, true)))
                .as(err.toString())
                .isZero();
        assertThat(err.toString()).contains("eval: shortened 2 of 3 queries", "eval: learned ");
        JsonNode r = new ObjectMapper().readTree(out.toString());
        assertThat(r.path("queries").asInt()).isEqualTo(3);
        // the learned run and the run without learning scored the same queries: both say two were shortened
        assertThat(r.path("shortened").asInt()).as(out.toString()).isEqualTo(2);
        assertThat(r.path("without_learning").path("shortened").asInt()).isEqualTo(2);
    }
}
