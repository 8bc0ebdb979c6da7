package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.server.http.GatewayHttpServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory tools through the MCP gateway, driven by a real MCP client on the official TypeScript SDK over
 * Streamable HTTP with API keys for three principals: ann (group eng, space team-a), bob (group eng, space team-b) and
 * carol (group sales, space team-a). Ann stores a private and a space memory in one conversation, recalls the private
 * one in a later conversation after a restart, and forgets it: gone from search and from the store's files. Bob
 * reads neither (the same answer as a missing memory); carol reads the space memory only.
 */
class MemoryGatewayTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path PEERS = GatewayEndToEndTest.PEERS;
    static final String ANN_KEY = "ann-key-0123456789abcdef";
    static final String BOB_KEY = "bob-key-0123456789abcdef";
    static final String CAROL_KEY = "carol-key-0123456789abcdef";
    static final String MARKER = "The staging password hint is violet-armadillo-42.";

    @TempDir
    Path tmp;

    private record Running(McpRuntime runtime, McpGateway gateway, GatewayHttpServer http) implements AutoCloseable {
        @Override
        public void close() {
            http.close();
            gateway.close();
            runtime.close();
        }
    }

    private Running start() throws Exception {
        McpRuntime runtime =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(tmp.resolve("data")));
        runtime.start(List.of(), java.time.Duration.ofSeconds(10));
        McpGateway gateway = new McpGateway(runtime.scout(), runtime.actions(), Principal.ANONYMOUS);
        return new Running(
                runtime,
                gateway,
                GatewayHttpServer.start(
                        gateway,
                        GatewayAuth.of(Map.of(
                                ANN_KEY, new Principal("ann", "eng", "team-a"),
                                BOB_KEY, new Principal("bob", "eng", "team-b"),
                                CAROL_KEY, new Principal("carol", "sales", "team-a"))),
                        "127.0.0.1",
                        0));
    }

    private JsonNode client(String url, String key, String conversation, String steps) throws Exception {
        return NodeClient.run(
                        tmp,
                        "script-client.mjs",
                        List.of(
                                "--http",
                                url,
                                "--header",
                                "Authorization: Bearer " + key,
                                "--header",
                                McpGateway.CONVERSATION_HEADER + ": " + conversation,
                                "--steps",
                                steps))
                .get("steps");
    }

    /** A call step's tool result text, parsed when it is JSON. */
    private static JsonNode result(JsonNode step) throws Exception {
        String text = step.path("result").path("content").get(0).path("text").asText();
        return text.startsWith("{")
                ? JSON.readTree(text)
                : JSON.getNodeFactory().textNode(text);
    }

    private static boolean isError(JsonNode step) {
        return step.path("result").path("isError").asBoolean();
    }

    private static List<String> tools(JsonNode step) {
        List<String> out = new ArrayList<>();
        step.path("tools").forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void memory_tools_store_recall_later_and_forget_with_scopes_enforced_across_users_and_spaces() throws Exception {
        assertThat(PEERS.resolve("node_modules/@modelcontextprotocol/sdk"))
                .as("npm packages missing: run ./run-tests (it runs npm ci in " + PEERS + ")")
                .isDirectory();
        String privateId;
        String spaceId;
        try (Running r = start()) {
            JsonNode s = client(r.http().url(), ANN_KEY, "conv-1", """
          [{"list": true},
           {"call": "memory__store", "args": {"content": "%s", "memory_type": "note"}},
           {"call": "memory__store", "args": {"content": "The team-a offsite is in Annecy on 3 March.",
                                              "scope": "space", "memory_type": "event"}}]""".formatted(MARKER));
            assertThat(tools(s.get(0))).contains("memory__store", "memory__search", "memory__recall", "memory__forget");
            assertThat(isError(s.get(1))).as(s.get(1).toString()).isFalse();
            privateId = result(s.get(1)).path("stored").path("id").asText();
            assertThat(result(s.get(1)).path("stored").path("conversation_id").asText())
                    .isEqualTo("conv-1");
            spaceId = result(s.get(2)).path("stored").path("id").asText();
        }

        try (Running r = start()) {
            // a later conversation, after a restart: ann recalls by question and by id
            JsonNode ann = client(r.http().url(), ANN_KEY, "conv-2", """
          [{"call": "memory__recall", "args": {"query": "what is the hint for the staging password?"}},
           {"call": "memory__recall", "args": {"memory_id": "%s"}}]""".formatted(privateId));
            assertThat(result(ann.get(0)).path("memories").get(0).path("id").asText())
                    .isEqualTo(privateId);
            assertThat(result(ann.get(1)).path("memory").path("content").asText())
                    .isEqualTo(MARKER);

            // bob (same group, other space) reads neither memory: the answer a missing one gets
            JsonNode bob = client(r.http().url(), BOB_KEY, "conv-b", """
          [{"call": "memory__recall", "args": {"memory_id": "%s"}},
           {"call": "memory__recall", "args": {"memory_id": "mem_00000000000000000000"}},
           {"call": "memory__search", "args": {"query": "staging password hint offsite"}},
           {"call": "memory__forget", "args": {"memory_id": "%s"}},
           {"call": "memory__recall", "args": {"memory_id": "%s"}}]""".formatted(privateId, privateId, spaceId));
            assertThat(isError(bob.get(0))).isTrue();
            assertThat(result(bob.get(0)).asText()).isEqualTo("Memory not found: " + privateId);
            assertThat(result(bob.get(1)).asText()).isEqualTo("Memory not found: mem_00000000000000000000");
            assertThat(result(bob.get(2)).path("memories")).isEmpty();
            assertThat(result(bob.get(3)).asText()).isEqualTo("Memory not found: " + privateId);
            assertThat(result(bob.get(4)).asText()).isEqualTo("Memory not found: " + spaceId);

            // carol (other group, same space) reads the space memory, not the private one
            JsonNode carol = client(r.http().url(), CAROL_KEY, "conv-c", """
          [{"call": "memory__recall", "args": {"memory_id": "%s"}},
           {"call": "memory__recall", "args": {"memory_id": "%s"}}]""".formatted(spaceId, privateId));
            assertThat(isError(carol.get(0))).isFalse();
            assertThat(result(carol.get(0)).path("memory").path("content").asText())
                    .contains("Annecy");
            assertThat(result(carol.get(1)).asText()).isEqualTo("Memory not found: " + privateId);

            // ann forgets the private one: gone from search and from the store
            JsonNode forget = client(r.http().url(), ANN_KEY, "conv-2", """
          [{"call": "memory__forget", "args": {"memory_id": "%s"}},
           {"call": "memory__search", "args": {"query": "staging password hint"}},
           {"call": "memory__recall", "args": {"memory_id": "%s"}}]""".formatted(privateId, privateId));
            assertThat(result(forget.get(0)).path("forgotten").asText()).isEqualTo(privateId);
            assertThat(result(forget.get(1)).path("memories"))
                    .extracting(m -> m.path("id").asText())
                    .doesNotContain(privateId);
            assertThat(result(forget.get(2)).asText()).isEqualTo("Memory not found: " + privateId);
            assertThat(r.runtime().scout().maintenance().store().loadMemories())
                    .extracting(m -> m.id())
                    .containsExactly(spaceId);
        }
        try (Stream<Path> files = Files.list(tmp.resolve("data"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("state.db"))
                    .toList()) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                        .as(f.toString())
                        .doesNotContain("violet-armadillo");
            }
        }
    }
}
