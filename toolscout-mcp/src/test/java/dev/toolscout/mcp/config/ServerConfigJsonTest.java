package dev.toolscout.mcp.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.mcp.secret.SecretBox.UnsealException;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerConfig.Transport;
import dev.toolscout.testing.LogCapture;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String API_KEY = "sk-live-APIKEY-0001";
    private static final String BEARER = "Bearer ghp_HEADERSECRET0002";
    private static final String ENV_SECRET = "ENVSECRET-0003";

    @TempDir
    Path dir;

    private SecretBox box;

    @BeforeEach
    void openBox() {
        box = SecretBox.open(dir.resolve("key"), Map.of());
    }

    @Test
    void stdio_config_round_trips_with_every_field() {
        ServerConfig config = new ServerConfig(
                "filesystem ✓",
                Transport.STDIO,
                "npx",
                List.of("-y", "@modelcontextprotocol/server-filesystem", "/tmp", "ünïcödé"),
                Map.of("GITHUB_TOKEN", ENV_SECRET, "DEBUG", "1", "EMPTY", ""),
                Path.of("/srv/mcp"),
                null,
                null,
                null,
                Duration.ofMillis(1500));

        assertThat(ServerConfigJson.read(ServerConfigJson.write(config, box), box))
                .isEqualTo(config);
    }

    @Test
    void http_and_sse_configs_round_trip_with_secrets() {
        ServerConfig http = ServerConfig.http("copilot", URI.create("https://api.githubcopilot.com/mcp/?x=1"))
                .withHeaders(Map.of("Authorization", BEARER, "X-Team", "core"))
                .withApiKey(API_KEY)
                .withTimeout(Duration.ofMinutes(2));
        ServerConfig sse = new ServerConfig(
                "legacy",
                Transport.SSE,
                null,
                null,
                null,
                null,
                URI.create("http://localhost:8931/sse"),
                null,
                null,
                null);

        assertThat(ServerConfigJson.read(ServerConfigJson.write(http, box), box))
                .isEqualTo(http);
        assertThat(ServerConfigJson.read(ServerConfigJson.write(sse, box), box)).isEqualTo(sse);
    }

    @Test
    void stored_json_holds_no_secret_in_plain_text_but_plain_values_stay_readable() throws Exception {
        ServerConfig config = ServerConfig.http("api", URI.create("https://api.example.com/mcp"))
                .withHeaders(Map.of("Authorization", BEARER, "X-Api-Key", "HDRKEY-0004", "X-Team", "core-team"))
                .withApiKey(API_KEY);
        ServerConfig stdio = ServerConfig.stdio("gh", "docker", List.of("run", "ghcr.io/github/github-mcp-server"))
                .withEnv(Map.of("GITHUB_PERSONAL_ACCESS_TOKEN", ENV_SECRET, "GITHUB_TOOLSETS", "repos,issues"));

        String httpJson = ServerConfigJson.write(config, box);
        String stdioJson = ServerConfigJson.write(stdio, box);

        assertThat(httpJson)
                .doesNotContain(API_KEY)
                .doesNotContain("APIKEY-0001")
                .doesNotContain("HEADERSECRET0002")
                .doesNotContain("HDRKEY-0004");
        assertThat(stdioJson).doesNotContain(ENV_SECRET);
        JsonNode http = JSON.readTree(httpJson);
        assertThat(http.get("apiKey").asText()).startsWith("enc:v1:");
        assertThat(http.get("headers").get("Authorization").asText()).startsWith("enc:v1:");
        assertThat(http.get("headers").get("X-Api-Key").asText()).startsWith("enc:v1:");
        assertThat(http.get("headers").get("X-Team").asText()).isEqualTo("core-team");
        JsonNode gh = JSON.readTree(stdioJson);
        assertThat(gh.get("env").get("GITHUB_PERSONAL_ACCESS_TOKEN").asText()).startsWith("enc:v1:");
        assertThat(gh.get("env").get("GITHUB_TOOLSETS").asText()).isEqualTo("repos,issues");
        assertThat(gh.get("format").asInt()).isEqualTo(1);
        assertThat(gh.get("transport").asText()).isEqualTo("stdio");
        assertThat(gh.get("command").asText()).isEqualTo("docker");
    }

    @Test
    void plain_value_that_looks_sealed_is_sealed_so_it_reads_back_unchanged() throws Exception {
        ServerConfig config = ServerConfig.stdio("s", "x", List.of()).withEnv(Map.of("MODE", "enc:v1:literal"));

        String json = ServerConfigJson.write(config, box);

        assertThat(JSON.readTree(json).get("env").get("MODE").asText()).isNotEqualTo("enc:v1:literal");
        assertThat(ServerConfigJson.read(json, box)).isEqualTo(config);
    }

    @Test
    void secret_named_value_stored_plain_is_read_as_it_is() throws Exception {
        ObjectNode stored = storedJson(ServerConfig.stdio("s", "x", List.of()));
        stored.putObject("env").put("NEW_TOKEN", "stored-before-the-rule-knew-it");

        try (LogCapture log = LogCapture.of(ServerConfigJson.class)) {
            assertThat(ServerConfigJson.read(stored.toString(), box).env())
                    .containsEntry("NEW_TOKEN", "stored-before-the-rule-knew-it");
            // the operator is told which field to seal, never its value
            assertThat(log.warnings())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("'s'", "env.NEW_TOKEN", "stored plain")
                    .doesNotContain("stored-before-the-rule-knew-it");
        }
    }

    @Test
    void reading_with_another_key_fails_naming_the_server_and_field_but_not_the_secret() {
        String json = ServerConfigJson.write(
                ServerConfig.http("api", URI.create("https://api.example.com/mcp"))
                        .withApiKey(API_KEY),
                box);
        SecretBox otherBox = SecretBox.open(dir.resolve("other"), Map.of());

        assertThatThrownBy(() -> ServerConfigJson.read(json, otherBox))
                .isInstanceOf(UnsealException.class)
                .hasMessageStartingWith("stored server config 'api': apiKey: the secret cannot be decrypted")
                .hasMessageContaining("does not match the one it was sealed with")
                .hasMessageContaining(dir.resolve("other").resolve("secret.key").toString())
                .hasMessageNotContaining(API_KEY);
    }

    @Test
    void reading_a_secret_header_with_another_key_names_the_header() {
        String json = ServerConfigJson.write(
                ServerConfig.http("api", URI.create("https://api.example.com/mcp"))
                        .withHeaders(Map.of("Authorization", BEARER)),
                box);
        SecretBox otherBox = SecretBox.open(dir.resolve("other"), Map.of());

        assertThatThrownBy(() -> ServerConfigJson.read(json, otherBox))
                .isInstanceOf(UnsealException.class)
                .hasMessageStartingWith(
                        "stored server config 'api': headers.Authorization: the secret cannot be decrypted");
    }

    @Test
    void unknown_format_is_rejected_naming_the_server_and_the_format() throws Exception {
        ObjectNode stored = storedJson(ServerConfig.stdio("s", "x", List.of()));
        stored.put("format", 2);
        ObjectNode missing = stored.deepCopy();
        missing.remove("format");

        assertThatThrownBy(() -> ServerConfigJson.read(stored.toString(), box))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("stored server config 's' must have \"format\": 1")
                .hasMessageEndingWith("got: number 2");
        assertThatThrownBy(() -> ServerConfigJson.read(missing.toString(), box))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("got: no format");
    }

    @Test
    void malformed_stored_json_is_rejected_clearly() {
        assertThatThrownBy(() -> ServerConfigJson.read("{\"format\": 1,", box))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("stored server config is not valid JSON at line 1");
        assertThatThrownBy(() -> ServerConfigJson.read("[]", box))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stored server config must be a JSON object, got: array []");
        assertThatThrownBy(() -> ServerConfigJson.read("{\"format\": 1, \"name\": \"s\", \"transport\": \"ws\"}", box))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stored server config 's': transport must be one of stdio, http, sse, got: 'ws'");
        assertThatThrownBy(
                        () -> ServerConfigJson.read("{\"format\": 1, \"name\": \"s\", \"transport\": \"stdio\"}", box))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stored server config 's' is invalid: server 's': a stdio server needs a command");
    }

    @Test
    void plain_api_key_in_the_store_is_refused_without_showing_it() {
        String json = "{\"format\": 1, \"name\": \"api\", \"transport\": \"http\", \"url\": \"https://x.example\", "
                + "\"apiKey\": \"plain-key-123\"}";

        assertThatThrownBy(() -> ServerConfigJson.read(json, box))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "stored server config 'api': apiKey holds a secret and must be stored sealed ('enc:v1:...'), got a "
                                + "plain value (not shown)");
    }

    private ObjectNode storedJson(ServerConfig config) throws Exception {
        return (ObjectNode) JSON.readTree(ServerConfigJson.write(config, box));
    }
}
