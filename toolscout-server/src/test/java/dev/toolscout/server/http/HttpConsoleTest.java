package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.server.http.api.HttpApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routes the web console calls ({@code /}, {@code /console/{asset}}, {@code /v1/whoami}, {@code /v1/catalog},
 * {@code /v1/tools/{name}/access}, {@code /v1/principals}, {@code principal} in {@code /v1/select}) against the
 * real engine on the demo catalog, every answer checked against the served OpenAPI document. The reader (rita,
 * group kids) is denied the gmail source for the whole class. The console's pages themselves are driven in
 * headless Chromium by {@code ConsoleEndToEndTest}.
 */
class HttpConsoleTest {
    @TempDir
    static Path tmp;

    static ApiServer server;
    static ApiClient reader;
    static ApiClient admin;
    static ApiClient anonymous;

    @BeforeAll
    static void start() throws Exception {
        server = ApiServer.withKeys(tmp.resolve("data"), HttpApi.Options.DEFAULT);
        reader = server.client.as(ApiServer.READER);
        admin = server.client.as(ApiServer.ADMIN);
        anonymous = server.client.as(null);
        server.awaitReady();
        HttpResponse<String> set = admin.put(
                "/v1/policy", "{\"rules\": [{\"effect\": \"deny\", \"source\": \"gmail\", \"group\": \"kids\"}]}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static JsonNode json(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        return ApiClient.json(r);
    }

    static List<String> names(JsonNode items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.path("name").asText()));
        return out;
    }

    @Test
    void the_console_page_needs_no_key_loads_only_its_own_scripts_and_forbids_inline_script() {
        HttpResponse<String> page = anonymous.get("/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(page.body())
                .contains("<script type=\"module\" src=\"/console/app.js\">")
                .doesNotContain("<script>")
                .doesNotContain("http://")
                .doesNotContain("https://");
        String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(csp)
                .contains("script-src 'self'")
                .contains("frame-ancestors 'none'")
                .doesNotContain("unsafe-inline");
        assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    }

    @Test
    void the_console_files_are_served_by_name_and_nothing_else_is() {
        HttpResponse<String> app = anonymous.get("/console/app.js");
        HttpResponse<String> css = anonymous.get("/console/console.css");

        assertThat(app.statusCode()).isEqualTo(200);
        assertThat(app.headers().firstValue("Content-Type").orElse("")).startsWith("text/javascript");
        assertThat(app.body()).contains("import");
        assertThat(css.headers().firstValue("Content-Type").orElse("")).startsWith("text/css");
        assertThat(anonymous.get("/console/index.html").statusCode()).isEqualTo(404);
        assertThat(anonymous.get("/console/..%2Fconsole.css").statusCode()).isIn(400, 404);
        assertThat(anonymous.get("/console/ConsoleRoutes.class").statusCode()).isEqualTo(404);
    }

    @Test
    void whoami_names_the_callers_principal_and_role_and_needs_a_key() {
        JsonNode me = json(reader.get("/v1/whoami"));

        assertThat(me.path("principal").path("user").asText()).isEqualTo("rita");
        assertThat(me.path("principal").path("group").asText()).isEqualTo("kids");
        assertThat(me.path("role").asText()).isEqualTo("reader");
        assertThat(me.path("keys_required").asBoolean()).isTrue();
        assertThat(json(admin.get("/v1/whoami")).path("role").asText()).isEqualTo("admin");
        assertThat(anonymous.get("/v1/whoami").statusCode()).isEqualTo(401);
    }

    @Test
    void the_catalog_filters_by_source_access_and_side_effect_and_gives_each_tools_facts() {
        JsonNode gmail = json(admin.get("/v1/catalog?source=gmail&kind=tool"));
        JsonNode deletes = json(admin.get("/v1/catalog?side_effect=delete&limit=500"));
        JsonNode proposed = json(admin.get("/v1/catalog?access=propose&limit=500"));

        assertThat(gmail.path("total").asInt())
                .isPositive()
                .isEqualTo(gmail.path("items").size());
        assertThat(names(gmail.path("items")))
                .allMatch(n -> n.startsWith("gmail__"))
                .contains("gmail__send_email");
        JsonNode send = gmail.path("items").get(names(gmail.path("items")).indexOf("gmail__send_email"));
        assertThat(send.path("source").asText()).isEqualTo("gmail");
        assertThat(send.path("status").asText()).isEqualTo("available");
        assertThat(send.path("side_effect").asText()).isIn("write", "delete");
        assertThat(deletes.path("items"))
                .isNotEmpty()
                .allMatch(t -> t.path("side_effect").asText().equals("delete"));
        assertThat(proposed.path("items"))
                .allMatch(t -> t.path("ai_access").asText().equals("propose"));
        assertThat(gmail.path("facets").path("sources").path("gmail").asInt())
                .isEqualTo(gmail.path("total").asInt());
    }

    @Test
    void a_catalog_search_ranks_by_the_query_and_pages() {
        JsonNode found = json(admin.get("/v1/catalog?q=send%20an%20email&kind=tool&limit=3"));
        JsonNode rest = json(admin.get("/v1/catalog?q=send%20an%20email&kind=tool&limit=3&offset=3"));

        assertThat(found.path("items")).hasSize(3);
        assertThat(found.path("items").get(0).path("score").asDouble())
                .isGreaterThanOrEqualTo(found.path("items").get(2).path("score").asDouble());
        assertThat(names(found.path("items")))
                .contains("gmail__send_email")
                .doesNotContainAnyElementsOf(names(rest.path("items")));
        assertThat(anonymous.get("/v1/catalog").statusCode()).isEqualTo(401);
        assertThat(ApiClient.json(admin.get("/v1/catalog?access=maybe"))
                        .path("input")
                        .asText())
                .isEqualTo("access");
    }

    @Test
    void a_denied_tool_is_absent_from_the_readers_catalog_and_counted_nowhere() {
        JsonNode all = json(reader.get("/v1/catalog?limit=500"));
        JsonNode search = json(reader.get("/v1/catalog?q=send%20an%20email"));
        JsonNode bySource = json(reader.get("/v1/catalog?source=gmail"));

        assertThat(names(all.path("items"))).noneMatch(n -> n.startsWith("gmail__"));
        assertThat(names(search.path("items"))).noneMatch(n -> n.startsWith("gmail__"));
        assertThat(bySource.path("total").asInt()).isZero();
        assertThat(all.path("facets").path("sources").has("gmail")).isFalse();
        assertThat(all.toString()).doesNotContain("gmail");
    }

    @Test
    void an_admin_sees_who_can_see_a_tool_and_what_a_principal_can_see_and_nobody_else_does() {
        JsonNode who = json(admin.get("/v1/tools/gmail__send_email/access"));
        JsonNode asRita = json(admin.get("/v1/catalog?user=rita&group=kids&source=gmail"));
        JsonNode principals = json(admin.get("/v1/principals"));

        assertThat(who.path("tool").asText()).isEqualTo("gmail__send_email");
        for (JsonNode p : who.path("principals")) {
            assertThat(p.path("visible").asBoolean())
                    .as(p.toString())
                    .isEqualTo(!p.path("group").asText().equals("kids"));
        }
        assertThat(who.path("principals")).hasSize(3);
        assertThat(asRita.path("total").asInt()).isZero();
        assertThat(asRita.path("principal").path("user").asText()).isEqualTo("rita");
        assertThat(principals.path("count").asInt()).isEqualTo(3);
        int ritas = 0;
        int adas = 0;
        for (JsonNode p : principals.path("principals")) {
            if (p.path("user").asText().equals("rita")) {
                ritas = p.path("tools").asInt();
            } else if (p.path("user").asText().equals("ada")) {
                adas = p.path("tools").asInt();
            }
        }
        assertThat(ritas).isPositive().isLessThan(adas);

        assertThat(reader.get("/v1/tools/gmail__send_email/access").statusCode())
                .isEqualTo(403);
        assertThat(reader.get("/v1/principals").statusCode()).isEqualTo(403);
        HttpResponse<String> peek = reader.get("/v1/catalog?user=ada");
        assertThat(peek.statusCode()).isEqualTo(403);
        assertThat(peek.body()).contains("role admin").contains("reader");
        assertThat(admin.get("/v1/tools/gmaix__send_email/access").statusCode()).isEqualTo(404);
    }

    @Test
    void an_admin_reads_the_agent_loops_usage_records_since_a_time_and_a_reader_may_not() {
        java.time.Instant at = java.time.Instant.now().minus(java.time.Duration.ofDays(30));
        server.mcp
                .scout()
                .maintenance()
                .store()
                .saveUsage(new dev.toolscout.state.StateStore.StoredUsage(
                        "u-old",
                        at,
                        "user:ulf",
                        "c1",
                        "{\"id\": \"u-old\", \"at\": \"" + at + "\", \"status\": \"done\", \"message\": \"old\"}"));
        java.time.Instant recent = java.time.Instant.now().minusSeconds(60);
        server.mcp
                .scout()
                .maintenance()
                .store()
                .saveUsage(new dev.toolscout.state.StateStore.StoredUsage(
                        "u-new",
                        recent,
                        "user:ulf",
                        "c1",
                        "{\"id\": \"u-new\", \"at\": \"" + recent + "\", \"status\": \"done\", \"message\": "
                                + "\"send the report\", \"calls\": [{\"tool\": \"gmail__send_email\", \"origin\": \"selected\", "
                                + "\"outcome\": \"ok\"}]}"));

        JsonNode week = json(admin.get("/v1/usage/requests"));
        java.time.Instant longAgo = java.time.Instant.now().minus(java.time.Duration.ofDays(40));
        JsonNode all = json(admin.get("/v1/usage/requests?since=" + longAgo + "&limit=10"));

        assertThat(week.path("requests").findValuesAsText("id"))
                .contains("u-new")
                .doesNotContain("u-old");
        assertThat(all.path("requests").findValuesAsText("id")).containsSubsequence("u-old", "u-new");
        assertThat(all.path("count").asInt()).isEqualTo(all.path("requests").size());
        assertThat(reader.get("/v1/usage/requests").statusCode()).isEqualTo(403);
        assertThat(ApiClient.json(admin.get("/v1/usage/requests?since=yesterday"))
                        .path("input")
                        .asText())
                .isEqualTo("since");
    }

    @Test
    void an_admin_selects_as_another_principal_and_a_reader_may_not() {
        String msg =
                "{\"message\": \"send an email to Ann\", \"principal\": {\"user\": \"rita\", \"group\": \"kids\"}}";
        JsonNode asRita = json(admin.post("/v1/select", msg));
        JsonNode asAdmin = json(admin.post("/v1/select", "{\"message\": \"send an email to Ann\"}"));

        assertThat(names(asRita.path("selected"))).noneMatch(n -> n.startsWith("gmail__"));
        assertThat(names(asAdmin.path("selected"))).anyMatch(n -> n.startsWith("gmail__"));
        HttpResponse<String> refused = reader.post("/v1/select", msg);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("principal").contains("role admin");
        HttpResponse<String> unknown =
                admin.post("/v1/select", "{\"message\": \"x\", \"principal\": {\"name\": \"rita\"}}");
        assertThat(ApiClient.json(unknown).path("input").asText()).isEqualTo("principal.name");
    }
}
