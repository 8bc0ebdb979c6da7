package dev.toolscout.server.http;

import static dev.toolscout.server.http.HttpApiTest.json;
import static dev.toolscout.server.http.HttpApiTest.problem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.server.VerbFixtures;
import dev.toolscout.server.http.api.HttpApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /v1/verbs/...} of {@code serve} with API keys, on the real engine and model beside the demo catalog. Every
 * response is checked against the served OpenAPI document ({@link ApiClient}).
 */
class HttpVerbsTest {
    @TempDir
    static Path tmp;

    static ApiServer server;
    static ApiClient reader;
    static ApiClient admin;

    @BeforeAll
    static void start() throws Exception {
        server = ApiServer.withKeys(tmp.resolve("data"), HttpApi.Options.DEFAULT);
        reader = server.client.as(ApiServer.READER);
        admin = server.client.as(ApiServer.ADMIN);
        server.awaitReady();
        HttpResponse<String> r = admin.post("/v1/verbs/register", VerbFixtures.VERBS);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void the_document_describes_the_verb_routes() {
        JsonNode paths = json(server.client.as(null).get("/openapi.json")).path("paths");
        assertThat(paths.has("/v1/verbs/register")
                        && paths.has("/v1/verbs/discover")
                        && paths.has("/v1/verbs/resolve")
                        && paths.has("/v1/verbs")
                        && paths.has("/v1/verbs/{verb}"))
                .isTrue();
        assertThat(server.contract.documentErrors()).isEmpty();
    }

    @Test
    void registered_verbs_are_listed_discovered_resolved_and_described_as_tools() {
        HttpResponse<String> again = admin.post("/v1/verbs/register", VerbFixtures.VERBS);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).path("change").path("added").asInt()).isZero();
        assertThat(json(again).path("verbs").toString())
                .isEqualTo("[\"GET_WEATHER\",\"CONVERT_CURRENCY\",\"SEARCH_WEB\"]");

        JsonNode list = json(reader.get("/v1/verbs"));
        assertThat(list.path("count").asInt()).isEqualTo(3);

        JsonNode d =
                json(reader.post("/v1/verbs/discover", "{\"description\": \"will it snow in Oslo\", \"limit\": 5}"));
        assertThat(d.path("count").asInt()).isEqualTo(5);
        assertThat(d.path("candidates").get(0).path("name").asText()).isEqualTo("verbs__GET_WEATHER");
        assertThat(d.path("candidates").findValuesAsText("kind")).contains("verb", "tool");

        JsonNode sub = json(reader.post("/v1/verbs/resolve", """
        {"verb": "FORECAST_WEATHER", "inputs": ["location"], "description":
         "Get the current weather and the forecast for a city or coordinates."}
        """));
        assertThat(sub.path("result").asText()).as(sub.toString()).isEqualTo("substitution");
        assertThat(sub.path("target").path("verb").asText()).isEqualTo("GET_WEATHER");
        JsonNode none = json(reader.post("/v1/verbs/resolve", "{\"description\": \"xqzv blorf\"}"));
        assertThat(none.path("result").asText()).isEqualTo("no_match");

        // a verb is a catalog tool: described in the catalog format, with its examples and outputs
        JsonNode tool = json(reader.get("/v1/tools/verbs__GET_WEATHER"));
        assertThat(tool.path("source_kind").asText()).isEqualTo("verb");
        assertThat(tool.path("examples").get(0).asText()).isEqualTo("Will it rain in Paris tomorrow?");
        assertThat(tool.path("output_schema").path("properties").has("forecast"))
                .isTrue();
    }

    @Test
    void only_an_admin_registers_or_removes_verbs_and_tools_cannot_pose_as_verbs() {
        String one = "{\"verb\": \"NEVER_WRITTEN\", \"description\": \"d\"}";
        problem(reader.post("/v1/verbs/register", one), 403);
        problem(reader.delete("/v1/verbs/GET_WEATHER"), 403);
        assertThat(json(reader.get("/v1/verbs")).path("verbs").findValuesAsText("verb"))
                .doesNotContain("NEVER_WRITTEN");

        JsonNode kind =
                problem(admin.put("/v1/tools/web__search", "{\"description\": \"d\", \"source_kind\": \"verb\"}"), 400);
        assertThat(kind.path("input").asText()).isEqualTo("source_kind");
        JsonNode source = problem(admin.put("/v1/tools/verbs__GET_WEATHER", "{\"description\": \"d\"}"), 400);
        assertThat(source.path("input").asText()).isEqualTo("name");
        assertThat(source.path("detail").asText()).contains("reserved for verbs");
    }

    @Test
    void catalog_writes_may_not_take_an_engine_source() {
        // issue 30, item 4: skills__activate, mcp__call_tool and an MCP-kind memory tool are ToolScout's own
        for (String name : List.of("skills__activate", "mcp__call_tool")) {
            JsonNode p = problem(admin.put("/v1/tools/" + name, "{\"description\": \"d\"}"), 400);
            assertThat(p.path("input").asText()).as(name).isEqualTo("name");
            assertThat(p.path("value").asText()).as(name).isEqualTo(name);
            assertThat(p.path("detail").asText()).as(name).contains("which is reserved for ToolScout's own tools");
        }
        JsonNode kind = problem(
                admin.put("/v1/tools/memory__store", "{\"description\": \"d\", \"source_kind\": \"openapi\"}"), 400);
        assertThat(kind.path("detail").asText()).endsWith("only as source_kind integration, got: openapi");
    }

    @Test
    void bad_manifests_and_requests_are_problems_naming_the_input_and_register_nothing() {
        JsonNode bad = problem(admin.post("/v1/verbs/register", """
        [{"verb": "GOOD_ONE", "description": "fine"}, {"verb": "bad/verb", "description": "d"}]"""), 400);
        assertThat(bad.path("input").asText()).isEqualTo("verb");
        assertThat(bad.path("detail").asText())
                .startsWith("body at [1]: verb 'BAD/VERB': verb must be upper snake case");
        assertThat(json(reader.get("/v1/verbs")).path("verbs").findValuesAsText("verb"))
                .doesNotContain("GOOD_ONE");

        JsonNode limit =
                problem(reader.post("/v1/verbs/discover", "{\"description\": \"weather\", \"limit\": 51}"), 400);
        assertThat(limit.path("input").asText()).isEqualTo("limit");
        JsonNode empty = problem(reader.post("/v1/verbs/resolve", "{\"inputs\": [\"city\"]}"), 400);
        assertThat(empty.path("input").asText()).isEqualTo("verb");
        assertThat(problem(admin.delete("/v1/verbs/NO_SUCH_VERB"), 404)
                        .path("detail")
                        .asText())
                .isEqualTo("Verb not found: NO_SUCH_VERB");
    }

    @Test
    void a_verb_denied_to_the_callers_group_is_nowhere_for_it() {
        JsonNode policy = json(admin.get("/v1/policy"));
        try {
            HttpResponse<String> set = admin.put(
                    "/v1/policy",
                    "{\"rules\": [{\"effect\": \"deny\", \"tool\": \"verbs__GET_WEATHER\", \"group\": \"kids\"}]}");
            assertThat(set.statusCode()).as(set.body()).isEqualTo(200);

            assertThat(json(reader.get("/v1/verbs")).path("verbs").findValuesAsText("verb"))
                    .doesNotContain("GET_WEATHER")
                    .contains("SEARCH_WEB");
            String found = reader.post(
                            "/v1/verbs/discover", "{\"description\": \"will it snow in Oslo\", \"limit\": 50}")
                    .body();
            String resolved = reader.post(
                            "/v1/verbs/resolve",
                            "{\"verb\": \"GET_FORECAST\", \"description\": \"Get the current weather and the forecast for a city.\"}")
                    .body();
            assertThat(found + resolved).doesNotContain("GET_WEATHER");
            HttpResponse<String> denied = reader.get("/v1/tools/verbs__GET_WEATHER");
            HttpResponse<String> missing = reader.get("/v1/tools/verbs__GET_WEATHEX");
            assertThat(denied.body().replace("GET_WEATHER", "GET_WEATHEX")).isEqualTo(missing.body());
            assertThat(json(admin.get("/v1/verbs")).path("verbs").findValuesAsText("verb"))
                    .contains("GET_WEATHER");
        } finally {
            assertThat(admin.put("/v1/policy?allow_unmatched=true", policy.toString())
                            .statusCode())
                    .isEqualTo(200);
        }
    }
}
