package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.mcp.gateway.SessionLimits;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.mcp.upstream.UpstreamLimits;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.Principal;
import dev.toolscout.server.http.GatewayHttpServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
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
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway under abuse, over Streamable HTTP with real clients (raw HTTP for what a careless or hostile
 * client does, the MCP Java SDK's client for the well-behaved one) and a real hanging upstream server
 * ({@code faults/hang.mjs}): abandoned sessions are freed, the session cap refuses clearly, an oversized
 * query is refused, and 80 calls to a hanging tool leave another client's finds answering. Waits are on
 * conditions, never on the clock.
 */
class GatewayAbuseTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path PEERS =
            Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();
    /** Long enough for any machine; the waits end as soon as their condition holds. */
    static final Duration PATIENCE = Duration.ofMinutes(2);

    @TempDir
    static Path tmp;

    static McpRuntime engine;
    static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void open() throws Exception {
        assertThat(PEERS.resolve("node_modules/@modelcontextprotocol/sdk"))
                .as("npm packages missing: run ./run-tests (it runs npm ci in " + PEERS + ")")
                .isDirectory();
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

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("gave up after " + PATIENCE + " waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    static HttpRequest.Builder request(GatewayHttpServer s, String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.url()))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json");
        return session == null ? b : b.header("Mcp-Session-Id", session);
    }

    static HttpResponse<String> post(GatewayHttpServer s, String session, String body) throws Exception {
        return HTTP.send(
                request(s, session)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static final String INITIALIZE = """
      {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
       "capabilities": {}, "clientInfo": {"name": "abandoning-client", "version": "1"}}}""";

    /** Starts a session the way a client does, and abandons it: never a DELETE. */
    static String initialize(GatewayHttpServer s) throws Exception {
        HttpResponse<String> r = post(s, null, INITIALIZE);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String id = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(s, id, "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}")
                        .statusCode())
                .isEqualTo(202);
        return id;
    }

    static String callRequest(int id, String tool, Map<String, Object> args) throws Exception {
        return JSON.writeValueAsString(Map.of(
                "jsonrpc", "2.0", "id", id, "method", "tools/call", "params", Map.of("name", tool, "arguments", args)));
    }

    static McpSyncClient sdkClient(GatewayHttpServer s) {
        var t = HttpClientStreamableHttpTransport.builder("http://"
                        + s.address().getHostString() + ":" + s.address().getPort())
                .endpoint(GatewayHttpServer.ENDPOINT)
                .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
                .build();
        return McpClient.sync(t)
                .requestTimeout(PATIENCE)
                .initializationTimeout(PATIENCE)
                .clientInfo(McpSchema.Implementation.builder("well-behaved-client", "1")
                        .build())
                .build();
    }

    static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        r.content().forEach(c -> sb.append(c instanceof McpSchema.TextContent t ? t.text() : ""));
        return sb.toString();
    }

    @Test
    void abandoned_sessions_are_closed_after_the_idle_timeout_and_their_streams_end() throws Exception {
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS)
                .sessionLimits(new SessionLimits(Duration.ofMillis(300), 100));
        try (gateway;
                GatewayHttpServer s =
                        GatewayHttpServer.start(gateway, GatewayAuth.local(Principal.ANONYMOUS), "127.0.0.1", 0)) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add(initialize(s));
            }
            // five also hold an event stream open, as a client that vanished mid-stream leaves it
            List<CompletableFuture<HttpResponse<Void>>> streams = new ArrayList<>();
            for (String id : ids.subList(0, 5)) {
                streams.add(HTTP.sendAsync(
                        HttpRequest.newBuilder(URI.create(s.url()))
                                .header("Accept", "text/event-stream")
                                .header("Mcp-Session-Id", id)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding()));
            }

            await("every abandoned session is closed", () -> gateway.openSessions() == 0);
            await(
                    "every abandoned event stream has ended",
                    () -> streams.stream().allMatch(CompletableFuture::isDone));
            for (String id : ids) {
                // the session is gone: a client coming back is told to start a new one
                assertThat(post(s, id, callRequest(2, "tool_discovery__list_all", Map.of()))
                                .statusCode())
                        .isEqualTo(404);
            }
            assertThat(initialize(s)).isNotIn(ids);
        }
    }

    @Test
    void past_the_session_cap_a_new_session_gets_503_and_a_json_rpc_error_naming_the_limit() throws Exception {
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS)
                .sessionLimits(new SessionLimits(Duration.ofMinutes(10), 3));
        try (gateway;
                GatewayHttpServer s =
                        GatewayHttpServer.start(gateway, GatewayAuth.local(Principal.ANONYMOUS), "127.0.0.1", 0)) {
            List<String> ids = List.of(initialize(s), initialize(s), initialize(s));

            HttpResponse<String> refused = post(s, null, INITIALIZE);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            JsonNode body = JSON.readTree(refused.body());
            assertThat(body.path("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(body.path("error").path("code").asInt()).isEqualTo(-32000);
            assertThat(body.path("error").path("message").asText())
                    .isEqualTo("too many MCP sessions: 3 are open, the "
                            + "most the gateway allows (--max-sessions 3); a session idle for 10 min is closed, or close unused "
                            + "sessions (HTTP DELETE)");
            // the sessions already open keep working
            assertThat(post(s, ids.get(0), callRequest(2, "tool_discovery__list_all", Map.of()))
                            .statusCode())
                    .isEqualTo(200);

            // a made-up session id is not a session
            assertThat(post(s, "made-up-session", callRequest(3, "tool_discovery__list_all", Map.of()))
                            .statusCode())
                    .isEqualTo(404);
            assertThat(gateway.openSessions()).isEqualTo(3);

            // a session closed by its client makes room for a new one
            HttpResponse<String> deleted =
                    HTTP.send(request(s, ids.get(1)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(deleted.statusCode()).isEqualTo(200);
            assertThat(gateway.openSessions()).isEqualTo(2);
            assertThat(initialize(s)).isNotIn(ids);
        }
    }

    @Test
    void an_oversized_find_query_is_refused_naming_the_limit_and_its_size() throws Exception {
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS);
        try (gateway;
                GatewayHttpServer s =
                        GatewayHttpServer.start(gateway, GatewayAuth.local(Principal.ANONYMOUS), "127.0.0.1", 0);
                McpSyncClient client = sdkClient(s)) {
            client.initialize();
            McpSchema.CallToolResult r = client.callTool(McpSchema.CallToolRequest.builder("tool_discovery__find")
                    .arguments(Map.of("query", "find the flights. ".repeat(64 * 1024 / 18)))
                    .build());
            assertThat(r.isError()).isTrue();
            assertThat(text(r)).isEqualTo("query must be at most 16,384 characters, got: 65,520 characters");

            // a body past the HTTP cap is not read at all
            String session = initialize(s);
            HttpResponse<String> huge = post(
                    s,
                    session,
                    callRequest(
                            3, "tool_discovery__find", Map.of("query", "x".repeat(McpGateway.MAX_REQUEST_BYTES + 1))));
            assertThat(huge.statusCode()).isEqualTo(413);
        }
    }

    /** Registers faults/hang.mjs with a timeout far past the test: its calls hang until it is removed. */
    static UpstreamManager registerHanging(String name) throws InterruptedException {
        UpstreamManager manager = engine.registry().manager();
        manager.register(ServerConfig.stdio(
                        name, "node", List.of(PEERS.resolve("faults/hang.mjs").toString()))
                .withTimeout(Duration.ofMinutes(10)));
        await(
                "the hanging server is ready",
                () -> manager.status(name).map(ServerStatus::state).orElse(null) == ServerStatus.State.READY);
        return manager;
    }

    @Test
    void a_call_in_progress_is_cancelled_when_its_client_closes_the_session() throws Exception {
        UpstreamManager manager = registerHanging("stuck");
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS);
        try (gateway;
                GatewayHttpServer s =
                        GatewayHttpServer.start(gateway, GatewayAuth.local(Principal.ANONYMOUS), "127.0.0.1", 0)) {
            String session = initialize(s);
            String body = callRequest(
                    2,
                    "mcp__call_tool",
                    Map.of("server_name", "stuck", "tool_name", "slow_lookup", "params", Map.of("id", "1")));
            CompletableFuture<HttpResponse<String>> call = HTTP.sendAsync(
                    request(s, session)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            await("the call hangs on the server", () -> manager.callsInProgress("stuck") == 1);

            assertThat(HTTP.send(request(s, session).DELETE().build(), HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(200);

            // nobody will read its answer: the call is dropped and its thread and slot on the server freed
            await("the call is cancelled", () -> manager.callsInProgress("stuck") == 0);
            await("its request has ended", call::isDone);
            assertThat(manager.status("stuck").orElseThrow().state()).isEqualTo(ServerStatus.State.READY);
        } finally {
            manager.unregister("stuck");
        }
    }

    @Test
    void eighty_calls_to_a_hanging_tool_leave_another_clients_finds_answering() throws Exception {
        UpstreamManager manager = registerHanging("hang");
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS);
        List<CompletableFuture<HttpResponse<String>>> hanging = new ArrayList<>();
        try (gateway;
                GatewayHttpServer s =
                        GatewayHttpServer.start(gateway, GatewayAuth.local(Principal.ANONYMOUS), "127.0.0.1", 0);
                McpSyncClient other = sdkClient(s)) {
            String attacker = initialize(s);
            for (int i = 0; i < 80; i++) {
                String body = callRequest(
                        10 + i,
                        "mcp__call_tool",
                        Map.of("server_name", "hang", "tool_name", "slow_lookup", "params", Map.of("id", "call " + i)));
                hanging.add(HTTP.sendAsync(
                        request(s, attacker)
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            // every call is the local user's: it holds at most its share of the server's slots (issue 30, item 8)
            int cap = UpstreamLimits.DEFAULT.maxCallsPerPrincipal();
            await(cap + " calls hang on the server", () -> manager.callsInProgress("hang") == cap);

            other.initialize();
            for (int i = 0; i < 10; i++) {
                McpSchema.CallToolResult found =
                        other.callTool(McpSchema.CallToolRequest.builder("tool_discovery__find")
                                .arguments(Map.of("query", "look up a record"))
                                .build());
                assertThat(found.isError()).as(text(found)).isFalse();
                assertThat(text(found)).contains("hang__slow_lookup");
            }

            // the calls past the cap were answered at once, as busy; the others still hang
            await(
                    (80 - cap) + " calls answered",
                    () -> hanging.stream().filter(CompletableFuture::isDone).count() == 80 - cap);
            for (CompletableFuture<HttpResponse<String>> h : hanging) {
                if (h.isDone()) {
                    assertThat(h.get().body())
                            .contains("MCP server 'hang': is busy for this caller: it has " + cap
                                    + " calls in progress on this server");
                }
            }
            assertThat(manager.callsInProgress("hang")).isEqualTo(cap);
        } finally {
            manager.unregister("hang"); // ends the hanging calls
        }
        await("every hanging call has ended", () -> hanging.stream().allMatch(CompletableFuture::isDone));
    }
}
