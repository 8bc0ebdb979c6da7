package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.mcp.gateway.SessionLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.server.http.GatewayHttpServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one API key can take from the others through the gateway's MCP sessions, over real HTTP (raw JSON-RPC for
 * the exact bytes, the MCP Java SDK's client for a well-behaved one): a key holds at most its share of the
 * sessions, the last ones are kept for admin keys, and a session belongs to the key that started it (another
 * key naming it is answered as for a session that does not exist).
 */
class SessionSharesSecurityTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String READER = "rita-reader-key-0123456789";
    static final String ALICE = "alice-user-key-0123456789";
    static final String BOB = "bob-user-key-01234567890";
    static final String ADMIN = "ada-admin-key-0123456789";
    static final Map<String, GatewayAuth.Key> KEYS = Map.of(
            READER, new GatewayAuth.Key(new Principal("rita", null, null), Role.READER),
            ALICE, new GatewayAuth.Key(new Principal("alice", null, null), Role.USER),
            BOB, new GatewayAuth.Key(new Principal("bob", null, null), Role.USER),
            ADMIN, new GatewayAuth.Key(new Principal("ada", null, null), Role.ADMIN));
    static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    static final String INITIALIZE = """
      {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
       "capabilities": {}, "clientInfo": {"name": "share-test", "version": "1"}}}""";
    static final String LIST = "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}";

    @TempDir
    static Path tmp;

    static McpRuntime engine;

    @BeforeAll
    static void open() throws Exception {
        engine = McpRuntime.open(ToolScout.builder()
                .preloadModel(false)
                .dataDir(tmp.resolve("data"))
                .tools(List.of()));
        engine.start(List.of(), Duration.ZERO);
    }

    @AfterAll
    static void close() {
        if (engine != null) {
            engine.close();
        }
    }

    static HttpRequest.Builder request(GatewayHttpServer s, String key, String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.url()))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return session == null ? b : b.header("Mcp-Session-Id", session);
    }

    static HttpResponse<String> post(GatewayHttpServer s, String key, String session, String body) throws Exception {
        return HTTP.send(
                request(s, key, session)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> delete(GatewayHttpServer s, String key, String session) throws Exception {
        return HTTP.send(request(s, key, session).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Starts a session as a client does; returns its id. */
    static String initialize(GatewayHttpServer s, String key) throws Exception {
        HttpResponse<String> r = post(s, key, null, INITIALIZE);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String id = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(s, key, id, "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}")
                        .statusCode())
                .isEqualTo(202);
        return id;
    }

    static void assertRefused(HttpResponse<String> r, int status, String message) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("150");
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(body.path("error").path("code").asInt()).isEqualTo(-32000);
        assertThat(body.path("error").path("message").asText()).isEqualTo(message);
    }

    @Test
    void a_key_holds_at_most_its_share_of_the_sessions_and_the_last_ones_are_kept_for_admins() throws Exception {
        // 6 sessions, at most 2 a key, the last 2 for admin keys only
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS)
                .sessionLimits(new SessionLimits(Duration.ofMinutes(10), 6, 2, 2));
        try (gateway;
                GatewayHttpServer s = GatewayHttpServer.start(gateway, GatewayAuth.withRoles(KEYS), "127.0.0.1", 0)) {
            String tail = "; a session idle for 10 min is closed, or close unused sessions (HTTP DELETE)";
            List<String> rita = new ArrayList<>(List.of(initialize(s, READER), initialize(s, READER)));

            // a reader key's third session is refused, however it asks: also an initialize naming a session it holds
            String perKey = "too many MCP sessions for key:rita: it holds 2, the most one API key may hold "
                    + "(--max-sessions-per-key 2)" + tail;
            assertRefused(post(s, READER, null, INITIALIZE), 429, perKey);
            assertRefused(post(s, READER, rita.get(0), INITIALIZE), 429, perKey);
            assertThat(gateway.openSessions()).isEqualTo(2);

            // the others still get theirs, up to what is left for keys that are not admins'
            initialize(s, ALICE);
            initialize(s, ALICE);
            String reserved =
                    "too many MCP sessions: 4 are open, the most the gateway allows keys without the role admin "
                            + "(--max-sessions 6 less --admin-session-reserve 2)" + tail;
            assertRefused(post(s, BOB, null, INITIALIZE), 503, reserved);
            // an admin key takes the reserve, within its own share
            initialize(s, ADMIN);
            initialize(s, ADMIN);
            assertThat(gateway.openSessions()).isEqualTo(6);
            assertRefused(
                    post(s, ADMIN, null, INITIALIZE),
                    429,
                    "too many MCP sessions for key:ada: it holds 2, the most "
                            + "one API key may hold (--max-sessions-per-key 2)" + tail);

            // a session closed by its key frees a place, not beyond the admins' reserve
            assertThat(delete(s, READER, rita.remove(1)).statusCode()).isEqualTo(200);
            assertThat(gateway.openSessions()).isEqualTo(5);
            assertRefused(post(s, READER, null, INITIALIZE), 503, reserved.replace("4 are open", "5 are open"));
            // and the sessions open keep working
            assertThat(post(s, READER, rita.get(0), LIST).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void a_session_of_another_key_is_answered_as_a_session_that_does_not_exist() throws Exception {
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS);
        try (gateway;
                GatewayHttpServer s = GatewayHttpServer.start(gateway, GatewayAuth.withRoles(KEYS), "127.0.0.1", 0)) {
            String alices = initialize(s, ALICE);
            String missing = "00000000-0000-0000-0000-000000000000";

            for (String[] who :
                    new String[][] {{BOB, "a user key"}, {ADMIN, "an admin key"}, {READER, "a reader key"}}) {
                HttpResponse<String> denied = post(s, who[0], alices, LIST);
                HttpResponse<String> unknown = post(s, who[0], missing, LIST);
                assertThat(denied.statusCode())
                        .as(who[1] + ": " + denied.body())
                        .isEqualTo(404);
                assertThat(denied.body()).isEqualTo(unknown.body());
                assertThat(denied.headers().firstValue("Content-Type"))
                        .isEqualTo(unknown.headers().firstValue("Content-Type"));

                HttpResponse<String> deniedDelete = delete(s, who[0], alices);
                HttpResponse<String> unknownDelete = delete(s, who[0], missing);
                assertThat(deniedDelete.statusCode())
                        .as(deniedDelete.body())
                        .isEqualTo(404)
                        .isEqualTo(unknownDelete.statusCode());
                assertThat(deniedDelete.body()).isEqualTo(unknownDelete.body());

                HttpResponse<String> deniedStream = HTTP.send(
                        request(s, who[0], alices)
                                .header("Accept", "text/event-stream")
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                HttpResponse<String> unknownStream = HTTP.send(
                        request(s, who[0], missing)
                                .header("Accept", "text/event-stream")
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(deniedStream.statusCode()).isEqualTo(404).isEqualTo(unknownStream.statusCode());
                assertThat(deniedStream.body()).isEqualTo(unknownStream.body());
            }
            JsonNode error = JSON.readTree(post(s, BOB, alices, LIST).body()).path("error");
            assertThat(error.path("message").asText())
                    .startsWith("Session not found: the Mcp-Session-Id names no open " + "session of this caller");
            // without a key: the same refusal as for any session
            HttpResponse<String> noKey = post(s, null, alices, LIST);
            assertThat(noKey.statusCode()).isEqualTo(401);
            assertThat(noKey.body()).isEqualTo(post(s, null, missing, LIST).body());

            // alice's session is untouched: still open, and hers to use and to close
            assertThat(gateway.openSessions()).isEqualTo(1);
            HttpResponse<String> own = post(s, ALICE, alices, LIST);
            assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
            assertThat(own.body()).contains("tool_discovery__find");
            assertThat(delete(s, ALICE, alices).statusCode()).isEqualTo(200);
            assertThat(gateway.openSessions()).isZero();
        }
    }

    @Test
    void serve_refuses_a_share_per_key_larger_than_all_sessions_with_exit_code_2() {
        java.io.StringWriter err = new java.io.StringWriter();

        int code = dev.toolscout.server.cli.ToolScoutCli.run(
                new String[] {
                    "serve",
                    "--data-dir",
                    tmp.resolve("never-opened").toString(),
                    "--max-sessions",
                    "10",
                    "--max-sessions-per-key",
                    "11"
                },
                new java.io.PrintWriter(new java.io.StringWriter(), true),
                new java.io.PrintWriter(err, true));

        assertThat(code).isEqualTo(dev.toolscout.server.cli.ToolScoutCli.BAD_INPUT);
        assertThat(err.toString())
                .contains("--max-sessions-per-key must be between 1 and --max-sessions (10), got: 11");
        assertThat(tmp.resolve("never-opened")).doesNotExist();
    }

    @Test
    void the_mcp_java_sdk_client_works_within_its_keys_share() throws Exception {
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS)
                .sessionLimits(new SessionLimits(Duration.ofMinutes(10), 4, 1, 1));
        try (gateway;
                GatewayHttpServer s = GatewayHttpServer.start(gateway, GatewayAuth.withRoles(KEYS), "127.0.0.1", 0)) {
            McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(
                                    "http://127.0.0.1:" + s.address().getPort())
                            .endpoint(GatewayHttpServer.ENDPOINT)
                            .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE))
                            .build())
                    .requestTimeout(Duration.ofSeconds(60))
                    .clientInfo(
                            McpSchema.Implementation.builder("share-test", "1").build())
                    .build();
            try (client) {
                client.initialize();
                assertThat(client.listTools().tools())
                        .extracting(McpSchema.Tool::name)
                        .contains("tool_discovery__find");
                // alice's one session is taken; bob's is not hers to count
                assertThat(post(s, ALICE, null, INITIALIZE).statusCode()).isEqualTo(429);
                initialize(s, BOB);
                assertThat(client.listTools().tools()).isNotEmpty();
            }
        }
    }
}
