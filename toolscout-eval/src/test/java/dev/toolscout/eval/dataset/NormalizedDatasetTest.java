package dev.toolscout.eval.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.ToolName;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NormalizedDatasetTest {
    @TempDir
    Path dir;

    private static final String TOOLS = """
      {"id": "send_mail", "name": "Send Mail", "description": "Sends an email.", "parameters": {"type": "object", \
      "properties": {"to": {"type": "str", "description": "Recipient."}, "body": {"type": "string"}}, \
      "required": ["to", "cc"]}}
      {"id": "7", "name": "Weather / Forecast", "description": "Get forecast", "text": "tool_name:Weather, \
      api_description:Get forecast, required_params: [{\\"name\\": \\"city\\"}]"}
      {"id": "login", "name": "GetUserToken", "description": "Get a token.", "documentation": {"parameters": \
      [{"name": "username", "in": "query", "schema": {"type": "str"}, "description": "The user."}, \
      {"name": "password", "required": true}], "url": "apis/get_user_token.py", "category": "N/A", "responses": \
      {"token": {"type": "str", "description": "The session token."}}, "examples": ["login alice", ""]}}
      {"id": "giveaways", "name": "live_giveaways", "description": "Live giveaways.", "documentation": \
      {"parameters": {"type": {"description": "Kind of giveaway.", "type": "str", "default": "game"}}}}
      {"id": "no-words", "name": "", "description": ""}
      {"id": "dup1", "name": "Send Mail", "description": "Sends another email."}
      {"id": 42, "name": "send mail", "description": "Yet another mailer."}
      """;
    private static final String QUERIES = """
      {"id": "q1", "text": "mail Bob the report", "subset": "single"}
      {"id": "q2", "text": "rain tomorrow in Paris?"}
      {"id": "q3", "text": "a query nobody scored"}
      """;

    private void write(String file, String content) throws IOException {
        Files.writeString(dir.resolve(file), content);
    }

    private NormalizedDataset writeValid() throws IOException {
        write("tools.jsonl", TOOLS);
        write("queries.jsonl", QUERIES);
        write("qrels.test.tsv", "query-id\ttool-id\tscore\nq2\t7\t1\nq1\tsend_mail\t1\nq1\t42\t1\nq1\tlogin\t0\n");
        return NormalizedDataset.read(dir);
    }

    private ToolSpec spec(NormalizedDataset d, String id) {
        return d.tool(id).orElseThrow().spec();
    }

    @Test
    void reads_tools_and_queries_in_file_order() throws IOException {
        NormalizedDataset d = writeValid();
        assertThat(d.tools())
                .extracting(DatasetTool::id)
                .containsExactly("send_mail", "7", "login", "giveaways", "no-words", "dup1", "42");
        assertThat(d.queries()).containsKeys("q1", "q2", "q3");
        assertThat(d.queries().keySet()).containsExactly("q1", "q2", "q3");
        assertThat(d.qrelsFiles()).containsExactly("qrels.test.tsv");
    }

    @Test
    void wire_names_are_sanitized_source_action_names_keeping_the_dataset_id() throws IOException {
        NormalizedDataset d = writeValid();
        assertThat(spec(d, "send_mail").fullName()).isEqualTo("t__Send_Mail");
        assertThat(spec(d, "7").fullName()).isEqualTo("t__Weather_Forecast");
        assertThat(spec(d, "7").originalName()).isEqualTo("7");
        assertThat(spec(d, "7").sourceName()).isEqualTo("7");
        assertThat(spec(d, "no-words").fullName()).isEqualTo("t__no-words");
        for (DatasetTool t : d.tools()) {
            assertThat(t.spec().fullName()).matches(ToolName.WIRE.pattern());
            assertThat(t.spec().sourceName()).isEqualTo(t.id());
        }
    }

    @Test
    void names_equal_ignoring_case_get_numeric_suffixes_in_file_order() throws IOException {
        NormalizedDataset d = writeValid();
        assertThat(spec(d, "dup1").fullName()).isEqualTo("t__Send_Mail_2");
        assertThat(spec(d, "42").fullName()).isEqualTo("t__send_mail_3");
    }

    @Test
    void long_names_are_cut_to_the_64_character_wire_limit_and_stay_unique() throws IOException {
        String longName = "Very Long Tool Name ".repeat(6);
        write(
                "tools.jsonl",
                "{\"id\": \"a\", \"name\": \"" + longName + "\", \"description\": \"d\"}\n"
                        + "{\"id\": \"b\", \"name\": \"" + longName + "\", \"description\": \"d\"}\n");
        write("queries.jsonl", QUERIES);
        NormalizedDataset d = NormalizedDataset.read(dir);
        String a = spec(d, "a").fullName();
        String b = spec(d, "b").fullName();
        assertThat(a).hasSizeLessThanOrEqualTo(64).startsWith("t__Very_Long_Tool_Name");
        assertThat(b).hasSizeLessThanOrEqualTo(64).endsWith("_2").isNotEqualTo(a);
    }

    @Test
    void json_schema_is_kept_with_python_types_mapped_and_unknown_required_dropped() throws IOException {
        NormalizedDataset d = writeValid();
        JsonNode schema = spec(d, "send_mail").parameters();
        assertThat(schema.at("/properties/to/type").asText()).isEqualTo("string");
        assertThat(schema.at("/properties/to/description").asText()).isEqualTo("Recipient.");
        assertThat(spec(d, "send_mail").requiredParameters()).containsExactly("to");
        assertThat(d.warnings())
                .anySatisfy(w -> assertThat(w).contains("tools.jsonl:1").contains("\"cc\""));
    }

    @Test
    void a_dict_typed_schema_keeps_its_parameters_and_an_unreadable_one_is_counted() throws IOException {
        write(
                "tools.jsonl",
                "{\"id\": \"a\", \"name\": \"book\", \"description\": \"Book a room.\", \"parameters\": "
                        + "{\"type\": \"dict\", \"properties\": {\"city\": {\"type\": \"str\", \"description\": \"Where.\"}}}}\n"
                        + "{\"id\": \"b\", \"name\": \"pay\", \"description\": \"Pay.\", \"parameters\": {\"type\": \"string\"}}\n");
        write("queries.jsonl", QUERIES);
        NormalizedDataset d = NormalizedDataset.read(dir);
        assertThat(spec(d, "a").parameterNames()).containsExactly("city");
        assertThat(spec(d, "a").parameters().at("/properties/city/type").asText())
                .isEqualTo("string");
        assertThat(spec(d, "b").description()).isEqualTo("Pay.");
        assertThat(d.unreadableSchemas())
                .singleElement()
                .asString()
                .contains("tools.jsonl:2")
                .contains("'b'");
    }

    @Test
    void parameter_list_becomes_an_object_schema() throws IOException {
        ToolSpec login = spec(writeValid(), "login");
        assertThat(login.parameterNames()).containsExactly("username", "password");
        assertThat(login.parameters().at("/properties/username/type").asText()).isEqualTo("string");
        assertThat(login.parameters().at("/properties/username/description").asText())
                .isEqualTo("The user.");
        assertThat(login.requiredParameters()).containsExactly("password");
    }

    @Test
    void parameter_map_becomes_an_object_schema_even_with_a_parameter_named_type() throws IOException {
        ToolSpec giveaways = spec(writeValid(), "giveaways");
        assertThat(giveaways.parameterNames()).containsExactly("type");
        assertThat(giveaways.parameters().at("/properties/type/description").asText())
                .isEqualTo("Kind of giveaway.");
        assertThat(ToolText.embeddingText(giveaways)).contains("Parameters: type.");
    }

    @Test
    void flattened_text_becomes_the_description() throws IOException {
        NormalizedDataset d = writeValid();
        assertThat(spec(d, "7").description()).startsWith("tool_name:Weather").contains("required_params");
        assertThat(spec(d, "7").parameterNames()).isEmpty();
    }

    @Test
    void documentation_fields_not_read_elsewhere_are_the_tool_text() throws IOException {
        NormalizedDataset d = writeValid();
        assertThat(spec(d, "login").description())
                .isEqualTo("Get a token.\napis/get_user_token.py\ntoken str The session token.\nlogin alice");
        assertThat(spec(d, "login").parameterNames()).containsExactly("username", "password");
        assertThat(spec(d, "giveaways").description()).isEqualTo("Live giveaways.");
    }

    @Test
    void tool_without_description_or_text_falls_back_to_its_name_with_a_warning() throws IOException {
        NormalizedDataset d = writeValid();
        assertThat(spec(d, "no-words").description()).isEqualTo("no-words");
        assertThat(d.warnings())
                .anySatisfy(w -> assertThat(w).contains("tools.jsonl:5").contains("no description"));
    }

    @Test
    void scored_queries_follow_queries_file_order_and_skip_zero_scores_and_unscored_queries() throws IOException {
        List<ScoredQuery> scored = writeValid().scoredQueries("qrels.test.tsv");
        assertThat(scored).extracting(ScoredQuery::id).containsExactly("q1", "q2");
        assertThat(scored.get(0).gold()).containsExactly("send_mail", "42");
        assertThat(scored.get(0).text()).isEqualTo("mail Bob the report");
        assertThat(scored.get(1).gold()).containsExactly("7");
    }

    @Test
    void a_step_column_groups_equivalent_gold_tools_and_equal_steps_are_one() throws IOException {
        NormalizedDataset d = writeValid();
        write(
                "qrels.anyof.tsv",
                "query-id\ttool-id\tscore\tstep\nq1\tsend_mail\t1\t1\nq1\t42\t1\t1\n"
                        + "q1\tlogin\t1\t2\nq2\t7\t1\ta\nq2\t7\t1\tb\n");
        List<ScoredQuery> scored = d.scoredQueries("qrels.anyof.tsv");
        assertThat(scored.get(0).steps()).containsExactly(Set.of("send_mail", "42"), Set.of("login"));
        assertThat(scored.get(0).gold()).containsExactly("send_mail", "42", "login");
        assertThat(scored.get(0).anyOf()).isTrue();
        assertThat(scored.get(1).steps()).containsExactly(Set.of("7"));
        assertThat(scored.get(1).anyOf()).isFalse();
        // overlapping steps as many as the tools are still any-of
        assertThat(new ScoredQuery("q", "t", Set.of("a", "b"), List.of(Set.of("a", "b"), Set.of("b"))).anyOf())
                .isTrue();
        // without the column each gold tool is a step of its own
        assertThat(d.scoredQueries("qrels.test.tsv").get(0).steps()).containsExactly(Set.of("send_mail"), Set.of("42"));
        write("qrels.bad.tsv", "query-id\ttool-id\tscore\tstep\nq1\tsend_mail\t1\n");
        assertThatThrownBy(() -> d.scoredQueries("qrels.bad.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining(
                        "qrels.bad.tsv:2: expected 4 tab-separated columns (query-id, tool-id, score, step)");
        write("qrels.bad2.tsv", "query-id\ttool-id\tscore\tgroup\nq1\tsend_mail\t1\t1\n");
        assertThatThrownBy(() -> d.scoredQueries("qrels.bad2.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("qrels.bad2.tsv:1: expected the header");
    }

    @Test
    void gold_tools_keep_the_order_they_are_given_in() {
        List<String> ids = java.util.stream.IntStream.range(0, 40)
                .mapToObj(i -> "tool-" + (39 - i))
                .toList();
        ScoredQuery q = new ScoredQuery("q", "text", new java.util.LinkedHashSet<>(ids));
        assertThat(q.gold()).containsExactlyElementsOf(ids);
        assertThatThrownBy(() -> q.gold().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void missing_tools_file_names_the_file() throws IOException {
        write("queries.jsonl", QUERIES);
        assertThatThrownBy(() -> NormalizedDataset.read(dir))
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(dir.resolve("tools.jsonl") + ":0: missing");
    }

    @Test
    void missing_qrels_file_names_the_file() throws IOException {
        NormalizedDataset d = writeValid();
        assertThatThrownBy(() -> d.scoredQueries("qrels.dev.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("qrels.dev.tsv:0: missing");
    }

    @Test
    void malformed_tool_line_names_file_and_line() throws IOException {
        write("tools.jsonl", "{\"id\": \"a\", \"description\": \"d\"}\n{\"id\": \"b\", \"description\": \n");
        write("queries.jsonl", QUERIES);
        assertThatThrownBy(() -> NormalizedDataset.read(dir))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("tools.jsonl:2: malformed JSON")
                .satisfies(e -> assertThat(((DatasetException) e).line()).isEqualTo(2));
    }

    @Test
    void line_that_is_not_an_object_names_file_and_line() throws IOException {
        write("tools.jsonl", "{\"id\": \"a\", \"description\": \"d\"}\n\n[1, 2]\n");
        write("queries.jsonl", QUERIES);
        assertThatThrownBy(() -> NormalizedDataset.read(dir))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("tools.jsonl:3: expected a JSON object, got: ARRAY");
    }

    @Test
    void tool_without_id_names_file_and_line() throws IOException {
        write("tools.jsonl", "{\"name\": \"a\", \"description\": \"d\"}\n");
        write("queries.jsonl", QUERIES);
        assertThatThrownBy(() -> NormalizedDataset.read(dir))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("tools.jsonl:1: needs a non-blank \"id\"");
    }

    @Test
    void repeated_tool_id_names_file_and_line() throws IOException {
        write("tools.jsonl", "{\"id\": \"a\", \"description\": \"d\"}\n{\"id\": \"a\", \"description\": \"e\"}\n");
        write("queries.jsonl", QUERIES);
        assertThatThrownBy(() -> NormalizedDataset.read(dir))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("tools.jsonl:2: tool id 'a' appears twice");
    }

    @Test
    void query_without_text_names_file_and_line() throws IOException {
        write("tools.jsonl", TOOLS);
        write("queries.jsonl", "{\"id\": \"q1\", \"text\": \"hi\"}\n{\"id\": \"q2\", \"query\": \"hi\"}\n");
        assertThatThrownBy(() -> NormalizedDataset.read(dir))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("queries.jsonl:2: query 'q2' needs a non-blank string \"text\"");
    }

    @Test
    void qrels_naming_an_unknown_tool_names_file_line_and_tool() throws IOException {
        NormalizedDataset d = writeValid();
        write("qrels.bad.tsv", "query-id\ttool-id\tscore\nq1\tsend_mail\t1\nq1\tnope\t1\n");
        assertThatThrownBy(() -> d.scoredQueries("qrels.bad.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("qrels.bad.tsv:3: tool 'nope' is not in tools.jsonl");
    }

    @Test
    void qrels_naming_an_unknown_query_names_file_line_and_query() throws IOException {
        NormalizedDataset d = writeValid();
        write("qrels.bad.tsv", "query-id\ttool-id\tscore\nq9\tsend_mail\t1\n");
        assertThatThrownBy(() -> d.scoredQueries("qrels.bad.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("qrels.bad.tsv:2: query 'q9' is not in queries.jsonl");
    }

    @Test
    void qrels_without_header_or_with_a_bad_line_names_file_and_line() throws IOException {
        NormalizedDataset d = writeValid();
        write("qrels.a.tsv", "q1\tsend_mail\t1\n");
        assertThatThrownBy(() -> d.scoredQueries("qrels.a.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("qrels.a.tsv:1: expected the header");
        write("qrels.b.tsv", "query-id\ttool-id\tscore\nq1 send_mail 1\n");
        assertThatThrownBy(() -> d.scoredQueries("qrels.b.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("qrels.b.tsv:2: expected 3 tab-separated columns");
        write("qrels.c.tsv", "query-id\ttool-id\tscore\nq1\tsend_mail\thigh\n");
        assertThatThrownBy(() -> d.scoredQueries("qrels.c.tsv"))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("qrels.c.tsv:2: score must be a number, got: 'high'");
    }

    @Test
    void depends_on_maps_ids_and_names_to_wire_names_and_drops_unknown_ones_with_a_warning() throws IOException {
        write("tools.jsonl", """
        {"id": "a", "name": "Login", "description": "Logs in."}
        {"id": "b", "name": "List Files", "description": "Lists files.", "depends_on": ["a", "ghost", "b"]}
        {"id": "c", "name": "Upload", "description": "Uploads.", "depends_on": [{"name": "List Files"}, 7]}
        """);
        write("queries.jsonl", QUERIES);
        NormalizedDataset d = NormalizedDataset.read(dir);
        assertThat(spec(d, "a").dependsOn()).isEmpty();
        assertThat(spec(d, "b").dependsOn()).containsExactly("t__Login");
        assertThat(spec(d, "c").dependsOn()).containsExactly("t__List_Files");
        assertThat(d.warnings())
                .anyMatch(w -> w.contains("tools.jsonl:2: tool 'b': depends_on names an unknown tool 'ghost'"))
                .anyMatch(w -> w.contains("tools.jsonl:2: tool 'b': depends_on names the tool itself"))
                .anyMatch(w -> w.contains("tools.jsonl:3: tool 'c': depends_on names an unknown tool '7'"));
    }
}
