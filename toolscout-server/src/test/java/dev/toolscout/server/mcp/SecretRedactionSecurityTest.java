package dev.toolscout.server.mcp;

import static dev.toolscout.server.mcp.SecurityGateway.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpActions;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 14, item 5 (secrets in clear): passwords in server URLs and tokens in stdio arguments were stored in
 * clear and shown by {@code mcp list} and {@code mcp__list_servers}. They are now sealed in the store like the
 * other secrets and redacted in every output, while the connection still uses them.
 */
@ResourceLock(LogCapture.LOGGERS)
class SecretRedactionSecurityTest {
    static final String PASSWORD = "pw-Secret-1234";
    static final String QUERY_KEY = "qk-Secret-5678";
    static final String TOKEN = "tok-Secret-9012";
    static final String API_KEY_ARG = "ak-Secret-3456";
    static final String GITHUB_TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    static final List<String> SECRETS = List.of(PASSWORD, QUERY_KEY, TOKEN, API_KEY_ARG, GITHUB_TOKEN);

    @TempDir
    Path dir;

    ServerConfig argvServer() {
        return ServerConfig.stdio(
                "Argv",
                "node",
                List.of(
                        SecurityGateway.PEERS.resolve("faults/argv.mjs").toString(),
                        "--token",
                        TOKEN,
                        "--api-key=" + API_KEY_ARG,
                        GITHUB_TOKEN,
                        "--verbose"));
    }

    /**
     * An MCP server that records what each request carried and refuses every message with a 500, at once: the
     * Streamable HTTP POST, and after the client's fallback to the legacy SSE transport, the message posted to the
     * endpoint its event stream names (the URL again, so the refusal carries the key too). Offering that stream,
     * rather than answering its GET with a 500 as well, lets each connect attempt fail within a second: the SDK's
     * SSE client waits out the whole start timeout (60 s) for an endpoint that a refused stream never sends.
     */
    record Recorder(HttpServer server, List<String> seen, CountDownLatch closed) implements AutoCloseable {
        static Recorder start() throws java.io.IOException {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            List<String> seen = new CopyOnWriteArrayList<>();
            CountDownLatch closed = new CountDownLatch(1);
            s.setExecutor(Executors.newCachedThreadPool()); // an open event stream must not hold the next request
            s.createContext("/", ex -> {
                seen.add(ex.getRequestURI() + " " + ex.getRequestHeaders().getFirst("Authorization"));
                ex.getRequestBody().readAllBytes();
                if (ex.getRequestMethod().equals("GET")) {
                    ex.getResponseHeaders().add("Content-Type", "text/event-stream");
                    ex.sendResponseHeaders(200, 0);
                    ex.getResponseBody()
                            .write(("event: endpoint\ndata: " + ex.getRequestURI() + "\n\n")
                                    .getBytes(StandardCharsets.UTF_8));
                    ex.getResponseBody().flush();
                    try {
                        closed.await(60, TimeUnit.SECONDS); // the stream stays open until the test is done
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    ex.close();
                    return;
                }
                byte[] body = ("upstream refuses " + ex.getRequestURI()).getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(500, body.length);
                ex.getResponseBody().write(body);
                ex.close();
            });
            s.start();
            return new Recorder(s, seen, closed);
        }

        URI url() {
            return URI.create("http://svc-user:" + PASSWORD + "@127.0.0.1:"
                    + server.getAddress().getPort() + "/mcp?api_key=" + QUERY_KEY + "&team=core");
        }

        @Override
        public void close() {
            closed.countDown();
            server.stop(0);
            ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
        }
    }

    static void assertNoSecret(String output) {
        for (String s : SECRETS) {
            assertThat(output).doesNotContain(s);
        }
    }

    @Test
    void secrets_in_a_url_and_in_arguments_are_sealed_at_rest_redacted_everywhere_and_still_used() throws Exception {
        Path data = dir.resolve("data");
        // what is logged on the way: ours (the server is down, the registration held for approval) and the SDK's
        // (its SSE client's refused post, a close that finds the server gone)
        try (LogCapture ours = LogCapture.of("dev.toolscout.mcp");
                LogCapture sdk = LogCapture.of("io.modelcontextprotocol");
                Recorder remote = Recorder.start()) {
            try (SecurityGateway g = SecurityGateway.start(dir, "{}", null, Map.of())) {
                ServerStatus argv = g.engine.registry().add(argvServer(), Duration.ofSeconds(30));
                // the recording server never completes a session: the first request is what this test needs
                ServerStatus http = g.engine
                        .registry()
                        .add(
                                ServerConfig.http("Remote", remote.url()).withTimeout(Duration.ofSeconds(3)),
                                Duration.ofSeconds(5));
                for (int i = 0; i < 600 && remote.seen().isEmpty(); i++) {
                    Thread.sleep(100);
                }

                // the connection uses them: the process got its arguments, the HTTP server the password and the key
                assertThat(argv.state()).as(argv.lastError()).isEqualTo(ServerStatus.State.READY);
                assertThat(text(g.engine.registry().manager().call("Argv", "argv", Map.of())))
                        .isEqualTo("[\"--token\",\"" + TOKEN + "\",\"--api-key=" + API_KEY_ARG + "\",\"" + GITHUB_TOKEN
                                + "\",\"--verbose\"]");
                assertThat(remote.seen())
                        .first()
                        .asString()
                        .startsWith("/mcp?api_key=" + QUERY_KEY + "&team=core Basic "
                                + Base64.getEncoder()
                                        .encodeToString(("svc-user:" + PASSWORD).getBytes(StandardCharsets.UTF_8)));

                // every output redacts them: statuses (with the failing server's error), mcp__list_servers, errors
                assertThat(argv.endpoint()).endsWith("argv.mjs --token *** --api-key=*** *** --verbose");
                assertThat(http.endpoint())
                        .isEqualTo("http://svc-user:***@127.0.0.1:"
                                + remote.server().getAddress().getPort() + "/mcp?api_key=***&team=core");
                assertThat(http.state()).isNotEqualTo(ServerStatus.State.READY);
                assertNoSecret(String.valueOf(http.lastError()));
                assertNoSecret(McpActions.statusJson(http, 0).toString());
                assertNoSecret(g.engine
                        .registry()
                        .manager()
                        .config("Remote")
                        .orElseThrow()
                        .toString());
                try (McpSyncClient c = g.client(null)) {
                    String listed = text(c.callTool(SecurityGateway.request(McpActions.LIST, Map.of())));
                    assertThat(listed)
                            .contains("\"name\":\"Argv\"")
                            .contains("--token ***")
                            .contains("svc-user:***@");
                    assertNoSecret(listed);
                    McpSchema.CallToolResult down = c.callTool(SecurityGateway.request(
                            McpActions.CALL, Map.of("server_name", "Remote", "tool_name", "anything")));
                    assertNoSecret(text(down));
                    McpSchema.CallToolResult proposed = c.callTool(SecurityGateway.request(
                            McpActions.REGISTER,
                            Map.of("name", "other", "endpoint", remote.url().toString())));
                    // held for approval (or refused): whatever the answer says, and whatever the queue stores, no
                    // secret
                    assertThat(proposed.isError()).isTrue();
                    assertNoSecret(text(proposed));
                }
            }

            // at rest: the stored rows, and every byte of the data directory, hold no secret in clear
            try (var store = dev.toolscout.store.SqliteStateStore.open(data.resolve("state.db"))) {
                List<String> rows =
                        store.loadServers().stream().map(s -> s.configJson()).toList();
                assertThat(rows).hasSize(2).allSatisfy(row -> assertThat(row).contains("enc:v1:"));
                rows.forEach(SecretRedactionSecurityTest::assertNoSecret);
            }
            assertNoSecret(McpPersistenceTest.everyFileUnder(data));

            // the CLI's list, as a table and as JSON
            for (String format : List.of("table", "json")) {
                String[] r = McpPersistenceTest.run(
                        "mcp", "list", "--data-dir", data.toString(), "--format", format, "--servers-wait", "20");
                assertThat(r[1] + r[2]).contains("--token ***").contains("api_key=***");
                assertNoSecret(r[1] + r[2]);
            }

            // and after a restart the unsealed secrets still reach the server
            try (McpRuntime e =
                    McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
                e.start(List.of(), Duration.ofSeconds(30));
                assertThat(text(e.registry().manager().call("Argv", "argv", Map.of())))
                        .contains(TOKEN)
                        .contains(GITHUB_TOKEN);
            }

            // what ToolScout logged of the refusals names the server and no secret; the SDK logs the refusal as the
            // server wrote it (the URL with its key: not ToolScout's to redact)
            assertThat(ours.warnings())
                    .anySatisfy(m -> assertThat(m).contains("MCP server 'Remote' is down"))
                    .anySatisfy(m -> assertThat(m).contains("asks to run mcp__register_server"));
            ours.warnings().forEach(SecretRedactionSecurityTest::assertNoSecret);
            assertThat(sdk.warnings()).anySatisfy(m -> assertThat(m).contains("non-OK HTTP code: 500"));
        }
    }

    @Test
    void a_servers_file_url_that_cannot_be_parsed_is_reported_without_its_secret() throws Exception {
        Path servers = dir.resolve("servers.json");
        Files.writeString(
                servers,
                "{\"mcpServers\": {\"bad\": {\"url\": \"https://u:" + PASSWORD + "@host/ x?token=" + TOKEN + "\"}}}");

        String[] r = McpPersistenceTest.run(
                "mcp", "list", "--data-dir", dir.resolve("d").toString(), "--servers", servers.toString());

        assertThat(r[0]).isNotEqualTo("0");
        assertThat(r[2]).contains("must be an absolute http:// or https:// URL");
        assertNoSecret(r[1] + r[2]);
    }
}
