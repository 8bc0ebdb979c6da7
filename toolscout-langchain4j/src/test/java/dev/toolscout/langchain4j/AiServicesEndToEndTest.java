package dev.toolscout.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An AiServices run over a real npm MCP server ({@code @modelcontextprotocol/server-memory}, as {@code kg}) with a
 * scripted model: the model searches with ToolScout's strategy, ToolScout finds a tool the first request did not
 * carry, the model calls it, and ToolScout's MCP executor runs it upstream.
 */
class AiServicesEndToEndTest {
    static final Path PEERS = locate();

    @TempDir
    static Path tmp;

    static McpRuntime mcp;
    static ToolRunner runner;

    interface Assistant {
        String chat(@MemoryId String user, @UserMessage String message);
    }

    static Path locate() {
        Path dir = Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();
        return Files.isDirectory(dir)
                ? dir
                : Path.of("toolscout-mcp/src/test/node").toAbsolutePath();
    }

    @BeforeAll
    static void start() throws Exception {
        Path server = PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js");
        assertThat(server)
                .as("the MCP reference servers are not installed: run `npm ci` in " + PEERS)
                .isRegularFile();
        Path policy = tmp.resolve("policy.json");
        Files.writeString(policy, """
                {"rules": [{"effect": "deny", "tool": "kg__delete_entities", "user": "bob"}]}""");
        // the policy is read before the server lists its tools: the engine says the rule matches nothing yet
        try (LogCapture log = LogCapture.of("dev.toolscout.engine")) {
            mcp = McpRuntime.open(
                    ToolScout.builder().dataDir(tmp.resolve("data")).policyFile(policy));
            assertThat(log.warnings())
                    .singleElement(InstanceOfAssertFactories.STRING)
                    .contains("kg__delete_entities", "matches no known tool");
        }
        mcp.start(
                List.of(ServerConfig.stdio("kg", "node", List.of(server.toString()))
                        .withEnv(Map.of(
                                "MEMORY_FILE_PATH", tmp.resolve("kg.jsonl").toString()))),
                Duration.ofSeconds(60));
        runner = ToolRunner.builder(mcp.scout())
                .executor(SourceKind.MCP, mcp.executor())
                .build();
    }

    @AfterAll
    static void stop() {
        if (mcp != null) {
            mcp.close();
        }
    }

    static Assistant assistant(ScriptedChatModel model) {
        return AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
                .toolProvider(ToolScoutToolProvider.builder(runner)
                        .searchable(true)
                        .k(1)
                        .build())
                .toolSearchStrategy(
                        ToolScoutToolSearchStrategy.builder(mcp.scout()).build())
                // a tool the AI Service does not have (LangChain4j throws by default): answered as ToolScout does
                .hallucinatedToolNameStrategy(
                        request -> ToolExecutionResultMessage.from(request, "Tool not found: " + request.name()))
                .build();
    }

    static AiMessage call(String id, String tool, String arguments) {
        return AiMessage.from(ToolExecutionRequest.builder()
                .id(id)
                .name(tool)
                .arguments(arguments)
                .build());
    }

    @Test
    void the_model_searches_then_calls_a_found_tool_that_the_mcp_upstream_runs() {
        ScriptedChatModel model = new ScriptedChatModel()
                .then(call(
                        "c1",
                        ToolScoutToolSearchStrategy.TOOL_NAME,
                        "{\"query\": \"add new entities to the knowledge graph\"}"))
                .then(call(
                        "c2",
                        "kg__create_entities",
                        "{\"entities\": [{\"name\": \"Ada\", \"entityType\": \"person\", \"observations\": "
                                + "[\"wrote the first program\"]}]}"))
                .then(AiMessage.from("Ada is in the graph."));
        String answer = assistant(model).chat("alice", "Remember that Ada wrote the first program.");

        assertThat(answer).isEqualTo("Ada is in the graph.");
        assertThat(model.requests).hasSize(3);
        // the first request carried the search tool and the one selected tool, not the tool the model then found
        assertThat(model.toolsOf(0))
                .contains(ToolScoutToolSearchStrategy.TOOL_NAME)
                .doesNotContain("kg__create_entities");
        assertThat(model.toolsOf(1)).contains("kg__create_entities");
        ToolExecutionResultMessage search =
                (ToolExecutionResultMessage) model.requests.get(1).messages().getLast();
        assertThat(search.text()).contains("kg__create_entities");
        // the upstream ran it: its answer is what the model got, and the graph holds Ada
        ToolExecutionResultMessage created =
                (ToolExecutionResultMessage) model.requests.get(2).messages().getLast();
        assertThat(created.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(created.text()).contains("Ada");
        assertThat(mcp.executor()).isNotNull();
        assertThat(upstreamGraph()).contains("Ada");
    }

    @Test
    void a_denied_tool_is_never_found_through_the_ai_service() {
        ScriptedChatModel model = new ScriptedChatModel()
                .then(call(
                        "c1",
                        ToolScoutToolSearchStrategy.TOOL_NAME,
                        "{\"query\": \"delete entities from the knowledge graph\"}"))
                .then(call("c2", "kg__delete_entities", "{\"entityNames\": [\"Ada\"]}"))
                .then(AiMessage.from("I could not delete Ada."));
        String answer = assistant(model).chat("bob", "Forget Ada entirely.");

        assertThat(answer).isEqualTo("I could not delete Ada.");
        for (int i = 0; i < model.requests.size(); i++) {
            assertThat(model.toolsOf(i)).doesNotContain("kg__delete_entities");
        }
        ToolExecutionResultMessage search =
                (ToolExecutionResultMessage) model.requests.get(1).messages().getLast();
        assertThat(search.text()).doesNotContain("kg__delete_entities");
        ToolExecutionResultMessage refused =
                (ToolExecutionResultMessage) model.requests.get(2).messages().getLast();
        assertThat(refused.text()).isEqualTo("Tool not found: kg__delete_entities");
        assertThat(upstreamGraph()).doesNotContain("Forget");
    }

    @Test
    void alone_the_provider_gives_the_tools_toolscout_discovery_found_to_the_next_model_call() {
        ScriptedChatModel model = new ScriptedChatModel()
                .then(call("d1", "tool_discovery__find", "{\"query\": \"open nodes of the knowledge graph by name\"}"))
                .then(call("d2", "kg__open_nodes", "{\"names\": [\"Grace\"]}"))
                .then(AiMessage.from("Nothing is known about Grace."));
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
                .toolProvider(ToolScoutToolProvider.builder(runner).k(1).build())
                .build();
        String answer = assistant.chat("carol", "What do you know about Grace?");

        assertThat(answer).isEqualTo("Nothing is known about Grace.");
        assertThat(model.toolsOf(0)).contains("tool_discovery__find").doesNotContain("kg__open_nodes");
        ToolExecutionResultMessage found =
                (ToolExecutionResultMessage) model.requests.get(1).messages().getLast();
        assertThat(found.text()).contains("kg__open_nodes");
        assertThat(model.toolsOf(1)).contains("kg__open_nodes");
        ToolExecutionResultMessage opened =
                (ToolExecutionResultMessage) model.requests.get(2).messages().getLast();
        assertThat(opened.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(opened.text()).contains("entities");
    }

    /** The graph as the upstream holds it, read through the runner as alice. */
    static String upstreamGraph() {
        try {
            return runner.call(
                            new dev.toolscout.execution.ToolCalls.Request(
                                    new Principal("alice", null, null),
                                    null,
                                    "test",
                                    null,
                                    "kg__read_graph",
                                    "{}",
                                    null),
                            dev.toolscout.execution.ToolCalls.noApprovals())
                    .toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
