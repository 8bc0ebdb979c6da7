package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.spec.McpTransport;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * `mcp add` validates first: a server that does not answer is refused and nothing is stored. A missing stdio
 * command is one line, here and in a --servers file.
 */
@ResourceLock(LogCapture.LOGGERS)
class McpAddTest {
    @TempDir
    Path dir;

    private static String[] run(String... args) {
        return McpPersistenceTest.run(args);
    }

    /** A loopback port nobody listens on (taken, then released). */
    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * What the connection to an unreachable server logs: that it is down, naming the address; the SDK's transport
     * may add that closing the never-opened connection failed.
     */
    static void assertDownLogged(LogCapture upstream, LogCapture transport, String server, String url) {
        URI u = URI.create(url);
        assertThat(upstream.warnings())
                .isNotEmpty()
                .allSatisfy(w -> assertThat(w)
                        .startsWith("MCP server '" + server + "' is down: cannot connect: cannot reach " + u.getHost()
                                + ":" + u.getPort() + " (ConnectException"));
        assertThat(transport.warnings()).allSatisfy(w -> assertThat(w).startsWith("Error during asynchronous close"));
    }

    @Test
    void an_unreachable_server_is_refused_and_not_stored() throws Exception {
        Path data = dir.resolve("data");
        String url = "http://127.0.0.1:" + closedPort() + "/mcp";
        String[] r;
        try (LogCapture upstream = LogCapture.of("dev.toolscout.mcp.upstream.UpstreamConnection");
                LogCapture transport = LogCapture.of(McpTransport.class)) {
            r = run("mcp", "add", "offline", "--url", url, "--timeout", "2", "--data-dir", data.toString());
            assertDownLogged(upstream, transport, "offline", url);
        }

        assertThat(r[0]).isEqualTo("1");
        assertThat(r[2])
                .contains("toolscout mcp add: error: server 'offline' (http) did not answer")
                .contains("nothing was stored (--allow-offline stores it anyway");
        assertThat(r[1]).doesNotContain("registered");
        assertThat(McpPersistenceTest.storedServers(data)).isEmpty();
    }

    @Test
    void allow_offline_stores_an_unreachable_server() throws Exception {
        Path data = dir.resolve("data");
        String url = "http://127.0.0.1:" + closedPort() + "/mcp";
        String[] r;
        try (LogCapture upstream = LogCapture.of("dev.toolscout.mcp.upstream.UpstreamConnection");
                LogCapture transport = LogCapture.of(McpTransport.class)) {
            r = run(
                    "mcp",
                    "add",
                    "later",
                    "--url",
                    url,
                    "--timeout",
                    "2",
                    "--allow-offline",
                    "--data-dir",
                    data.toString());
            assertDownLogged(upstream, transport, "later", url);
        }

        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(r[1]).startsWith("registered 'later' (http): down, 0 tools");
        assertThat(McpPersistenceTest.storedServers(data)).containsExactly("later");
    }

    @Test
    void a_reachable_server_is_stored_with_its_tools() {
        Path data = dir.resolve("data");
        String server = McpPersistenceTest.PEERS
                .resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js")
                .toString();
        // not "memory": the demo catalog's built-in memory__* tools hold that prefix (issue 14, item 2)
        String[] r = run(
                "mcp",
                "add",
                "kg",
                "--env",
                "MEMORY_FILE_PATH=" + dir.resolve("kg.jsonl"),
                "--data-dir",
                data.toString(),
                "--",
                "node",
                server);

        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(r[1]).startsWith("registered 'kg' (stdio): ready, ");
        assertThat(McpPersistenceTest.storedServers(data)).containsExactly("kg");
        String[] removed = run("mcp", "remove", "kg", "--data-dir", data.toString());
        assertThat(removed[0]).as(removed[2]).isEqualTo("0");
        assertThat(McpPersistenceTest.storedServers(data)).isEmpty();
    }

    @Test
    void a_stdio_command_that_does_not_exist_is_bad_input_in_one_line() {
        Path data = dir.resolve("data");
        String[] r = run("mcp", "add", "ghost", "--data-dir", data.toString(), "--", "no-such-command-7f3a");

        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2])
                .isEqualTo("toolscout mcp add: error: server 'ghost': command 'no-such-command-7f3a' was not "
                        + "found on PATH; nothing was stored" + System.lineSeparator());
        assertThat(McpPersistenceTest.storedServers(data)).isEmpty();
    }

    @Test
    void a_servers_file_naming_a_missing_command_says_so_in_one_line() throws Exception {
        Path data = dir.resolve("data");
        Path servers = dir.resolve("servers.json");
        java.nio.file.Files.writeString(
                servers, "{\"mcpServers\": {\"ghost\": {\"command\": \"no-such-command-7f3a\"}}}");
        String[] r = run(
                "find",
                "send an email",
                "--servers",
                servers.toString(),
                "--servers-wait",
                "1",
                "--data-dir",
                data.toString());

        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(r[2])
                .isEqualTo("toolscout: MCP server 'ghost' is not started: command 'no-such-command-7f3a' was "
                        + "not found on PATH (" + servers + ")" + System.lineSeparator());
    }
}
