package dev.toolscout.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.mcp.config.ServerConfigJson;
import dev.toolscout.mcp.secret.SecretBox;
import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Secrets in server URLs and command lines: found, redacted in outputs, sealed at rest. */
class SecretTextTest {
    static final SecretBox BOX = SecretBox.open(
            Path.of("unused"), Map.of(SecretBox.ENV_KEY, Base64.getEncoder().encodeToString(new byte[32])));

    @Test
    void a_url_shows_its_user_but_not_its_password_nor_secret_query_values() {
        assertThat(SecretText.url(URI.create("https://alice:pa%40ss@mcp.example.com:8443/v1/mcp?api_key=K1&team=core"
                        + "&token=T2&access_token=A3&key=K4&secret=S5&password=P6&sig=G7#frag")))
                .isEqualTo(
                        "https://alice:***@mcp.example.com:8443/v1/mcp?api_key=***&team=core&token=***&access_token=***"
                                + "&key=***&secret=***&password=***&sig=***#frag");
        assertThat(SecretText.url(URI.create("https://ghp_token123@github.example/mcp")))
                .isEqualTo("https://***@github.example/mcp");
        assertThat(SecretText.url(URI.create("http://localhost:3000/mcp?x=1")))
                .isEqualTo("http://localhost:3000/mcp?x=1");
    }

    @Test
    void arguments_show_their_flags_but_not_the_tokens_after_or_in_them() {
        assertThat(SecretText.args(List.of(
                        "-y",
                        "@modelcontextprotocol/server-github",
                        "--token",
                        "abc",
                        "--api-key=def",
                        "GITHUB_TOKEN=ghi",
                        "Authorization: Bearer jkl",
                        "--header",
                        "X-Team: core",
                        "sk-proj-0123456789abcdef",
                        "https://u:pw@h.example/x?key=k",
                        "/tmp/data",
                        "--verbose",
                        "0123456789abcdef0123456789abcdef",
                        "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE",
                        "--key",
                        "k-value",
                        "--password=p-value")))
                .containsExactly(
                        "-y",
                        "@modelcontextprotocol/server-github",
                        "--token",
                        "***",
                        "--api-key=***",
                        "GITHUB_TOKEN=***",
                        "Authorization: ***",
                        "--header",
                        "X-Team: core",
                        "***",
                        "https://u:***@h.example/x?key=***",
                        "/tmp/data",
                        "--verbose",
                        "***",
                        "***",
                        "--key",
                        "***",
                        "--password=***");
    }

    @Test
    void ordinary_arguments_are_not_taken_for_keys() {
        List<String> plain = List.of(
                "@modelcontextprotocol/server-filesystem",
                "modelcontextprotocol-server-filesystem-1",
                "/home/user/projects/some-long-directory-name-2024",
                "123e4567-e89b-12d3-a456-426614174000",
                "--port=8080",
                "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                "stdio");
        assertThat(SecretText.args(plain)).isEqualTo(plain);
    }

    @Test
    void error_text_loses_every_secret_of_the_config() {
        ServerConfig c = ServerConfig.http("r", URI.create("https://u:pw-secret@h.example/mcp?api_key=qk-secret"))
                .withHeaders(Map.of("Authorization", "Bearer hdr-secret"))
                .withApiKey("api-secret");

        assertThat(c.scrub(
                        "POST https://u:pw-secret@h.example/mcp?api_key=qk-secret failed; sent hdr-secret, api-secret"))
                .isEqualTo("POST https://u:***@h.example/mcp?api_key=*** failed; sent ***, ***");
    }

    @Test
    void an_unparsable_url_in_an_error_shows_neither_its_user_info_nor_its_query() {
        assertThat(SecretText.urlText("https://u:pw@host/ x?token=t")).isEqualTo("https://***@host/ x?***");
    }

    @Test
    void a_url_and_arguments_with_secrets_are_stored_sealed_and_read_back_whole() {
        ServerConfig http = ServerConfig.http("r", URI.create("https://u:pw-secret@h.example/mcp?api_key=qk-secret"));
        ServerConfig stdio =
                ServerConfig.stdio("s", "npx", List.of("-y", "server", "--token", "tok-secret", "--api-key=ak-secret"));

        for (ServerConfig c : List.of(http, stdio)) {
            String stored = ServerConfigJson.write(c, BOX);
            assertThat(stored).doesNotContain("secret").contains(SecretBox.PREFIX);
            assertThat(ServerConfigJson.read(stored, BOX)).isEqualTo(c);
        }
        assertThat(ServerConfigJson.write(stdio, BOX)).contains("\"-y\",\"server\",\"--token\"");
    }

    @Test
    void url_user_info_of_any_scheme_anywhere_in_an_argument_is_a_secret() {
        assertThat(SecretText.args(List.of(
                        "postgres://u:PW-one@db.internal/app",
                        "--db=mysql://root:PW-two@h/x",
                        "DATABASE_URL=postgresql://app:PW-three@db/x?sslmode=require",
                        "host=db user=app password=PW-four")))
                .containsExactly(
                        "postgres://u:***@db.internal/app",
                        "--db=mysql://root:***@h/x",
                        "DATABASE_URL=postgresql://app:***@db/x?sslmode=require",
                        "host=db user=app password=***");
    }

    @Test
    void a_known_tool_s_short_password_flag_is_a_secret_in_both_forms_and_not_elsewhere() {
        assertThat(ServerConfig.stdio("m", "mysql-mcp", List.of("mysql", "-u", "root", "-pPW-one", "shop"))
                        .endpoint())
                .isEqualTo("mysql-mcp mysql -u root -p*** shop");
        assertThat(ServerConfig.stdio("s", "sshpass", List.of("-p", "PW-two", "ssh", "host"))
                        .endpoint())
                .isEqualTo("sshpass -p *** ssh host");
        assertThat(ServerConfig.stdio("r", "redis-cli", List.of("-a", "PW-three"))
                        .endpoint())
                .isEqualTo("redis-cli -a ***");
        assertThat(ServerConfig.stdio("n", "npx", List.of("-p", "some-package", "cmd"))
                        .endpoint())
                .isEqualTo("npx -p some-package cmd");
    }

    @Test
    void query_values_and_headers_named_like_secrets_are_secrets() {
        assertThat(SecretText.url(URI.create("https://s3.example/o?X-Amz-Signature=S1&access_key=S2&private_key=S3"
                        + "&jwt=S4&session=S5&sid=S6&X-Amz-Date=20260101")))
                .isEqualTo("https://s3.example/o?X-Amz-Signature=***&access_key=***&private_key=***&jwt=***&session=***"
                        + "&sid=***&X-Amz-Date=20260101");
        ServerConfig c = ServerConfig.http("h", URI.create("https://h.example/mcp"))
                .withHeaders(Map.of("X-Custom-Auth", "hdr-one", "X-Team", "core"));
        assertThat(c.redacted().headers()).containsEntry("X-Custom-Auth", "***").containsEntry("X-Team", "core");
        assertThat(ServerConfigJson.write(c, BOX)).doesNotContain("hdr-one").contains("core");
    }

    @Test
    void what_the_operator_marks_is_sealed_and_redacted_too() {
        ServerConfig.SecretMarks marks =
                new ServerConfig.SecretMarks(List.of("--conn", "3"), List.of("x-tenant"), List.of("MY_DSN"));
        ServerConfig stdio = ServerConfig.stdio("s", "server", List.of("--conn", "plain-one", "--mode", "plain-two"))
                .withEnv(Map.of("MY_DSN", "plain-three", "LEVEL", "debug"))
                .withSecretMarks(marks);
        ServerConfig http = ServerConfig.http("h", URI.create("https://h.example/mcp"))
                .withHeaders(Map.of("X-Tenant", "plain-four"))
                .withSecretMarks(marks);

        assertThat(stdio.endpoint()).isEqualTo("server --conn *** --mode ***");
        assertThat(stdio.redacted().env()).containsEntry("MY_DSN", "***").containsEntry("LEVEL", "debug");
        assertThat(http.redacted().headers()).containsEntry("X-Tenant", "***");
        assertThat(stdio.scrub("failed: plain-one plain-two plain-three")).isEqualTo("failed: *** *** ***");
        for (ServerConfig c : List.of(stdio, http)) {
            String stored = ServerConfigJson.write(c, BOX);
            assertThat(stored).doesNotContain("plain-");
            assertThat(ServerConfigJson.read(stored, BOX)).isEqualTo(c);
        }
    }

    @Test
    void stdio_arguments_with_a_url_password_or_a_password_flag_are_stored_sealed() {
        ServerConfig c = ServerConfig.stdio(
                "db", "mysql", List.of("-u", "root", "-pPW-one", "--url", "postgres://u:PW-two@db/x"));

        String stored = ServerConfigJson.write(c, BOX);

        assertThat(stored).doesNotContain("PW-one", "PW-two").contains("\"-u\",\"root\"");
        assertThat(ServerConfigJson.read(stored, BOX)).isEqualTo(c);
    }
}
