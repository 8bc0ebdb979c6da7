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
      + "server-everything/dist/index.js").toAbsolutePath().normalize();

  @TempDir Path tmp;

  @Test
  void an_admin_registers_a_stdio_server_whose_tools_are_then_selected_and_removes_it() throws Exception {
    assertThat(EVERYTHING).as("run ./run-tests, which installs the npm packages").exists();
    try (ApiServer s = ApiServer.withKeys(tmp.resolve("data"), new HttpApi.Options(false, true))) {
      s.awaitReady();
      ApiClient admin = s.client.as(ApiServer.ADMIN);

      HttpResponse<String> added = admin.post("/v1/servers", "{\"name\": \"everything\", \"command\": \"node\", "
          + "\"args\": [\"" + EVERYTHING + "\", \"stdio\"], \"env\": {\"SECRET_TOKEN\": \"env-s3cr3t\"}}");

      assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
      JsonNode server = json(added);
      assertThat(server.path("status").asText()).isEqualTo("ready");
      assertThat(server.path("tools").asInt()).isPositive();
      assertThat(added.body()).doesNotContain("env-s3cr3t");
      JsonNode found = json(s.client.post("/v1/tools/search", "{\"query\": \"add two numbers\", \"limit\": 3}"));
      assertThat(names(found.path("tools"))).anyMatch(n -> n.startsWith("everything__"));
      // its prefix is the server's: a catalog write may not take it
      assertThat(admin.put("/v1/tools/everything__fake", "{\"description\": \"x\"}").statusCode()).isEqualTo(409);

      assertThat(admin.delete("/v1/servers/everything").statusCode()).isEqualTo(204);
      JsonNode after = json(s.client.post("/v1/tools/search", "{\"query\": \"add two numbers\", \"limit\": 3}"));
      assertThat(names(after.path("tools"))).noneMatch(n -> n.startsWith("everything__"));
    }
  }
}
