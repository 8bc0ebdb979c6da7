package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.mcp.upstream.UpstreamLimits;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.server.http.GatewayHttpServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, item 8, over Streamable HTTP with two API keys and a real hanging upstream ({@code faults/hang.mjs}):
 * one key's sessions take at most half of the server's call slots, so another key's call still gets one.
 */
class UpstreamFairnessTest {
    static final String ALICE = "alice-user-key-0123456789";
    static final String BOB = "bob-user-key-01234567890";

    @TempDir
    Path tmp;

    @Test
    void one_keys_sessions_hold_at_most_half_of_a_servers_call_slots_and_another_key_still_gets_one() throws Exception {
        int cap = UpstreamLimits.DEFAULT_MAX_CONCURRENT_CALLS;
        int share = UpstreamLimits.DEFAULT.maxCallsPerPrincipal();
        assertThat(share).isEqualTo(cap / 2);
        GatewayAuth auth = GatewayAuth.withRoles(Map.of(
                ALICE, new GatewayAuth.Key(new Principal("alice", null, null), Role.USER),
                BOB, new GatewayAuth.Key(new Principal("bob", null, null), Role.USER)));
        List<CompletableFuture<HttpResponse<String>>> alices = new ArrayList<>();
        try (McpRuntime engine = McpRuntime.open(ToolScout.builder()
                .preloadModel(false)
                .dataDir(tmp.resolve("data"))
                .tools(List.of()))) {
            engine.start(List.of(), Duration.ZERO);
            UpstreamManager manager = engine.registry().manager();
            manager.register(ServerConfig.stdio(
                            "hang",
                            "node",
                            List.of(GatewayAbuseTest.PEERS
                                    .resolve("faults/hang.mjs")
                                    .toString()))
                    .withTimeout(Duration.ofMinutes(10)));
            GatewayAbuseTest.await(
                    "the hanging server is ready",
                    () -> manager.status("hang").map(ServerStatus::state).orElse(null) == ServerStatus.State.READY);
            try (McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS);
                    GatewayHttpServer s = GatewayHttpServer.start(gateway, auth, "127.0.0.1", 0)) {
                // alice, over two sessions of her key, asks for every slot of the server
                List<String> sessions = List.of(initialize(s, ALICE), initialize(s, ALICE));
                for (int i = 0; i < cap; i++) {
                    alices.add(send(s, ALICE, sessions.get(i % 2), i));
                }
                GatewayAbuseTest.await(
                        "each of alice's calls hangs or was answered",
                        () -> manager.callsInProgress("hang")
                                        + alices.stream()
                                                .filter(CompletableFuture::isDone)
                                                .count()
                                == cap);
                assertThat(manager.callsInProgress("hang"))
                        .as("alice's calls in progress")
                        .isEqualTo(share);
                for (CompletableFuture<HttpResponse<String>> f : alices) {
                    if (f.isDone()) {
                        assertThat(f.get().body())
                                .contains("MCP server 'hang': is busy for this caller: it has " + share
                                        + " calls in progress on this server, the most one caller may hold (half of --max-upstream-calls "
                                        + cap + ", so others always find a slot)");
                    }
                }

                // bob's call finds a free slot: it hangs like the others instead of being refused as busy
                CompletableFuture<HttpResponse<String>> bobs = send(s, BOB, initialize(s, BOB), 100);
                GatewayAbuseTest.await(
                        "bob's call is in progress or answered",
                        () -> manager.callsInProgress("hang") == share + 1 || bobs.isDone());
                assertThat(bobs).as("bob's call, refused instead of run").isNotDone();
                assertThat(manager.callsInProgress("hang")).isEqualTo(share + 1);
            } finally {
                manager.unregister("hang"); // ends the hanging calls
            }
        }
    }

    private static String initialize(GatewayHttpServer s, String key) throws Exception {
        HttpResponse<String> r = GatewayAbuseTest.HTTP.send(
                GatewayAbuseTest.request(s, null)
                        .header("Authorization", "Bearer " + key)
                        .POST(HttpRequest.BodyPublishers.ofString(GatewayAbuseTest.INITIALIZE))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String id = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HttpResponse<String> ready = GatewayAbuseTest.HTTP.send(
                GatewayAbuseTest.request(s, id)
                        .header("Authorization", "Bearer " + key)
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(ready.statusCode()).isEqualTo(202);
        return id;
    }

    private static CompletableFuture<HttpResponse<String>> send(GatewayHttpServer s, String key, String session, int i)
            throws Exception {
        String body = GatewayAbuseTest.callRequest(
                10 + i,
                "mcp__call_tool",
                Map.of("server_name", "hang", "tool_name", "slow_lookup", "params", Map.of("id", "call " + i)));
        return GatewayAbuseTest.HTTP.sendAsync(
                GatewayAbuseTest.request(s, session)
                        .header("Authorization", "Bearer " + key)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
