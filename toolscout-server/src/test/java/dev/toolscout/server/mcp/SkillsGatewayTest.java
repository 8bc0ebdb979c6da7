package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.skills.Skill;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's skills demo through the MCP gateway, driven by a real MCP client on the official TypeScript SDK
 * ({@code toolscout-mcp/src/test/node/script-client.mjs}) over Streamable HTTP, with server-memory from npm as the
 * upstream whose tool the database skill brings: the first tool list lacks the skill's tool; {@code
 * skills__activate('database')} records the activation and sends tools/list_changed; the tool is listed and called;
 * after a restart of ToolScout, a new session naming the same conversation (X-ToolScout-Conversation) lists the
 * tool without activating again, and a session of another conversation does not.
 */
class SkillsGatewayTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path PEERS = GatewayEndToEndTest.PEERS;
    static final String TOOL = "kg__delete_entities";

    @TempDir
    Path tmp;

    /** An engine with the kg upstream and the database skill, its gateway served over HTTP. */
    private record Running(McpRuntime runtime, McpGateway gateway, GatewayHttpServer http) implements AutoCloseable {
        @Override
        public void close() {
            http.close();
            gateway.close();
            runtime.close();
        }
    }

    private Running start(Path servers) throws Exception {
        McpRuntime runtime =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(tmp.resolve("data")));
        runtime.start(ServersFile.load(servers), Duration.ofSeconds(60));
        // one local user whose client confirms each call (docs/SECURITY.md): deleting runs without a queued approval
        McpGateway gateway = new McpGateway(runtime.scout(), runtime.actions(), Principal.ANONYMOUS)
                .approval(McpGateway.Approval.CLIENT);
        return new Running(
                runtime,
                gateway,
                GatewayHttpServer.start(gateway, GatewayAuth.local(Principal.ANONYMOUS), "127.0.0.1", 0));
    }

    private JsonNode client(String url, String conversation, String steps) throws Exception {
        return NodeClient.run(
                tmp,
                "script-client.mjs",
                List.of(
                        "--http",
                        url,
                        "--header",
                        McpGateway.CONVERSATION_HEADER + ": " + conversation,
                        "--steps",
                        steps));
    }

    private static List<String> tools(JsonNode step) {
        List<String> out = new ArrayList<>();
        step.path("tools").forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void a_real_mcp_client_activates_a_skill_gets_its_tool_and_keeps_it_across_a_restart() throws Exception {
        assertThat(PEERS.resolve("node_modules/@modelcontextprotocol/sdk"))
                .as("npm packages missing: run ./run-tests (it runs npm ci in " + PEERS + ")")
                .isDirectory();
        Path servers = tmp.resolve("servers.json");
        Files.writeString(servers, """
        {"mcpServers": {"kg": {"command": "node", "args": ["%s"], "env": {"MEMORY_FILE_PATH": "%s"}}}}""".formatted(
                        PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
                        tmp.resolve("kg.jsonl")));
        try (Running r = start(servers)) {
            assertThat(r.runtime()
                            .scout()
                            .putSkill(Skill.of(
                                    "database",
                                    "Tools for managing the features stored in the knowledge graph database.",
                                    "Remove a feature with kg__delete_entities, giving its name.",
                                    List.of(TOOL))))
                    .isTrue();

            JsonNode first = client(r.http().url(), "demo-conversation", """
          [{"list": true},
           {"call": "skills__activate", "args": {"skill_name": "database"}},
           {"waitListChanged": 20000},
           {"list": true},
           {"call": "kg__delete_entities", "args": {"entityNames": ["first-feature"]}}]""");

            JsonNode steps = first.get("steps");
            // message 1: the meta-tool, not the skill's tool
            assertThat(tools(steps.get(0)))
                    .contains("skills__activate", "tool_discovery__find")
                    .doesNotContain(TOOL);
            // message 2: the activation returns the documentation and the tool, and the list changes
            String activation = steps.get(1)
                    .path("result")
                    .path("content")
                    .get(0)
                    .path("text")
                    .asText();
            assertThat(steps.get(1).path("result").path("isError").asBoolean()).isFalse();
            assertThat(JSON.readTree(activation).get("documentation").asText()).contains(TOOL);
            assertThat(steps.get(2).get("listChanged").asBoolean()).isTrue();
            assertThat(tools(steps.get(3))).contains(TOOL);
            // then its tool is called, and reaches server-memory
            assertThat(steps.get(4).has("result")).as(steps.get(4).toString()).isTrue();
            assertThat(steps.get(4).path("result").path("isError").asBoolean())
                    .as(steps.get(4).toString())
                    .isFalse();
        }

        // a restart of ToolScout between messages 2 and 3 changes nothing
        try (Running r = start(servers)) {
            JsonNode third = client(r.http().url(), "demo-conversation", """
          [{"list": true}, {"call": "kg__delete_entities", "args": {"entityNames": ["second-feature"]}}]""");
            JsonNode other = client(r.http().url(), "another-conversation", "[{\"list\": true}]");

            assertThat(tools(third.get("steps").get(0))).contains(TOOL);
            assertThat(third.get("steps").get(1).path("result").path("isError").asBoolean())
                    .isFalse();
            assertThat(tools(other.get("steps").get(0))).doesNotContain(TOOL).contains("skills__activate");
        }
    }
}
