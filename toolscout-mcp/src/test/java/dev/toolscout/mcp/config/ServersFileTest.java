package dev.toolscout.mcp.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerConfig.Transport;
import dev.toolscout.testing.LogCapture;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServersFileTest {
    private static final Map<String, String> ENV = Map.of("GITHUB_TOKEN", "ghp_fromenv", "TEAM", "core");

    @TempDir
    Path dir;

    private int files;

    // --- what Claude Desktop users have ---

    @Test
    void claude_desktop_file_with_stdio_http_and_sse_servers_loads_in_file_order() throws IOException {
        Path file = write("""
            {
              "globalShortcut": "",
              "mcpServers": {
                "filesystem": {
                  "command": "npx",
                  "args": [
                    "-y",
                    "@modelcontextprotocol/server-filesystem",
                    "/Users/username/Desktop",
                    "/Users/username/Downloads"
                  ]
                },
                "github": {
                  "command": "docker",
                  "args": [
                    "run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"
                  ],
                  "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}", "GITHUB_TOOLSETS": "repos,issues"}
                },
                "copilot": {
                  "type": "http",
                  "url": "https://api.githubcopilot.com/mcp/",
                  "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}", "X-Team": "${TEAM}"},
                  "timeoutMs": 60000
                },
                "legacy": {
                  "type": "sse",
                  "url": "http://localhost:8931/sse",
                  "apiKey": "${LEGACY_KEY:-dev-key}"
                }
              }
            }
            """);

        List<ServerConfig> servers = ServersFile.load(file, ENV);

        assertThat(servers).extracting(ServerConfig::name).containsExactly("filesystem", "github", "copilot", "legacy");
        assertThat(servers.get(0))
                .isEqualTo(ServerConfig.stdio(
                        "filesystem",
                        "npx",
                        List.of(
                                "-y",
                                "@modelcontextprotocol/server-filesystem",
                                "/Users/username/Desktop",
                                "/Users/username/Downloads")));
        assertThat(servers.get(1).env())
                .isEqualTo(Map.of("GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_fromenv", "GITHUB_TOOLSETS", "repos,issues"));
        assertThat(servers.get(1).args()).hasSize(6).endsWith("ghcr.io/github/github-mcp-server");
        assertThat(servers.get(2))
                .isEqualTo(ServerConfig.http("copilot", URI.create("https://api.githubcopilot.com/mcp/"))
                        .withHeaders(Map.of("Authorization", "Bearer ghp_fromenv", "X-Team", "core"))
                        .withTimeout(Duration.ofMinutes(1)));
        ServerConfig legacy = servers.get(3);
        assertThat(legacy.transport()).isEqualTo(Transport.SSE);
        assertThat(legacy.url()).isEqualTo(URI.create("http://localhost:8931/sse"));
        assertThat(legacy.apiKey()).isEqualTo("dev-key");
        assertThat(legacy.timeout()).isEqualTo(ServerConfig.DEFAULT_TIMEOUT);
    }

    @Test
    void url_without_type_is_streamable_http_and_every_http_spelling_is_accepted() throws IOException {
        Path file = write("""
            {"mcpServers": {
              "plain": {"url": "https://a.example.com/mcp"},
              "dashed": {"type": "streamable-http", "url": "https://b.example.com/mcp"},
              "camel": {"type": "streamableHttp", "url": "https://c.example.com/mcp"},
              "upper": {"type": "SSE", "url": "https://d.example.com/sse"},
              "local": {"type": "stdio", "command": "my-server"}
            }}
            """);

        assertThat(ServersFile.load(file, ENV))
                .extracting(ServerConfig::transport)
                .containsExactly(Transport.HTTP, Transport.HTTP, Transport.HTTP, Transport.SSE, Transport.STDIO);
    }

    @Test
    void disabled_servers_are_skipped_even_when_otherwise_invalid() throws IOException {
        Path file = write("""
            {"mcpServers": {
              "old": {"command": "old-server", "disabled": true},
              "broken": {"command": "x", "url": "also-x", "disabled": true},
              "kept": {"command": "kept-server", "disabled": false}
            }}
            """);

        assertThat(ServersFile.load(file, ENV)).extracting(ServerConfig::name).containsExactly("kept");
    }

    @Test
    void relative_cwd_resolves_against_the_file_directory_and_absolute_cwd_is_kept() throws IOException {
        Path file = write("""
            {"mcpServers": {
              "rel": {"command": "node", "args": ["index.js"], "cwd": "servers/../servers/rel"},
              "abs": {"command": "node", "cwd": "/opt/mcp"}
            }}
            """);

        List<ServerConfig> servers = ServersFile.load(file, ENV);

        assertThat(servers.get(0).cwd())
                .isEqualTo(dir.toAbsolutePath().resolve("servers").resolve("rel"));
        assertThat(servers.get(1).cwd()).isEqualTo(Path.of("/opt/mcp"));
    }

    @Test
    void unknown_members_are_ignored_and_the_server_still_loads() throws IOException {
        Path file = write("""
            {"mcpServers": {
              "fs": {"command": "npx", "alwaysAllow": ["read_file"], "autoApprove": [], "description": "files",
                     "headers": {"X-Ignored": "on a stdio server"}}
            }}
            """);

        try (LogCapture log = LogCapture.of(ServersFile.class)) {
            ServerConfig fs = ServersFile.load(file, ENV).getFirst();

            assertThat(fs).isEqualTo(ServerConfig.stdio("fs", "npx", List.of()));
            // each ignored member is named, with its path in the file
            String prefix = "servers file " + file + ": ignoring ";
            assertThat(log.warnings())
                    .containsExactly(
                            prefix + "unknown member mcpServers.fs.alwaysAllow",
                            prefix + "unknown member mcpServers.fs.autoApprove",
                            prefix + "unknown member mcpServers.fs.description",
                            prefix + "mcpServers.fs.headers: it does not apply to a stdio server");
        }
    }

    @Test
    void empty_server_map_loads_no_servers() throws IOException {
        assertThat(ServersFile.load(write("{\"mcpServers\": {}}"), ENV)).isEmpty();
    }

    @Test
    void top_level_map_of_servers_without_wrapper_is_accepted() throws IOException {
        Path file = write("""
            {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
             "web": {"url": "https://example.com/mcp"}}
            """);

        assertThat(ServersFile.load(file, ENV)).extracting(ServerConfig::name).containsExactly("fs", "web");
    }

    @Test
    void variables_are_expanded_only_in_env_headers_and_api_key() throws IOException {
        Path file = write("""
            {"mcpServers": {
              "s": {"command": "run-${TEAM}", "args": ["${TEAM}"], "env": {"A": "x-${TEAM}-${TEAM}-$HOME-${EMPTY:-}"}}
            }}
            """);

        ServerConfig s = ServersFile.load(file, ENV).getFirst();

        assertThat(s.command()).isEqualTo("run-${TEAM}");
        assertThat(s.args()).containsExactly("${TEAM}");
        assertThat(s.env()).containsEntry("A", "x-core-core-$HOME-");
    }

    @Test
    void load_without_env_uses_the_process_environment() throws IOException {
        Path file = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"P\": \"${PATH}\"}}}}");

        assertThat(ServersFile.load(file).getFirst().env()).containsEntry("P", System.getenv("PATH"));
    }

    // --- errors: the file ---

    @Test
    void missing_file_is_an_error_naming_it() {
        Path missing = dir.resolve("nope.json");

        assertError(() -> ServersFile.load(missing, ENV))
                .hasMessage("servers file " + missing + ": does not exist (expected a JSON file with \"mcpServers\")");
    }

    @Test
    void file_that_is_not_json_is_an_error_with_line_and_column() throws IOException {
        Path file = write("""
            {"mcpServers": {
              "fs": {"command": "npx",
                     "args": ["-y" "/tmp"]}
            }}
            """);

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessageStartingWith("servers file " + file + ": is not valid JSON at line 3, column 24: ")
                .hasMessageContaining("expecting comma");
    }

    @Test
    void empty_file_and_non_object_top_level_are_errors() throws IOException {
        Path empty = write("  \n");
        Path array = write("[{\"command\": \"npx\"}]");

        assertError(() -> ServersFile.load(empty, ENV))
                .hasMessage("servers file " + empty + ": is empty, expected a JSON object with \"mcpServers\"");
        assertError(() -> ServersFile.load(array, ENV))
                .hasMessage("servers file " + array
                        + ": the top level must be a JSON object with \"mcpServers\", got: array "
                        + "[{\"command\":\"npx\"}]");
    }

    @Test
    void top_level_without_mcp_servers_that_is_not_clearly_a_server_map_is_rejected() throws IOException {
        Path settings = write("{\"globalShortcut\": \"\", \"fs\": {\"command\": \"npx\"}}");
        Path empty = write("{}");

        assertError(() -> ServersFile.load(settings, ENV))
                .hasMessage(
                        "servers file " + settings + ": expected an object with \"mcpServers\" mapping server names to "
                                + "servers (as in claude_desktop_config.json), got the members 'globalShortcut', 'fs'");
        assertError(() -> ServersFile.load(empty, ENV))
                .hasMessageContaining("got the members (none: the object is empty)");
    }

    @Test
    void duplicate_keys_are_an_error_with_the_position() throws IOException {
        Path file = write("""
            {"mcpServers": {
              "github": {"command": "a"},
              "github": {"command": "b"}
            }}
            """);

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessageStartingWith("servers file " + file + ": is not valid JSON at line 3")
                .hasMessageContaining("Duplicate field 'github'");
    }

    // --- errors: a server ---

    @Test
    void mcp_servers_that_is_not_an_object_is_an_error() throws IOException {
        Path file = write("{\"mcpServers\": [\"fs\"]}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file
                        + ": mcpServers: must be an object mapping server names to servers, got: array " + "[\"fs\"]");
    }

    @Test
    void server_that_is_not_an_object_is_an_error() throws IOException {
        Path file = write("{\"mcpServers\": {\"fs\": \"npx fs\"}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file
                        + ": mcpServers.fs: must be an object with \"command\" or \"url\", got: string "
                        + "\"npx fs\"");
    }

    @Test
    void the_operator_marks_more_secrets_by_flag_position_header_and_environment_name() throws IOException {
        Path file = write("""
        {"mcpServers": {
          "wh": {"command": "wh-mcp", "args": ["--conn", "dsn-1", "pos-2"], "env": {"WH_DSN": "dsn-3"},
                 "secretArgs": ["--conn", 2], "secretEnv": ["wh_dsn"]},
          "billing": {"url": "https://billing.example/mcp", "headers": {"X-Tenant": "t-4"},
                      "secretHeaders": ["X-Tenant"]}}}""");

        List<ServerConfig> servers = ServersFile.load(file, ENV);

        assertThat(servers.get(0).endpoint()).isEqualTo("wh-mcp --conn *** ***");
        assertThat(servers.get(0).redacted().env()).containsEntry("WH_DSN", "***");
        assertThat(servers.get(1).redacted().headers()).containsEntry("X-Tenant", "***");
    }

    @Test
    void a_secret_mark_that_is_neither_a_flag_nor_a_position_is_an_error_naming_it() throws IOException {
        Path file = write("{\"mcpServers\": {\"wh\": {\"command\": \"wh\", \"secretArgs\": [true]}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file + ": mcpServers.wh: secretArgs[0] must be a flag (\"--conn\") or an "
                        + "argument position (0-9999), got: boolean true");
    }

    @Test
    void arg_that_is_not_a_string_is_an_error_naming_its_index() throws IOException {
        Path file = write("{\"mcpServers\": {\"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg\", 8080]}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file + ": mcpServers.github.args[2]: must be a string, got: number 8080");
    }

    @Test
    void args_that_is_not_an_array_is_an_error() throws IOException {
        Path file = write("{\"mcpServers\": {\"github\": {\"command\": \"npx\", \"args\": \"-y pkg\"}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file
                        + ": mcpServers.github.args: must be an array of strings, got: string \"-y pkg\"");
    }

    @Test
    void env_value_of_the_wrong_type_is_an_error_that_hides_secret_values() throws IOException {
        Path plain = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"PORT\": 8080}}}}");
        Path secret = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"API_TOKEN\": 987654321}}}}");

        assertError(() -> ServersFile.load(plain, ENV))
                .hasMessage("servers file " + plain + ": mcpServers.s.env.PORT: must be a string, got: number 8080");
        assertError(() -> ServersFile.load(secret, ENV))
                .hasMessageContaining("mcpServers.s.env.API_TOKEN: must be a string, got: number")
                .hasMessageNotContaining("987654321");
    }

    @Test
    void headers_that_is_not_an_object_is_an_error() throws IOException {
        Path file = write("{\"mcpServers\": {\"s\": {\"url\": \"https://x.example\", \"headers\": [\"A: b\"]}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file
                        + ": mcpServers.s.headers: must be an object of names to string values, got: "
                        + "array [\"A: b\"]");
    }

    @Test
    void unknown_transport_type_is_an_error_listing_the_known_ones() throws IOException {
        Path file = write("{\"mcpServers\": {\"ws\": {\"type\": \"websocket\", \"url\": \"https://x.example/ws\"}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage(
                        "servers file " + file + ": mcpServers.ws.type: must be one of stdio, http, streamable-http, "
                                + "streamableHttp, sse, got: 'websocket'");
    }

    @Test
    void type_that_contradicts_command_or_url_is_an_error() throws IOException {
        Path sseWithCommand = write("{\"mcpServers\": {\"s\": {\"type\": \"sse\", \"command\": \"npx\"}}}");
        Path stdioWithUrl = write("{\"mcpServers\": {\"s\": {\"type\": \"stdio\", \"url\": \"https://x.example\"}}}");

        assertError(() -> ServersFile.load(sseWithCommand, ENV))
                .hasMessage("servers file " + sseWithCommand
                        + ": mcpServers.s.type: 'sse' does not fit a server with \"command\" "
                        + "(an sse server needs \"url\")");
        assertError(() -> ServersFile.load(stdioWithUrl, ENV))
                .hasMessage("servers file " + stdioWithUrl
                        + ": mcpServers.s.type: 'stdio' does not fit a server with \"url\" "
                        + "(a stdio server needs \"command\")");
    }

    @Test
    void empty_command_is_an_error() throws IOException {
        Path file = write("{\"mcpServers\": {\"fs\": {\"command\": \"  \", \"args\": [\"x\"]}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file + ": mcpServers.fs.command: must not be empty, got: '  '");
    }

    @Test
    void command_and_url_together_or_neither_is_an_error() throws IOException {
        Path both = write("{\"mcpServers\": {\"s\": {\"command\": \"npx\", \"url\": \"https://x.example\"}}}");
        Path neither = write("{\"mcpServers\": {\"s\": {\"args\": [\"x\"]}}}");

        assertError(() -> ServersFile.load(both, ENV))
                .hasMessage("servers file " + both
                        + ": mcpServers.s: a server takes either \"command\" (stdio) or \"url\" (http, "
                        + "sse), got both: command 'npx' and url 'https://x.example'");
        assertError(() -> ServersFile.load(neither, ENV))
                .hasMessage("servers file " + neither
                        + ": mcpServers.s: a server needs \"command\" (stdio) or \"url\" (http, sse), "
                        + "got neither");
    }

    @Test
    void bad_urls_are_errors_quoting_the_url() throws IOException {
        Path ftp = write("{\"mcpServers\": {\"s\": {\"url\": \"ftp://files.example.com/mcp\"}}}");
        Path relative = write("{\"mcpServers\": {\"s\": {\"url\": \"localhost:8080/mcp\"}}}");
        Path spaces = write("{\"mcpServers\": {\"s\": {\"url\": \"http://a b/mcp\"}}}");

        assertError(() -> ServersFile.load(ftp, ENV))
                .hasMessage("servers file " + ftp
                        + ": mcpServers.s.url: must be an absolute http:// or https:// URL with a host, "
                        + "got: 'ftp://files.example.com/mcp'");
        assertError(() -> ServersFile.load(relative, ENV))
                .hasMessageContaining("mcpServers.s.url: must be an absolute http:// or https:// URL")
                .hasMessageContaining("got: 'localhost:8080/mcp'");
        assertError(() -> ServersFile.load(spaces, ENV))
                .hasMessageContaining(
                        "mcpServers.s.url: must be an absolute http:// or https:// URL, got: 'http://a b/mcp'")
                .hasMessageContaining("Illegal character in authority at index 8");
    }

    @Test
    void timeout_that_is_not_a_positive_whole_number_within_the_limit_is_an_error() throws IOException {
        Path text = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"timeoutMs\": \"30s\"}}}");
        Path fraction = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"timeoutMs\": 1.5}}}");
        Path zero = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"timeoutMs\": 0}}}");
        Path huge = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"timeoutMs\": 3600000}}}");

        assertError(() -> ServersFile.load(text, ENV))
                .hasMessage("servers file " + text
                        + ": mcpServers.s.timeoutMs: must be a whole number of milliseconds, got: " + "string \"30s\"");
        assertError(() -> ServersFile.load(fraction, ENV))
                .hasMessageContaining(
                        "mcpServers.s.timeoutMs: must be a whole number of milliseconds, got: number 1.5");
        assertError(() -> ServersFile.load(zero, ENV))
                .hasMessageContaining("mcpServers.s.timeoutMs: must be between 1 and 600000 milliseconds, got: 0");
        assertError(() -> ServersFile.load(huge, ENV))
                .hasMessageContaining(
                        "mcpServers.s.timeoutMs: must be between 1 and 600000 milliseconds, got: 3600000");
    }

    @Test
    void disabled_that_is_not_a_boolean_is_an_error() throws IOException {
        Path file = write("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"disabled\": \"yes\"}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage(
                        "servers file " + file + ": mcpServers.s.disabled: must be true or false, got: string \"yes\"");
    }

    @Test
    void api_key_of_the_wrong_type_is_an_error_that_hides_the_value() throws IOException {
        Path file = write("{\"mcpServers\": {\"s\": {\"url\": \"https://x.example\", \"apiKey\": 1234567890}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessageContaining("mcpServers.s.apiKey: must be a string, got: number (value not shown")
                .hasMessageNotContaining("1234567890");
    }

    @Test
    void unknown_variable_is_an_error_naming_the_server_the_field_and_the_variable() throws IOException {
        Path env = write("{\"mcpServers\": {\"github\": {\"command\": \"x\", \"env\": {\"GH\": \"${NOT_SET}\"}}}}");
        Path header = write("{\"mcpServers\": {\"api\": {\"url\": \"https://x.example\", "
                + "\"headers\": {\"Authorization\": \"Bearer ${API_TOKEN}\"}}}}");
        Path apiKey = write("{\"mcpServers\": {\"api\": {\"url\": \"https://x.example\", \"apiKey\": \"${KEY}\"}}}");

        assertError(() -> ServersFile.load(env, ENV))
                .hasMessage("servers file " + env
                        + ": mcpServers.github.env.GH: refers to the environment variable ${NOT_SET}, "
                        + "which is not set (set it, or write ${NOT_SET:-default})");
        assertError(() -> ServersFile.load(header, ENV))
                .hasMessageContaining(
                        "mcpServers.api.headers.Authorization: refers to the environment variable ${API_TOKEN}");
        assertError(() -> ServersFile.load(apiKey, ENV))
                .hasMessageContaining("mcpServers.api.apiKey: refers to the environment variable ${KEY}");
    }

    @Test
    void names_that_are_equal_after_trimming_are_duplicates() throws IOException {
        Path file = write("{\"mcpServers\": {\"github\": {\"command\": \"a\"}, \" github \": {\"command\": \"b\"}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file
                        + ": mcpServers.\" github \": server name 'github' is used twice (names are "
                        + "compared without leading and trailing spaces)");
    }

    @Test
    void names_that_give_the_same_tool_prefix_are_an_error() throws IOException {
        Path file =
                write("{\"mcpServers\": {\"my-server\": {\"command\": \"a\"}, \"My-Server\": {\"command\": \"b\"}}}");

        assertError(() -> ServersFile.load(file, ENV))
                .hasMessage("servers file " + file
                        + ": mcpServers.My-Server: server names 'my-server' and 'My-Server' both give "
                        + "the tool prefix 'my-server'; rename one of them");
    }

    @Test
    void invalid_server_name_is_reported_with_the_file_and_path() throws IOException {
        String longName = "n".repeat(49);
        Path tooLong = write("{\"mcpServers\": {\"" + longName + "\": {\"command\": \"a\"}}}");
        Path noLetters = write("{\"mcpServers\": {\"!!!\": {\"command\": \"a\"}}}");

        assertError(() -> ServersFile.load(tooLong, ENV))
                .hasMessage("servers file " + tooLong + ": mcpServers." + longName
                        + ": server name must be at most 48 characters, " + "got 49: '" + longName + "'");
        assertError(() -> ServersFile.load(noLetters, ENV))
                .hasMessage("servers file " + noLetters
                        + ": mcpServers.\"!!!\": server name must hold at least one letter or " + "digit, got: '!!!'");
    }

    private Path write(String json) throws IOException {
        Path file = dir.resolve("config-" + ++files + ".json");
        Files.writeString(file, json, StandardCharsets.UTF_8);
        return file;
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertError(ThrowingCallable call) {
        return assertThatThrownBy(call)
                .isInstanceOf(ServersFileException.class)
                .isInstanceOf(IllegalArgumentException.class);
    }
}
