package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.server.http.GatewayHttpServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog entry that describes one of ToolScout's own tools (a memory or discovery tool) with another side effect
 * than the built-in definition (the demo catalog holds the memory tools) does not change what a reader's key may do
 * through the gateway: {@code tools/list} offers a reader exactly the own tools {@code tools/call} runs for it. The
 * built-in definition decides the role, because it is what runs: {@code memory__store} writes whatever a catalog says
 * of it, {@code memory__search} only reads. The catalog's entry still decides access ({@code BLOCKED}, the policy's
 * rules), for listing and calling alike. Real gateway, real Jetty, the official MCP Java SDK client.
 */
class OwnToolDefinitionsGatewayTest {
    static final String READER = "rita-reader-key-0123456789";
    static final String USER = "ulf-user-key-0123456789ab";

    @TempDir
    Path tmp;

    private static McpSyncClient client(GatewayHttpServer s, String key) {
        McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder(
                                "http://127.0.0.1:" + s.address().getPort())
                        .endpoint(GatewayHttpServer.ENDPOINT)
                        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                        .build())
                .requestTimeout(Duration.ofSeconds(60))
                .clientInfo(
                        McpSchema.Implementation.builder("definition-test", "1").build())
                .build();
        c.initialize();
        return c;
    }

    private static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        r.content().forEach(c -> sb.append(c instanceof McpSchema.TextContent t ? t.text() : ""));
        return sb.toString();
    }

    private static List<String> memoryTools(McpSyncClient c) {
        return c.listTools().tools().stream()
                .map(McpSchema.Tool::name)
                .filter(n -> n.startsWith("memory__"))
                .toList();
    }

    @Test
    void a_readers_list_and_calls_agree_when_the_catalog_describes_an_own_tool_otherwise() throws Exception {
        try (McpRuntime runtime = McpRuntime.open(ToolScout.builder()
                .preloadModel(false)
                .dataDir(tmp.resolve("data"))
                .tools(List.of()))) {
            runtime.start(List.of(), Duration.ZERO);
            ToolScout scout = runtime.scout();
            // the catalog calls the write a read, and two reads writes; forget is BLOCKED
            scout.upsert(List.of(
                    ToolSpec.builder("tool_discovery__list_all", "List the tools.")
                            .aiAccess(AiAccess.EXECUTE)
                            .sideEffect(SideEffect.WRITE)
                            .build(),
                    ToolSpec.builder("memory__store", "Note something down.")
                            .aiAccess(AiAccess.EXECUTE)
                            .sideEffect(SideEffect.READ)
                            .build(),
                    ToolSpec.builder("memory__search", "Search the notes.")
                            .aiAccess(AiAccess.EXECUTE)
                            .sideEffect(SideEffect.WRITE)
                            .build(),
                    ToolSpec.builder("memory__forget", "Forget a note.")
                            .aiAccess(AiAccess.BLOCKED)
                            .sideEffect(SideEffect.READ)
                            .build()));
            McpGateway gateway = new McpGateway(runtime.scout(), runtime.actions(), Principal.ANONYMOUS);
            try (gateway;
                    GatewayHttpServer s = GatewayHttpServer.start(
                            gateway,
                            GatewayAuth.withRoles(Map.of(
                                    READER, new GatewayAuth.Key(new Principal("rita", null, null), Role.READER),
                                    USER, new GatewayAuth.Key(new Principal("ulf", null, null), Role.USER))),
                            "127.0.0.1",
                            0);
                    McpSyncClient rita = client(s, READER);
                    McpSyncClient ulf = client(s, USER)) {
                // the user: every memory tool but the BLOCKED one, listed and run
                assertThat(memoryTools(ulf))
                        .containsExactlyInAnyOrder("memory__store", "memory__search", "memory__recall");
                McpSchema.CallToolResult stored = ulf.callTool(McpSchema.CallToolRequest.builder("memory__store")
                        .arguments(Map.of("content", "The offsite is in Annecy.", "memory_type", "note"))
                        .build());
                assertThat(stored.isError()).as(text(stored)).isFalse();

                // the reader: offered the tools that read by their built-in definitions, whatever the catalog says
                assertThat(memoryTools(rita)).containsExactlyInAnyOrder("memory__search", "memory__recall");
                McpSchema.CallToolResult search = rita.callTool(McpSchema.CallToolRequest.builder("memory__search")
                        .arguments(Map.of("query", "offsite"))
                        .build());
                assertThat(search.isError()).as(text(search)).isFalse();
                // and refused the one that writes, which it is not offered, for its role (it exists, and is not denied)
                McpSchema.CallToolResult store = rita.callTool(McpSchema.CallToolRequest.builder("memory__store")
                        .arguments(Map.of("content", "Rita was here.", "memory_type", "note"))
                        .build());
                assertThat(store.isError()).isTrue();
                assertThat(text(store))
                        .isEqualTo("memory__store was not run: an API key with the role reader may run only "
                                + "tools that read and need no approval, and this one has side effect write. Ask the gateway's operator "
                                + "for a key with the role user.");

                // the same for a discovery tool the catalog calls a write: it reads, so the reader is offered it and
                // runs it
                assertThat(rita.listTools().tools())
                        .extracting(McpSchema.Tool::name)
                        .contains("tool_discovery__list_all");
                McpSchema.CallToolResult listAll =
                        rita.callTool(McpSchema.CallToolRequest.builder("tool_discovery__list_all")
                                .arguments(Map.of())
                                .build());
                assertThat(listAll.isError()).as(text(listAll)).isFalse();
            }
        }
    }
}
