package dev.toolscout.server.http;

import static dev.toolscout.server.http.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.server.http.api.HttpApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/route} and {@code /v1/memories} of {@code serve} with API keys (ulf a user in group staff, ada an
 * admin in staff, rita a reader in kids), on the real engine and model beside the demo catalog. Every response is
 * checked against the served OpenAPI document ({@link ApiClient}).
 */
class HttpMemoryTest {
    @TempDir
    static Path tmp;

    static ApiServer server;
    static ApiClient ulf;
    static ApiClient ada;
    static ApiClient rita;

    @BeforeAll
    static void start() throws Exception {
        server = ApiServer.withKeys(tmp.resolve("data"), HttpApi.Options.DEFAULT);
        ulf = server.client.as(ApiServer.USER);
        ada = server.client.as(ApiServer.ADMIN);
        rita = server.client.as(ApiServer.READER);
        server.awaitReady();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void route_answers_llm_required_for_gibberish_with_discovery_suggested_and_cosine_evidence() {
        JsonNode r = json(ulf.post("/v1/route", "{\"message\": \"xqzv blorf\"}"));

        assertThat(r.path("route").asText()).isEqualTo("LLM_REQUIRED");
        assertThat(r.path("discovery_suggested").asBoolean()).isTrue();
        assertThat(r.path("score").asText()).isEqualTo("cosine");
        assertThat(r.path("evidence").get(0).path("cosine").asDouble())
                .isLessThan(r.path("thresholds").path("tool_filter").asDouble());
        JsonNode select = json(ulf.post("/v1/select", "{\"message\": \"xqzv blorf\"}"));
        assertThat(select.path("route").path("route").asText()).isEqualTo("LLM_REQUIRED");
        assertThat(select.path("discovery_suggested").asBoolean()).isTrue();
        assertThat(server.contract.documentErrors()).isEmpty();
    }

    @Test
    void a_memory_is_stored_searched_read_by_its_group_not_by_others_corrected_and_forgotten() {
        HttpResponse<String> stored = ulf.post(
                "/v1/memories",
                "{\"content\": \"The staff offsite is in Annecy on 3 March.\", \"type\": \"event\", \"scope\": \"group\"}");
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
        String id = json(stored).path("id").asText();
        HttpResponse<String> mine = ulf.post("/v1/memories", "{\"content\": \"Ulf prefers tea to coffee.\"}");
        String privateId = json(mine).path("id").asText();

        // ada is in staff: the group memory, not ulf's private one
        assertThat(json(ada.get("/v1/memories/" + id)).path("content").asText()).contains("Annecy");
        HttpResponse<String> adaPrivate = ada.get("/v1/memories/" + privateId);
        HttpResponse<String> missing = ada.get("/v1/memories/mem_00000000000000000000");
        assertThat(adaPrivate.statusCode()).isEqualTo(404);
        assertThat(json(adaPrivate).path("detail").asText()).isEqualTo("Memory not found: " + privateId);
        assertThat(missing.statusCode()).isEqualTo(404);
        // rita is in kids: neither, and a reader never writes
        assertThat(rita.get("/v1/memories/" + id).statusCode()).isEqualTo(404);
        assertThat(json(rita.get("/v1/memories?query=offsite")).path("memories"))
                .isEmpty();
        assertThat(rita.post("/v1/memories", "{\"content\": \"x\"}").statusCode())
                .isEqualTo(403);

        JsonNode found = json(ulf.get("/v1/memories?query=where%20is%20the%20offsite"));
        assertThat(found.path("score").asText()).isEqualTo("cosine");
        assertThat(found.path("memories").get(0).path("id").asText()).isEqualTo(id);

        HttpResponse<String> corrected =
                ulf.put("/v1/memories/" + id, "{\"content\": \"The staff offsite is in Chamonix on 3 March.\"}");
        assertThat(json(corrected).path("content").asText()).contains("Chamonix");

        assertThat(ulf.delete("/v1/memories/" + privateId).statusCode()).isEqualTo(200);
        assertThat(ulf.get("/v1/memories/" + privateId).statusCode()).isEqualTo(404);
        assertThat(json(ulf.get("/v1/memories")).path("memories").findValuesAsText("id"))
                .containsExactly(id);
    }

    @Test
    void bad_memory_input_names_the_field_the_rule_and_the_value() {
        HttpResponse<String> type = ulf.post("/v1/memories", "{\"content\": \"x\", \"type\": \"person\"}");
        HttpResponse<String> space = ulf.post("/v1/memories", "{\"content\": \"x\", \"scope\": \"space\"}");

        assertThat(type.statusCode()).isEqualTo(400);
        assertThat(json(type).path("detail").asText())
                .isEqualTo("type must be one of fact, preference, event, note, " + "got: \"person\"");
        assertThat(space.statusCode()).isEqualTo(409);
        assertThat(json(space).path("detail").asText()).contains("'space' needs a principal working in a space");
    }
}
