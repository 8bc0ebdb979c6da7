package dev.toolscout.server.http;

import static dev.toolscout.server.http.HttpApiTest.json;
import static dev.toolscout.server.http.HttpApiTest.names;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.server.http.api.HttpApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/servers} with a real upstream: the reference {@code everything} server from npm, over stdio,
 * on a server started with {@code --allow-remote-stdio}. Its tools join the catalog, the selection ranks them,
 * and removing the server removes them.
 */
class HttpApiServersTest {
    static final Path EVERYTHING = Path.of("../toolscout-mcp/src/test/node/node_modules/@modelcontextprotocol/"
                    + "server-everything/dist/index.js")
            .toAbsolutePath()
            .normalize();

    @TempDir
    Path tmp;

    @Test
    void an_admin_registers_a_stdio_server_whose_tools_are_then_selected_and_removes_it() throws Exception {
        assertThat(EVERYTHING)
                .as("run ./run-tests, which installs the npm packages")
                .exists();
        try (ApiServer s = ApiServer.withKeys(tmp.resolve("data"), new HttpApi.Options(false, true))) {
            s.awaitReady();
            ApiClient admin = s.client.as(ApiServer.ADMIN);

            HttpResponse<String> added = admin.post(
                    "/v1/servers",
                    "{\"name\": \"everything\", \"command\": \"node\", " + "\"args\": [\"" + EVERYTHING
                            + "\", \"stdio\"], \"env\": {\"SECRET_TOKEN\": \"env-s3cr3t\"}}");

            assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
            JsonNode server = json(added);
            assertThat(server.path("status").asText()).isEqualTo("ready");
            assertThat(server.path("tools").asInt()).isPositive();
            assertThat(added.body()).doesNotContain("env-s3cr3t");
            JsonNode found = json(s.client.post("/v1/tools/search", "{\"query\": \"add two numbers\", \"limit\": 3}"));
            assertThat(names(found.path("tools"))).anyMatch(n -> n.startsWith("everything__"));
            // its prefix is the server's: a catalog write may not take it
            assertThat(admin.put("/v1/tools/everything__fake", "{\"description\": \"x\"}")
                            .statusCode())
                    .isEqualTo(409);

            assertThat(admin.delete("/v1/servers/everything").statusCode()).isEqualTo(204);
            JsonNode after = json(s.client.post("/v1/tools/search", "{\"query\": \"add two numbers\", \"limit\": 3}"));
            assertThat(names(after.path("tools"))).noneMatch(n -> n.startsWith("everything__"));
        }
    }

    @Test
    void a_server_named_like_any_of_toolscouts_own_sources_is_a_409_and_nothing_is_stored() throws Exception {
        // issue 30, item 4: "skills" and "memory" were missing from the reserved list
        assertThat(EVERYTHING)
                .as("run ./run-tests, which installs the npm packages")
                .exists();
        try (ApiServer s = ApiServer.withKeys(tmp.resolve("data"), new HttpApi.Options(false, true))) {
            s.awaitReady();
            ApiClient admin = s.client.as(ApiServer.ADMIN);
            for (String name : java.util.List.of("skills", "Memory", "tool_discovery", "mcp", "verbs")) {
                HttpResponse<String> r = admin.post(
                        "/v1/servers",
                        "{\"name\": \"" + name + "\", \"command\": \"node\", " + "\"args\": [\"" + EVERYTHING
                                + "\", \"stdio\"]}");

                JsonNode p = HttpApiTest.problem(r, 409);
                assertThat(p.path("detail").asText())
                        .as(name)
                        .startsWith("server name '" + name + "' gives tool prefix '")
                        .contains("which is reserved for ToolScout's own tools");
            }
            assertThat(json(admin.get("/v1/servers")).toString()).doesNotContain("\"skills\"", "\"Memory\"");
        }
    }

    @Test
    void a_disabled_server_loses_its_tools_stays_disabled_after_a_restart_and_comes_back_when_enabled()
            throws Exception {
        assertThat(EVERYTHING)
                .as("run ./run-tests, which installs the npm packages")
                .exists();
        Path data = tmp.resolve("data");
        String query = "{\"query\": \"add two numbers\", \"limit\": 3}";
        try (ApiServer s = ApiServer.withKeys(data, new HttpApi.Options(false, true))) {
            s.awaitReady();
            ApiClient admin = s.client.as(ApiServer.ADMIN);
            assertThat(admin.post(
                                    "/v1/servers",
                                    "{\"name\": \"everything\", \"command\": \"node\", \"args\": [\"" + EVERYTHING
                                            + "\", \"stdio\"]}")
                            .statusCode())
                    .isEqualTo(201);
            long pid = s.mcp.registry().manager().pid("everything");
            assertThat(names(json(s.client.post("/v1/tools/search", query)).path("tools")))
                    .anyMatch(n -> n.startsWith("everything__"));

            // a reader and a user may not; an unknown name is 404
            assertThat(s.client.post("/v1/servers/everything/disable", "").statusCode())
                    .isEqualTo(403);
            assertThat(s.client
                            .as(ApiServer.USER)
                            .post("/v1/servers/everything/disable", "")
                            .statusCode())
                    .isEqualTo(403);
            assertThat(admin.post("/v1/servers/nobody/disable", "").statusCode())
                    .isEqualTo(404);
            HttpResponse<String> off = admin.post("/v1/servers/everything/disable", "");

            assertThat(off.statusCode()).as(off.body()).isEqualTo(200);
            assertThat(json(off).path("status").asText()).isEqualTo("disabled");
            assertThat(json(off).path("tools").asInt()).isZero();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("its process ended")
                    .isFalse();
            assertThat(names(json(s.client.post("/v1/tools/search", query)).path("tools")))
                    .noneMatch(n -> n.startsWith("everything__"));
            JsonNode listed = json(admin.get("/v1/servers"));
            assertThat(listed.path("servers").get(0).path("disabled").asBoolean())
                    .isTrue();
        }
        try (ApiServer s = ApiServer.withKeys(data, new HttpApi.Options(false, true))) {
            s.awaitReady();
            ApiClient admin = s.client.as(ApiServer.ADMIN);
            JsonNode listed = json(admin.get("/v1/servers"));

            assertThat(listed.path("servers").get(0).path("status").asText()).isEqualTo("disabled");
            assertThat(s.mcp.registry().manager().servers())
                    .as("not connected after the restart")
                    .isEmpty();
            assertThat(names(json(s.client.post("/v1/tools/search", query)).path("tools")))
                    .noneMatch(n -> n.startsWith("everything__"));

            HttpResponse<String> on = admin.post("/v1/servers/everything/enable", "");

            assertThat(on.statusCode()).as(on.body()).isEqualTo(200);
            assertThat(json(on).path("status").asText()).isEqualTo("ready");
            assertThat(json(on).path("disabled").asBoolean()).isFalse();
            assertThat(names(json(s.client.post("/v1/tools/search", query)).path("tools")))
                    .anyMatch(n -> n.startsWith("everything__"));
        }
    }
}
