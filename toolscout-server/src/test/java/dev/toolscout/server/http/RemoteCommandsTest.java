package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.server.cli.ToolScoutCli;
import dev.toolscout.server.http.api.HttpApi;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code select}, {@code find}, {@code list} and {@code describe} with {@code --server URL}: they ask a running
 * server's HTTP API (here the one {@code serve} runs, in this process, with API keys) and print what they print
 * on the server's data directory for the key's principal (read beside the server, read-only).
 */
class RemoteCommandsTest {
    @TempDir
    static Path tmp;

    static ApiServer server;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        data = tmp.resolve("data");
        server = ApiServer.withKeys(data, HttpApi.Options.DEFAULT);
        server.awaitReady();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private record Run(int code, String out, String err) {}

    private static Run run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ToolScoutCli.run(
                args,
                new ByteArrayInputStream(new byte[0]),
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                env);
        return new Run(code, out.toString(), err.toString());
    }

    /** The command asked of the server, as the reader key's principal. */
    private static Run remote(String... command) {
        return run(Map.of("TOOLSCOUT_API_KEY", ApiServer.READER), with(command, "--server", server.http.baseUrl()));
    }

    /** The command on the server's data directory (read-only beside it), as the reader key's principal. */
    private static Run local(String... command) {
        return run(Map.of(), with(command, "--data-dir", data.toString(), "--user", "rita", "--group", "kids"));
    }

    private static String[] with(String[] command, String... more) {
        List<String> all = new ArrayList<>(Arrays.asList(command));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void each_reading_command_prints_what_it_prints_on_the_servers_data_directory() {
        List<String[]> commands = List.of(
                new String[] {"select", HttpApiTest.DEMO_MESSAGE},
                new String[] {"select", "Send the report to the team by email", "--k", "5", "--format", "json"},
                new String[] {
                    "select", "Send the report to the team by email", "--token-budget", "900", "--format", "anthropic"
                },
                new String[] {
                    "select", "Send the report to the team by email", "--k", "3", "--format", "anthropic-deferred"
                },
                new String[] {"find", "send an email", "--limit", "5"},
                new String[] {"list"},
                new String[] {"list", "--category", "Communication"},
                new String[] {"describe", "gmail__send_email"},
                new String[] {"describe", "tool_discovery__find"});
        for (String[] command : commands) {
            Run expected = local(command);
            Run actual = remote(command);
            String what = String.join(" ", command);
            assertThat(expected.code()).as(what + ": " + expected.err()).isZero();
            assertThat(actual.code()).as(what + ": " + actual.err()).isZero();
            assertThat(actual.out()).as(what).isEqualTo(expected.out());
            assertThat(actual.err()).as(what).isEmpty();
        }
        Run missing = remote("describe", "gmail__no_such_tool");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err())
                .isEqualTo("toolscout describe: Tool not found: gmail__no_such_tool\n")
                .isEqualTo(local("describe", "gmail__no_such_tool")
                                .err()
                                .lines()
                                .skip(1)
                                .findFirst()
                                .orElse("") + "\n");
    }

    @Test
    void a_server_with_keys_refuses_a_command_without_one_in_one_line() {
        Run r = run(Map.of(), "select", HttpApiTest.DEMO_MESSAGE, "--server", server.http.baseUrl());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("toolscout select: error: " + server.http.baseUrl() + "/v1/select answered 401: ")
                .endsWith("; set TOOLSCOUT_API_KEY to one of the server's API keys\n")
                .hasLineCount(1);
        Run wrong = run(Map.of("TOOLSCOUT_API_KEY", "not-a-key-0123456789"), "list", "--server", server.http.baseUrl());
        assertThat(wrong.code()).isEqualTo(1);
        assertThat(wrong.err())
                .endsWith("; TOOLSCOUT_API_KEY is not one of the server's API keys\n")
                .doesNotContain("not-a-key-0123456789");
    }

    @Test
    void the_servers_refusal_of_a_value_is_bad_input_in_its_words() {
        Run r = remote("select", "hi", "--k", "99");
        assertThat(r.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(r.err()).isEqualTo("toolscout select: error: k must be an integer between 1 and 50, got: 99\n");
    }

    @Test
    void options_the_server_would_not_hear_are_refused_before_anything_is_asked() {
        Run r = remote("find", "email", "--data-dir", data.toString(), "--user", "bob");
        assertThat(r.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(r.err())
                .isEqualTo("toolscout find: error: --data-dir, --user do not go with --server: the server "
                        + "uses its own data directory, catalog, policy, model and servers, and the principal of the API key in "
                        + "$TOOLSCOUT_API_KEY\n");
    }

    @Test
    void a_bad_url_and_an_unreachable_server_are_one_line_each() {
        Run bad = run(Map.of(), "list", "--server", "ftp://127.0.0.1:8765");
        assertThat(bad.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(bad.err())
                .isEqualTo("toolscout list: error: --server must be an http or https URL of a host (and "
                        + "port), such as http://127.0.0.1:8765, got: 'ftp://127.0.0.1:8765'\n");
        // port 1 on loopback: nothing listens there
        Run down = run(Map.of(), "describe", "gmail__send_email", "--server", "http://127.0.0.1:1");
        assertThat(down.code()).isEqualTo(1);
        assertThat(down.err())
                .startsWith("toolscout describe: error: cannot reach the server at http://127.0.0.1:1")
                .hasLineCount(1);
    }
}
