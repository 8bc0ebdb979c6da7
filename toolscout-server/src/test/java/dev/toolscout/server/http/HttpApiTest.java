package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.RenderFormat;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.testing.LogCapture;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The HTTP API of {@code serve} with API keys (reader, user, admin), against the real engine and model on the
 * demo catalog, through the JDK's HTTP client. Every response any test here receives is checked against the
 * served OpenAPI document ({@link ApiClient}). Tests that write use names of their own, so order does not matter.
 */
@ResourceLock(LogCapture.LOGGERS)
class HttpApiTest {
    static final String DEMO_MESSAGE = "Schedule a meeting for tomorrow at 2pm";

    @TempDir
    static Path tmp;

    static ApiServer server;
    static ApiClient reader;
    static ApiClient user;
    static ApiClient admin;
    static ApiClient anonymous;

    @BeforeAll
    static void start() throws Exception {
        server = ApiServer.withKeys(tmp.resolve("data"), HttpApi.Options.DEFAULT);
        reader = server.client.as(ApiServer.READER);
        user = server.client.as(ApiServer.USER);
        admin = server.client.as(ApiServer.ADMIN);
        anonymous = server.client.as(null);
        server.awaitReady();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static JsonNode json(HttpResponse<String> r) {
        return ApiClient.json(r);
    }

    /** A problem+json answer with this status, clean of anything internal. */
    static JsonNode problem(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(r.body())
                .doesNotContain("Exception")
                .doesNotContain("at dev.")
                .doesNotContain("at java.")
                .doesNotContain("com.fasterxml");
        JsonNode p = json(r);
        assertThat(p.path("status").asInt()).isEqualTo(status);
        assertThat(p.path("type").asText()).startsWith("urn:toolscout:problem:");
        assertThat(p.path("detail").asText()).isNotBlank();
        return p;
    }

    @Test
    void openapi_json_is_valid_openapi_3_1_and_describes_every_route() {
        HttpResponse<String> r = anonymous.get("/openapi.json");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(server.contract.documentErrors()).isEmpty();
        JsonNode doc = json(r);
        assertThat(doc.path("openapi").asText()).isEqualTo("3.1.0");
        Set<String> operations = new TreeSet<>();
        doc.path("paths")
                .properties()
                .forEach(p -> p.getValue()
                        .fieldNames()
                        .forEachRemaining(
                                m -> operations.add(m.toUpperCase(java.util.Locale.ROOT) + " " + p.getKey())));
        assertThat(operations)
                .contains(
                        "POST /v1/select",
                        "POST /v1/tools/search",
                        "GET /v1/tools",
                        "GET /v1/tools/{name}",
                        "PUT /v1/tools/{name}",
                        "DELETE /v1/tools/{name}",
                        "POST /v1/tools:batch",
                        "GET /v1/policy",
                        "PUT /v1/policy",
                        "GET /v1/servers",
                        "POST /v1/servers",
                        "DELETE /v1/servers/{name}",
                        "GET /healthz",
                        "GET /readyz",
                        "GET /metrics",
                        "GET /openapi.json",
                        "GET /",
                        "GET /console/{asset}",
                        "GET /v1/whoami",
                        "GET /v1/catalog",
                        "GET /v1/tools/{name}/access",
                        "GET /v1/principals",
                        "GET /v1/usage/requests");
    }

    @Test
    void the_contract_refuses_an_answer_that_strays_from_the_document() throws Exception {
        String good =
                reader.post("/v1/select", "{\"message\": \"send an email\"}").body();
        ObjectNode extra = (ObjectNode) ApiClient.JSON.readTree(good);
        extra.put("debug", true);
        ObjectNode wrongType = (ObjectNode) ApiClient.JSON.readTree(good);
        wrongType.put("excluded_count", "many");

        assertThat(server.contract.errors("POST", "/v1/select", 200, "application/json", good))
                .isEmpty();
        assertThat(server.contract.errors("POST", "/v1/select", 200, "application/json", extra.toString()))
                .isNotEmpty();
        assertThat(server.contract.errors("POST", "/v1/select", 200, "application/json", wrongType.toString()))
                .isNotEmpty();
        assertThat(server.contract.errors(
                        "GET",
                        "/v1/tools/{name}",
                        404,
                        "application/problem+json",
                        "{\"type\": \"x\", \"title\": \"t\", \"status\": 404}"))
                .as("no detail")
                .isNotEmpty();
    }

    @Test
    void select_on_the_demo_message_answers_the_fields_of_select_format_json() {
        HttpResponse<String> r = reader.post("/v1/select", "{\"message\": \"" + DEMO_MESSAGE + "\"}");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode s = json(r);
        assertThat(s.fieldNames())
                .toIterable()
                .containsExactlyInAnyOrder(
                        "selected",
                        "core_included",
                        "excluded_count",
                        "reason",
                        "discovery_suggested",
                        "tokens",
                        "route");
        assertThat(s.path("selected").size()).isEqualTo(10);
        assertThat(names(s.path("selected"))).contains("calendar__create_event");
        assertThat(s.path("tokens").path("saved_pct").asDouble()).isGreaterThan(50);
        // the same answer the library gives the same principal: the HTTP API adds nothing and drops nothing
        JsonNode inProcess = server.scout.render(
                server.scout.select(new SelectRequest(
                        DEMO_MESSAGE, ApiServer.KEYS.get(ApiServer.READER).principal(), null, null, null)),
                RenderFormat.JSON);
        assertThat(r.body()).isEqualTo(inProcess.toString());
    }

    @Test
    void select_takes_k_token_budget_conversation_and_renders_each_format() {
        JsonNode k3 = json(reader.post(
                "/v1/select",
                "{\"message\": \"send an email\", \"k\": 3, \"token_budget\": 5000,"
                        + " \"conversation_id\": \"c-1.2:x\"}"));
        assertThat(k3.path("selected").size()).isEqualTo(3);

        JsonNode anthropic =
                json(reader.post("/v1/select", "{\"message\": \"send an email\", \"format\": \"anthropic\"}"));
        assertThat(anthropic.path("system").asText()).isNotBlank();
        assertThat(anthropic.path("tools").get(0).has("input_schema")).isTrue();
        JsonNode openai = json(reader.post("/v1/select", "{\"message\": \"send an email\", \"format\": \"openai\"}"));
        assertThat(openai.path("tools").get(0).path("type").asText()).isEqualTo("function");
        JsonNode mcp = json(reader.post("/v1/select", "{\"message\": \"send an email\", \"format\": \"mcp\"}"));
        assertThat(mcp.path("tools").get(0).has("inputSchema")).isTrue();
    }

    @Test
    void select_refuses_bad_input_naming_the_input_the_rule_and_the_value() {
        JsonNode k = problem(reader.post("/v1/select", "{\"message\": \"x\", \"k\": 0}"), 400);
        assertThat(k.path("input").asText()).isEqualTo("k");
        assertThat(k.path("rule").asText()).isEqualTo("an integer between 1 and 50");
        assertThat(k.path("value").asInt()).isZero();
        assertThat(k.path("detail").asText()).isEqualTo("k must be an integer between 1 and 50, got: 0");

        JsonNode misspelt = problem(reader.post("/v1/select", "{\"message\": \"x\", \"tokenBudget\": 10}"), 400);
        assertThat(misspelt.path("input").asText()).isEqualTo("tokenBudget");
        assertThat(misspelt.path("detail").asText())
                .contains("unknown field 'tokenBudget'")
                .contains("token_budget");

        assertThat(problem(reader.post("/v1/select", "{\"k\": 3}"), 400)
                        .path("input")
                        .asText())
                .isEqualTo("message");
        // longer than the ranking reads: ranked on its first part, and the answer says so
        HttpResponse<String> pasted = reader.post(
                "/v1/select", "{\"message\": \"send an email with this text: " + "a".repeat(20_000) + "\"}");
        assertThat(pasted.statusCode()).as(pasted.body()).isEqualTo(200);
        JsonNode shortened = json(pasted).path("shortened");
        assertThat(shortened.path("from_chars").asInt()).isEqualTo(20_030);
        assertThat(shortened.path("to_chars").asInt()).isEqualTo(8_192);
        // past the hard cap (under the body cap): refused, naming the field, the rule and the size
        JsonNode longMessage = problem(
                reader.post(
                        "/v1/select",
                        "{\"message\": \"" + "a".repeat(dev.toolscout.model.InputLimits.MAX_REQUEST_MESSAGE_CHARS + 1)
                                + "\"}"),
                400);
        assertThat(longMessage.path("detail").asText())
                .isEqualTo("message must be at most 1,048,576 characters, got: 1,048,577 characters");
        assertThat(longMessage.path("value").asText()).hasSizeLessThan(200);
        assertThat(problem(reader.post("/v1/select", "{\"message\": \"x\", \"format\": \"xml\"}"), 400)
                        .path("rule")
                        .asText())
                .isEqualTo("one of json, anthropic, anthropic-deferred, openai, mcp");
        assertThat(problem(reader.post("/v1/select", "{\"message\": \"x\", \"conversation_id\": \"a b\"}"), 400)
                        .path("input")
                        .asText())
                .isEqualTo("conversation_id");
        assertThat(problem(reader.post("/v1/select", "{\"message\": \"x\", \"k\": \"3\"}"), 400)
                        .path("detail")
                        .asText())
                .isEqualTo("k must be an integer between 1 and 50, got: \"3\"");
    }

    @Test
    void a_malformed_body_gets_a_problem_without_a_stack_trace() {
        for (String body : List.of(
                "{not json",
                "{\"message\": \"x\"} {}",
                "[1, 2]",
                "\"text\"",
                "null",
                "{\"message\": \"a\", \"message\": \"b\"}",
                "[".repeat(100) + "]".repeat(100),
                "")) {
            HttpResponse<String> r = reader.post("/v1/select", body);
            JsonNode p = problem(r, 400);
            assertThat(p.path("type").asText())
                    .as(body)
                    .isIn("urn:toolscout:problem:malformed-json", "urn:toolscout:problem:invalid-input");
        }
        assertThat(problem(reader.post("/v1/select", "{\"message\": \"a\", \"message\": \"b\"}"), 400)
                        .path("detail")
                        .asText())
                .contains("a field is given twice (message)");
        assertThat(problem(reader.post("/v1/select", "{not json"), 400)
                        .path("detail")
                        .asText())
                .startsWith("the request body is not valid JSON at line 1, column 2");
    }

    @Test
    void a_body_over_4_mib_gets_413_whether_its_length_is_declared_or_not() {
        String big = "{\"message\": \"" + "a".repeat(5 * 1024 * 1024) + "\"}";
        JsonNode declared = problem(reader.post("/v1/select", big), 413);
        assertThat(declared.path("detail").asText()).startsWith("the request body must be at most 4,194,304 bytes");

        HttpResponse<String> chunked = reader.send(reader.builder("/v1/select")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() ->
                        new java.io.ByteArrayInputStream(big.getBytes(java.nio.charset.StandardCharsets.UTF_8)))));
        problem(chunked, 413);
    }

    @Test
    void wrong_content_type_unknown_path_and_wrong_method_are_problems() {
        HttpResponse<String> text = reader.send(reader.builder("/v1/select")
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"message\": \"x\"}")));
        assertThat(problem(text, 415).path("detail").asText()).contains("Content-Type: application/json");

        assertThat(problem(reader.get("/v1/nothing-here"), 404).path("detail").asText())
                .contains("/openapi.json");
        HttpResponse<String> wrongMethod = reader.get("/v1/select");
        problem(wrongMethod, 405);
        assertThat(wrongMethod.headers().firstValue("Allow")).hasValue("POST");
        assertThat(problem(reader.get("/v1/tools?sort=name"), 400).path("input").asText())
                .isEqualTo("sort");
    }

    @Test
    void without_a_key_or_with_an_unknown_one_the_api_answers_401_and_names_no_key() {
        HttpResponse<String> none = anonymous.post("/v1/select", "{\"message\": \"x\"}");
        problem(none, 401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        HttpResponse<String> unknown =
                server.client.as("not-a-key-0000000000000").get("/v1/tools");
        assertThat(problem(unknown, 401).path("detail").asText()).isEqualTo("unknown API key");
        assertThat(unknown.body()).doesNotContain("not-a-key");

        assertThat(anonymous.get("/healthz").statusCode()).isEqualTo(200);
        assertThat(json(anonymous.get("/readyz")).path("status").asText()).isEqualTo("ready");
        assertThat(anonymous.get("/").body()).contains("/console/app.js");
    }

    @Test
    void search_finds_tools_the_caller_may_see() {
        JsonNode r = json(reader.post("/v1/tools/search", "{\"query\": \"send an email\", \"limit\": 5}"));

        assertThat(r.path("count").asInt()).isEqualTo(5);
        assertThat(names(r.path("tools"))).contains("gmail__send_email");
        assertThat(problem(reader.post("/v1/tools/search", "{\"query\": \"x\", \"limit\": 51}"), 400)
                        .path("input")
                        .asText())
                .isEqualTo("limit");
        assertThat(problem(reader.post("/v1/tools/search", "{\"query\": \"   \"}"), 400)
                        .path("rule")
                        .asText())
                .isEqualTo("not blank");
    }

    @Test
    void list_pages_through_the_visible_tools_by_category() {
        JsonNode first = json(reader.get("/v1/tools?limit=5"));
        JsonNode second = json(reader.get("/v1/tools?offset=5&limit=5"));

        assertThat(first.path("tools").size()).isEqualTo(5);
        assertThat(first.path("total").asInt()).isGreaterThan(10);
        assertThat(names(second.path("tools"))).doesNotContainAnyElementsOf(names(first.path("tools")));
        JsonNode calendar = json(reader.get("/v1/tools?category=Calendar"));
        assertThat(calendar.path("category").asText()).isEqualTo("calendar");
        assertThat(calendar.path("tools"))
                .allSatisfy(t -> assertThat(t.path("category").asText()).isEqualTo("calendar"));
        assertThat(calendar.path("total").asInt())
                .isEqualTo(calendar.path("categories").path("calendar").asInt());
        JsonNode bad = problem(reader.get("/v1/tools?limit=0"), 400);
        assertThat(bad.path("detail").asText())
                .isEqualTo("query parameter limit must be an integer between 1 and 1000, " + "got: '0'");
        problem(reader.get("/v1/tools?offset=-1"), 400);
        problem(reader.get("/v1/tools?limit=5&limit=6"), 400);
    }

    @Test
    void describe_answers_the_catalog_form_which_a_put_takes_back() {
        HttpResponse<String> r = reader.get("/v1/tools/gmail__send_email");

        JsonNode tool = json(r);
        assertThat(tool.path("name").asText()).isEqualTo("gmail__send_email");
        assertThat(tool.path("parameters").path("type").asText()).isEqualTo("object");
        assertThat(problem(reader.get("/v1/tools/nope__nothing"), 404)
                        .path("detail")
                        .asText())
                .isEqualTo("Tool not found: nope__nothing");
    }

    @Test
    void a_denied_tool_is_described_exactly_like_a_missing_one() {
        // the reader is in the group kids; the admin denies them one source
        ObjectNode policy = (ObjectNode) json(admin.get("/v1/policy"));
        try {
            HttpResponse<String> set = admin.put(
                    "/v1/policy", "{\"rules\": [{\"effect\": \"deny\", \"source\": \"gmail\", \"group\": \"kids\"}]}");
            assertThat(set.statusCode()).as(set.body()).isEqualTo(200);

            HttpResponse<String> denied = reader.get("/v1/tools/gmail__send_email");
            HttpResponse<String> missing = reader.get("/v1/tools/gmaix__send_email");

            assertThat(denied.statusCode()).isEqualTo(404).isEqualTo(missing.statusCode());
            assertThat(denied.headers().map())
                    .containsOnlyKeys(missing.headers().map().keySet());
            assertThat(denied.body().replace("gmail__", "gmaix__")).isEqualTo(missing.body());
            assertThat(json(admin.get("/v1/tools/gmail__send_email"))
                            .path("name")
                            .asText())
                    .isEqualTo("gmail__send_email");
            // who may use it is told only beside a tool the caller sees: the kids are not among its groups
            assertThat(json(admin.get("/v1/tools/gmail__send_email"))
                            .path("available_in_groups")
                            .toString())
                    .isEqualTo("[]");
            assertThat(json(reader.get("/v1/tools/calendar__create_event"))
                            .path("available_in_groups")
                            .toString())
                    .isEqualTo("[\"kids\"]");
            assertThat(denied.body()).doesNotContain("available_in_groups", "kids");
            assertThat(names(json(reader.post("/v1/tools/search", "{\"query\": \"send an email\"}"))
                            .path("tools")))
                    .noneMatch(n -> n.startsWith("gmail__"));
        } finally {
            assertThat(admin.put("/v1/policy?allow_unmatched=true", policy.toString())
                            .statusCode())
                    .isEqualTo(200);
        }
    }

    @Test
    void a_reader_or_a_user_cannot_write_anything() {
        String tool = "{\"description\": \"Never written.\"}";
        for (ApiClient c : List.of(reader, user)) {
            List<HttpResponse<String>> writes = new ArrayList<>(List.of(
                    c.put("/v1/tools/notes__never", tool),
                    c.post("/v1/tools:batch", "{\"deletes\": [\"gmail__send_email\"]}"),
                    c.delete("/v1/tools/gmail__send_email"),
                    c.put("/v1/policy", "{\"default\": \"deny\"}"),
                    c.get("/v1/policy"),
                    c.post("/v1/servers", "{\"name\": \"x\", \"url\": \"http://127.0.0.1:9/mcp\"}"),
                    c.delete("/v1/servers/x"),
                    c.get("/metrics")));
            for (HttpResponse<String> w : writes) {
                assertThat(problem(w, 403).path("detail").asText()).contains("needs an API key with the role admin");
            }
        }
        assertThat(json(admin.get("/v1/tools/gmail__send_email")).path("name").asText())
                .isEqualTo("gmail__send_email");
        problem(admin.get("/v1/tools/notes__never"), 404);
    }

    @Test
    void an_admin_adds_a_tool_and_the_next_selection_ranks_it() {
        String tool = """
        {"description": "Waters the plants in the greenhouse on a schedule.", "category": "home",
         "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}}}""";
        HttpResponse<String> added = admin.put("/v1/tools/greenhouse__water_plants", tool);
        assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
        assertThat(json(added).path("change").path("added").asInt()).isEqualTo(1);

        JsonNode s = json(reader.post("/v1/select", "{\"message\": \"water the plants in the greenhouse\", \"k\": 3}"));
        assertThat(names(s.path("selected"))).contains("greenhouse__water_plants");

        // what GET answers, PUT takes back unchanged
        HttpResponse<String> described = reader.get("/v1/tools/greenhouse__water_plants");
        HttpResponse<String> again = admin.put("/v1/tools/greenhouse__water_plants", described.body());
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(json(again).path("change").path("updated").asInt()).isZero();

        HttpResponse<String> removed = admin.delete("/v1/tools/greenhouse__water_plants");
        assertThat(json(removed).path("removed").asInt()).isEqualTo(1);
        assertThat(problem(admin.delete("/v1/tools/greenhouse__water_plants"), 404)
                        .path("detail")
                        .asText())
                .startsWith("Tool not found: greenhouse__water_plants");
    }

    @Test
    void a_put_is_refused_for_a_bad_tool_and_changes_nothing() {
        JsonNode mismatch =
                problem(admin.put("/v1/tools/shed__a", "{\"name\": \"shed__b\", \"description\": \"x\"}"), 400);
        assertThat(mismatch.path("input").asText()).isEqualTo("name");
        JsonNode unknown = problem(admin.put("/v1/tools/shed__a", "{\"description\": \"x\", \"title\": \"A\"}"), 400);
        assertThat(unknown.path("input").asText()).isEqualTo("title");
        JsonNode badName = problem(admin.put("/v1/tools/shed", "{\"description\": \"x\"}"), 400);
        assertThat(badName.path("input").asText()).isEqualTo("name");
        problem(admin.put("/v1/tools/shed__a", "{\"description\": \"\"}"), 400);
        JsonNode schema =
                problem(admin.put("/v1/tools/shed__a", "{\"description\": \"x\", \"parameters\": \"str\"}"), 400);
        assertThat(schema.path("input").asText()).isEqualTo("parameters");
        JsonNode mcp =
                problem(admin.put("/v1/tools/shed__a", "{\"description\": \"x\", \"source_kind\": \"mcp\"}"), 400);
        assertThat(mcp.path("input").asText()).isEqualTo("source_kind");
        problem(admin.get("/v1/tools/shed__a"), 404);
    }

    @Test
    void a_batch_writes_and_removes_together_or_not_at_all() {
        String upserts = "{\"upserts\": [{\"name\": \"barn__feed\", \"description\": \"Feeds the animals.\"},"
                + " {\"name\": \"barn__milk\", \"description\": \"Milks the cows.\"}]";
        JsonNode written = json(admin.post("/v1/tools:batch", upserts + "}"));
        assertThat(written.path("added").asInt()).isEqualTo(2);

        JsonNode missing = problem(
                admin.post(
                        "/v1/tools:batch",
                        "{\"upserts\": [{\"name\": \"barn__clean\", \"description\": \"Cleans.\"}], \"deletes\": [\"barn__feed\","
                                + " \"barn__nothing\"]}"),
                404);
        assertThat(missing.path("detail").asText()).contains("barn__nothing").contains("nothing was removed");
        problem(admin.get("/v1/tools/barn__clean"), 404);
        assertThat(admin.get("/v1/tools/barn__feed").statusCode()).isEqualTo(200);

        JsonNode twice = problem(
                admin.post(
                        "/v1/tools:batch",
                        "{\"upserts\": [{\"name\": \"barn__x\", "
                                + "\"description\": \"a\"}, {\"name\": \"barn__x\", \"description\": \"b\"}]}"),
                400);
        assertThat(twice.path("input").asText()).isEqualTo("upserts[1].name");
        assertThat(problem(admin.post("/v1/tools:batch", "{\"upserts\": [{\"name\": \"barn__y\"}]}"), 400)
                        .path("input")
                        .asText())
                .startsWith("upserts[0].");

        JsonNode both = json(admin.post("/v1/tools:batch", "{\"deletes\": [\"barn__feed\", \"barn__milk\"]}"));
        assertThat(both.path("removed").asInt()).isEqualTo(2);
    }

    @Test
    void an_empty_policy_body_is_refused_unless_the_caller_says_replace_empty() {
        // issue 30, item 11: PUT /v1/policy {} silently replaced the policy with an empty, allow-all one
        ObjectNode before = (ObjectNode) json(admin.get("/v1/policy"));
        String kept = "{\"rules\": [{\"effect\": \"deny\", \"source\": \"gmail\", \"group\": \"kids\"}]}";
        try {
            assertThat(admin.put("/v1/policy", kept).statusCode()).isEqualTo(200);
            for (String empty : List.of("{}", "{\"rules\": []}", "{\"spaces\": {}, \"rules\": null}")) {
                JsonNode p = problem(admin.put("/v1/policy", empty), 400);
                assertThat(p.path("input").asText()).as(empty).isEqualTo("body");
                assertThat(p.path("rule").asText())
                        .as(empty)
                        .isEqualTo("a policy names a default or at least one rule; an "
                                + "empty one needs ?replace=empty");
                assertThat(p.path("detail").asText()).as(empty).contains("nothing was stored");
            }
            JsonNode unknown = problem(admin.put("/v1/policy", "{\"policy\": {\"rules\": []}}"), 400);
            assertThat(unknown.path("detail").asText()).contains("unknown policy field 'policy'");
            JsonNode badReplace = problem(admin.put("/v1/policy?replace=all", "{}"), 400);
            assertThat(badReplace.path("input").asText()).isEqualTo("replace");
            assertThat(badReplace.path("value").asText()).isEqualTo("all");
            JsonNode notEmpty = problem(admin.put("/v1/policy?replace=empty", kept), 400);
            assertThat(notEmpty.path("input").asText()).isEqualTo("replace");
            assertThat(json(admin.get("/v1/policy")).path("rules").toString()).contains("gmail");

            HttpResponse<String> said = admin.put("/v1/policy?replace=empty", "{}");
            assertThat(said.statusCode()).as(said.body()).isEqualTo(200);
            assertThat(json(admin.get("/v1/policy")).path("rules")).isEmpty();
            // saying the default outright is explicit too
            assertThat(admin.put("/v1/policy", "{\"default\": \"allow\"}").statusCode())
                    .isEqualTo(200);
        } finally {
            assertThat(admin.put("/v1/policy?allow_unmatched=true", before.toString())
                            .statusCode())
                    .isEqualTo(200);
        }
    }

    @Test
    void a_policy_whose_rule_matches_nothing_is_refused_unless_allowed() {
        String misspelt = "{\"rules\": [{\"effect\": \"deny\", \"source\": \"gmial\"}]}";
        JsonNode p = problem(admin.put("/v1/policy", misspelt), 400);

        assertThat(p.path("input").asText()).isEqualTo("rules[0].source");
        assertThat(p.path("value").asText()).isEqualTo("gmial");
        assertThat(p.path("detail").asText()).contains("did you mean 'gmail'?").contains("nothing was stored");
        assertThat(json(admin.get("/v1/policy")).path("rules").toString()).doesNotContain("gmial");
        JsonNode invalid =
                problem(admin.put("/v1/policy", "{\"rules\": [{\"effect\": \"maybe\", \"tool\": \"x\"}]}"), 400);
        assertThat(invalid.path("detail").asText()).contains("rules[0].effect must be 'allow' or 'deny'");
        problem(admin.put("/v1/policy?allow_unmatched=yes", misspelt), 400);
    }

    @Test
    void servers_are_validated_as_mcp_add_does_and_never_show_a_secret() {
        // both servers are unreachable on purpose: the connection says each is down, and never shows a secret
        try (LogCapture upstream = LogCapture.of("dev.toolscout.mcp.upstream.UpstreamConnection")) {
            assertThat(json(admin.get("/v1/servers")).path("count").asInt()).isZero();

            HttpResponse<String> refused = admin.post(
                    "/v1/servers",
                    "{\"name\": \"offline\", \"url\": "
                            + "\"http://127.0.0.1:9/mcp?api_key=s3cr3t-value\", \"timeout_seconds\": 1}");
            // the upstream's own error is quoted as mcp list shows it (it may name the JDK's exception), never a trace
            assertThat(refused.statusCode()).isEqualTo(502);
            assertThat(refused.body()).doesNotContain("at dev.").doesNotContain("at java.");
            JsonNode down = json(refused);
            assertThat(down.path("detail").asText())
                    .contains("did not answer")
                    .contains("nothing was stored")
                    .doesNotContain("s3cr3t-value");
            assertThat(json(admin.get("/v1/servers")).path("count").asInt()).isZero();

            HttpResponse<String> stored = admin.post(
                    "/v1/servers",
                    "{\"name\": \"later\", \"url\": "
                            + "\"http://127.0.0.1:9/mcp?api_key=s3cr3t-value\", \"headers\": {\"X-Token\": \"hdr-s3cr3t\"}, "
                            + "\"api_key\": \"key-s3cr3t\", \"timeout_seconds\": 1, \"allow_offline\": true}");
            assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
            HttpResponse<String> listed = admin.get("/v1/servers");
            assertThat(json(listed).path("count").asInt()).isEqualTo(1);
            for (String body : List.of(stored.body(), listed.body())) {
                assertThat(body).doesNotContain("s3cr3t");
            }

            JsonNode stdio = problem(
                    admin.post(
                            "/v1/servers",
                            "{\"name\": \"local\", \"command\": \"touch\", " + "\"args\": [\"/tmp/x\"]}"),
                    403);
            assertThat(stdio.path("detail").asText()).contains("--allow-remote-stdio");
            JsonNode reserved = problem(
                    admin.post(
                            "/v1/servers",
                            "{\"name\": \"MCP\", \"url\": \"http://127.0.0.1:9/mcp\", " + "\"allow_offline\": true}"),
                    409);
            assertThat(reserved.path("detail").asText()).contains("reserved");
            assertThat(problem(admin.post("/v1/servers", "{\"name\": \"x\"}"), 400)
                            .path("rule")
                            .asText())
                    .isEqualTo("exactly one of url and command");

            assertThat(admin.delete("/v1/servers/later").statusCode()).isEqualTo(204);
            problem(admin.delete("/v1/servers/later"), 404);
            assertThat(upstream.warnings())
                    .anySatisfy(w -> assertThat(w).startsWith("MCP server 'offline' is down: cannot connect"))
                    .anySatisfy(w -> assertThat(w).startsWith("MCP server 'later' is down: cannot connect"))
                    .allSatisfy(w -> assertThat(w).doesNotContain("s3cr3t"));
        }
    }

    @Test
    void metrics_are_prometheus_text_with_the_select_histogram_for_an_admin() {
        reader.post("/v1/select", "{\"message\": \"" + DEMO_MESSAGE + "\"}");

        HttpResponse<String> r = admin.get("/metrics");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        assertThat(r.body())
                .contains("# TYPE toolscout_select_seconds histogram")
                .contains("toolscout_select_seconds_bucket{le=")
                .contains(
                        "toolscout_http_server_requests_seconds_count{method=\"POST\",route=\"/v1/select\",status=\"200\"}")
                .contains("toolscout_catalog_tools ")
                .contains("toolscout_upstream_servers{state=\"ready\"}");
    }

    static List<String> names(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(t -> out.add(t.path("name").asText()));
        return out;
    }
}
