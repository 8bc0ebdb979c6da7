package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.server.http.api.HttpApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's three-message demo over the HTTP API ({@code conversation_id} on {@code /v1/select}, the activation
 * at {@code POST /v1/conversations/{id}/skills}), with the server stopped and started again between messages 2
 * and 3; and the skill and conversation routes, every answer checked against the served OpenAPI document.
 */
class HttpSkillsTest {
    static final Path DEMO_FILE = Path.of("../docs/examples/skills-demo.yaml");

    @TempDir
    Path tmp;

    private static List<String> names(JsonNode selection) {
        List<String> out = new ArrayList<>();
        selection.path("selected").forEach(t -> out.add(t.path("name").asText()));
        return out;
    }

    private static String body(String message) {
        return "{\"message\": \"" + message + "\", \"conversation_id\": \"http-demo\"}";
    }

    private static JsonNode ok(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ApiClient.json(r);
    }

    @Test
    void the_seed_demo_over_v1_select_keeps_the_activated_skill_across_a_restart() throws Exception {
        Path data = tmp.resolve("data");
        // the demo catalog, then the seed's tools and skill
        ToolScout.builder().preloadModel(false).dataDir(data).build().close();
        ToolScout.builder()
                .preloadModel(false)
                .dataDir(data)
                .catalogFiles(List.of(DEMO_FILE.toAbsolutePath()))
                .build()
                .close();

        try (ApiServer s = ApiServer.withKeys(data, HttpApi.Options.DEFAULT)) {
            s.awaitReady();
            ApiClient user = s.client.as(ApiServer.USER);
            JsonNode m1 = ok(user.post("/v1/select", body("What's the distance from SF to LA?")));
            assertThat(names(m1))
                    .contains("geo__calculate_distance", "skills__activate")
                    .doesNotContain("database__remove_feature");

            JsonNode m2 = ok(user.post("/v1/select", body("Remove the first feature")));
            assertThat(m2.path("suggested_skill").path("name").asText()).isEqualTo("database");
            JsonNode activated = ok(user.post("/v1/conversations/http-demo/skills", "{\"skill_name\": \"database\"}"));
            assertThat(activated.path("tools").findValuesAsText("name")).containsExactly("database__remove_feature");
            assertThat(ok(user.get("/v1/conversations/http-demo"))
                            .path("active_skills")
                            .toString())
                    .isEqualTo("[\"database\"]");

            // another principal's conversation of that id reads as a missing one
            ApiClient reader = s.client.as(ApiServer.READER);
            HttpResponse<String> others = reader.get("/v1/conversations/http-demo");
            HttpResponse<String> missing = reader.get("/v1/conversations/no-such-conversation");
            assertThat(others.statusCode()).isEqualTo(404);
            assertThat(ApiClient.json(others).path("detail").asText()).isEqualTo("Conversation not found: http-demo");
            assertThat(ApiClient.json(missing).path("detail").asText())
                    .isEqualTo("Conversation not found: no-such-conversation");
        }

        try (ApiServer s = ApiServer.withKeys(data, HttpApi.Options.DEFAULT)) {
            s.awaitReady();
            ApiClient user = s.client.as(ApiServer.USER);
            JsonNode m3 = ok(user.post("/v1/select", body("Add a marker in Chicago")));
            assertThat(names(m3)).contains("database__remove_feature");
            assertThat(m3.path("active_skills").toString()).isEqualTo("[\"database\"]");

            assertThat(ok(user.delete("/v1/conversations/http-demo"))
                            .path("removed")
                            .asText())
                    .isEqualTo("http-demo");
            assertThat(user.get("/v1/conversations/http-demo").statusCode()).isEqualTo(404);
            assertThat(names(ok(user.post("/v1/select", body("Add a marker in Chicago")))))
                    .doesNotContain("database__remove_feature");
        }
    }

    @Test
    void skills_are_written_by_admins_read_as_the_caller_may_see_them_and_refused_naming_the_rule() throws Exception {
        try (ApiServer s = ApiServer.withKeys(tmp.resolve("data"), HttpApi.Options.DEFAULT)) {
            s.awaitReady();
            ApiClient admin = s.client.as(ApiServer.ADMIN);
            ApiClient user = s.client.as(ApiServer.USER);
            String skill = "{\"description\": \"Send and sort email.\", \"documentation\": \"Use gmail__send_email.\", "
                    + "\"tools\": [\"gmail__send_email\", \"gmail__archive_email\"]}";

            assertThat(user.put("/v1/skills/mail", skill).statusCode()).isEqualTo(403);
            assertThat(admin.put("/v1/skills/mail", skill).statusCode()).isEqualTo(201);
            assertThat(admin.put("/v1/skills/mail", skill).statusCode()).isEqualTo(200);
            JsonNode got = ok(user.get("/v1/skills/mail"));
            assertThat(got.path("tools").toString()).isEqualTo("[\"gmail__send_email\",\"gmail__archive_email\"]");
            assertThat(ok(user.get("/v1/skills")).path("total").asInt()).isEqualTo(1);
            assertThat(got.has("missing_tools")).isFalse();

            // a skill whose tool the catalog lacks: the answer names it, and the listing shows why it is not offered
            String deploy = "{\"description\": \"Publish the web site.\", \"tools\": [\"netlify__deploy_site\"]}";
            HttpResponse<String> added = admin.put("/v1/skills/deploy-site", deploy);
            assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
            assertThat(ApiClient.json(added).path("missing_tools").toString()).isEqualTo("[\"netlify__deploy_site\"]");
            JsonNode listed = ok(user.get("/v1/skills"));
            assertThat(listed.path("total").asInt()).isEqualTo(2);
            JsonNode notOffered = listed.path("skills").get(0);
            assertThat(notOffered.path("name").asText()).isEqualTo("deploy-site");
            assertThat(notOffered.path("not_offered").asText()).isEqualTo("missing tools: netlify__deploy_site");
            assertThat(listed.path("skills").get(1).has("not_offered")).isFalse();
            assertThat(ok(user.get("/v1/skills/deploy-site"))
                            .path("not_offered")
                            .asText())
                    .isEqualTo("missing tools: netlify__deploy_site");
            JsonNode page = ok(user.get("/v1/catalog?kind=skill"));
            assertThat(page.path("items").get(0).path("status").asText()).isEqualTo("not offered");
            assertThat(page.path("items").get(0).path("missing_tools").toString())
                    .isEqualTo("[\"netlify__deploy_site\"]");
            assertThat(ok(admin.delete("/v1/skills/deploy-site"))
                            .path("removed")
                            .asText())
                    .isEqualTo("deploy-site");

            HttpResponse<String> bad = admin.put("/v1/skills/Mail", skill);
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(ApiClient.json(bad).path("detail").asText())
                    .isEqualTo(
                            "skill 'Mail': name must hold only lower-case letters a-z, digits and hyphens, got: 'Mail'");
            HttpResponse<String> longer =
                    admin.put("/v1/skills/mail", "{\"description\": \"" + "x".repeat(1025) + "\"}");
            assertThat(ApiClient.json(longer).path("input").asText()).isEqualTo("description");

            assertThat(ok(admin.delete("/v1/skills/mail")).path("removed").asText())
                    .isEqualTo("mail");
            assertThat(user.get("/v1/skills/mail").statusCode()).isEqualTo(404);
            assertThat(admin.delete("/v1/skills/mail").statusCode()).isEqualTo(404);
        }
    }
}
