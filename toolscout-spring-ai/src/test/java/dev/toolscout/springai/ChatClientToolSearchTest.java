package dev.toolscout.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * A Spring AI {@code ChatClient} run with the search advisor: the model's first request carries only the search tool,
 * the model searches, ToolScout finds a tool of a real MCP server (the npm reference server {@code
 * server-everything}, through {@link McpRuntime}), the next request carries it, the model calls it, and the upstream
 * runs it through ToolScout's executor.
 */
class ChatClientToolSearchTest {
    static final Path NODE =
            Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();

    @TempDir
    static Path dir;

    static McpRuntime mcp;
    static ToolScoutToolCallbackProvider provider;

    @BeforeAll
    static void open() {
        Path everything = NODE.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        assertThat(everything)
                .as("the MCP reference servers are not installed: run `npm ci` in " + NODE)
                .isRegularFile();
        ToolScout scout = ToolScout.builder()
                .dataDir(dir)
                .tools(List.of(ToolSpec.builder("weather__forecast", "Get the weather forecast for a city")
                        .build()))
                .build();
        mcp = new McpRuntime(scout);
        List<UpstreamManager.Registration> r = mcp.start(
                List.of(ServerConfig.stdio("everything", "node", List.of(everything.toString()))
                        .withCwd(NODE)),
                Duration.ofSeconds(60));
        assertThat(r).singleElement().isInstanceOf(UpstreamManager.Registration.Success.class);
        ToolRunner runner = ToolRunner.builder(scout)
                .executor(SourceKind.MCP, mcp.executor())
                .build();
        provider = new ToolScoutToolCallbackProvider(
                new ToolScoutToolIndex(runner), new ToolScoutToolCallbacks(runner), PrincipalResolver.fromContext());
    }

    @AfterAll
    static void close() {
        if (mcp != null) {
            mcp.close();
        }
    }

    @Test
    void the_model_searches_then_calls_a_found_mcp_tool_that_its_first_request_did_not_carry() {
        ScriptedChatModel model = new ScriptedChatModel()
                .then(ScriptedChatModel.call(
                        ToolScoutSearchAdvisor.SEARCH_TOOL, "{\"query\": \"echo a message back to me\"}"))
                .then(ScriptedChatModel.call("everything__echo", "{\"message\": \"hello from spring\"}"))
                .then(prompt -> new AssistantMessage("The upstream said: " + lastToolAnswer(prompt.getInstructions())));

        String answer = ChatClient.builder(model)
                .defaultAdvisors(ToolScoutSearchAdvisor.builder(provider).build())
                .build()
                .prompt()
                .user("Please echo 'hello from spring'")
                .advisors(a -> a.param(PrincipalResolver.PRINCIPAL, new Principal("alice", "staff", null)))
                .call()
                .content();

        assertThat(model.prompts).hasSize(3);
        assertThat(model.toolsOf(0)).containsExactly(ToolScoutSearchAdvisor.SEARCH_TOOL);
        assertThat(model.toolsOf(1)).contains(ToolScoutSearchAdvisor.SEARCH_TOOL, "everything__echo");
        assertThat(DeniedToolsTest.searchAnswers(model.prompts.get(1).getInstructions()))
                .singleElement()
                .asString()
                .contains("\"name\":\"everything__echo\"");
        // the text is the upstream's own ("Echo: <message>", server-everything's echo tool)
        assertThat(answer).isEqualTo("The upstream said: Echo: hello from spring");
    }

    @Test
    void the_applications_toolscout_tools_are_sent_only_once_found() {
        // every tool ToolScout runs here: the upstream's (the weather tool has no executor, so it is not among them)
        List<String> offered = Arrays.stream(provider.getToolCallbacks())
                .map(c -> c.getToolDefinition().name())
                .toList();
        assertThat(offered).contains("everything__echo").hasSizeGreaterThan(2).doesNotContain("weather__forecast");
        ScriptedChatModel model = new ScriptedChatModel()
                .then(ScriptedChatModel.call(
                        ToolScoutSearchAdvisor.SEARCH_TOOL, "{\"query\": \"echo a message back\"}"))
                .then(ScriptedChatModel.answer("found it"));
        ChatClient.builder(model)
                .defaultAdvisors(
                        ToolScoutSearchAdvisor.builder(provider).searchLimit(1).build())
                // the whole provider on the request, as an application might put it: the advisor takes its tools off
                .defaultTools(provider)
                .build()
                .prompt()
                .user("Echo something")
                .call()
                .content();
        assertThat(model.toolsOf(0)).containsExactly(ToolScoutSearchAdvisor.SEARCH_TOOL);
        assertThat(model.toolsOf(1)).containsExactly(ToolScoutSearchAdvisor.SEARCH_TOOL, "everything__echo");
    }

    @Test
    void a_streamed_call_searches_and_runs_the_found_tool_too() {
        ScriptedChatModel model = new ScriptedChatModel()
                .then(ScriptedChatModel.call(
                        ToolScoutSearchAdvisor.SEARCH_TOOL, "{\"query\": \"echo a message back\"}"))
                .then(ScriptedChatModel.call("everything__echo", "{\"message\": \"streamed\"}"))
                .then(prompt -> new AssistantMessage(lastToolAnswer(prompt.getInstructions())));
        String answer = String.join(
                "",
                ChatClient.builder(model)
                        .defaultAdvisors(
                                ToolScoutSearchAdvisor.builder(provider).build())
                        .build()
                        .prompt()
                        .user("Echo 'streamed'")
                        .stream()
                        .content()
                        .collectList()
                        .block(Duration.ofMinutes(1)));
        assertThat(model.toolsOf(0)).containsExactly(ToolScoutSearchAdvisor.SEARCH_TOOL);
        assertThat(model.toolsOf(1)).contains("everything__echo");
        assertThat(answer).isEqualTo("Echo: streamed");
    }

    static String lastToolAnswer(List<Message> history) {
        String last = null;
        for (Message m : history) {
            if (m instanceof ToolResponseMessage t) {
                last = t.getResponses().getLast().responseData();
            }
        }
        return last;
    }
}
