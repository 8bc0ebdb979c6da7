package dev.toolscout.examples.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.springai.PrincipalResolver;
import dev.toolscout.springai.ToolScoutSearchAdvisor;
import dev.toolscout.springboot.ToolRunnerCustomizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application whose Spring AI {@link ChatClient} finds its tools through ToolScout: the starter
 * configures ToolScout from {@code toolscout.*} properties, this application adds an MCP upstream (a real npm MCP
 * server) as the executor of MCP tools, and the model, an OpenAI-compatible endpoint played by {@link
 * ScriptedOpenAi}, searches, calls what it found, and answers. Checks what happened and exits non-zero when any check
 * fails.
 *
 * <p>Usage: {@code SpringAiExample <path to @modelcontextprotocol/server-everything's dist/index.js>} (or the system
 * property {@code example.mcp-server}).
 */
@SpringBootApplication
public class SpringAiExample {

    /** The MCP upstream, started over the ToolScout the starter configured (closing it closes that too). */
    @Bean
    McpRuntime mcpRuntime(ToolScout scout, @Value("${example.mcp-server}") String server) {
        McpRuntime mcp = new McpRuntime(scout);
        List<UpstreamManager.Registration> r = mcp.start(
                List.of(ServerConfig.stdio("everything", "node", List.of(server))), Duration.ofSeconds(60));
        if (!(r.getFirst() instanceof UpstreamManager.Registration.Success)) {
            throw new IllegalStateException("the MCP server " + server + " did not start: " + r);
        }
        return mcp;
    }

    /** ToolScout runs MCP tools through the upstream's executor. */
    @Bean
    ToolRunnerCustomizer mcpTools(McpRuntime mcp) {
        return runner -> runner.executor(SourceKind.MCP, mcp.executor());
    }

    /** The catalog's own integrations (the weather, the vault) run here: a stand-in that says what it was asked. */
    @Bean
    ToolRunnerCustomizer integrations() {
        return runner -> runner.executor(
                SourceKind.INTEGRATION,
                call -> ToolResult.of(JsonNodeFactory.instance.textNode(
                        call.tool().fullName() + " ran with " + call.arguments())));
    }

    public static void main(String[] args) throws Exception {
        String server = args.length > 0 ? args[0] : System.getProperty("example.mcp-server");
        if (server == null || !Files.isRegularFile(Path.of(server))) {
            System.err.println("usage: SpringAiExample <path to server-everything's dist/index.js>, got: " + server);
            System.exit(2);
        }
        Path work = Files.createTempDirectory("toolscout-spring-ai-example");
        List<String> failures;
        try (ScriptedOpenAi llm = ScriptedOpenAi.start()) {
            SpringApplication app = new SpringApplication(SpringAiExample.class);
            app.setDefaultProperties(Map.of(
                    "spring.ai.openai.base-url", llm.baseUrl(),
                    "toolscout.data-dir", work.resolve("data").toString(),
                    "toolscout.catalog-files[0]", copy("catalog.json", work).toString(),
                    "toolscout.policy-file", copy("policy.json", work).toString(),
                    "example.mcp-server", server));
            try (ConfigurableApplicationContext ctx = app.run()) {
                ChatClient chat = ctx.getBean(ChatClient.Builder.class)
                        .defaultAdvisors(ctx.getBean(ToolScoutSearchAdvisor.class))
                        .build();
                failures = run(chat, llm);
            }
        }
        if (failures.isEmpty()) {
            System.out.println("spring-ai example: all checks passed");
            return;
        }
        failures.forEach(f -> System.err.println("spring-ai example: FAILED: " + f));
        System.exit(1);
    }

    static List<String> run(ChatClient chat, ScriptedOpenAi llm) {
        List<String> failures = new ArrayList<>();
        Principal alice = new Principal("alice", "staff", null);
        Principal bob = new Principal("bob", "staff", null);

        // 1. search, find a tool the first request did not carry, call it, the upstream runs it
        String answer = ask(chat, alice, "Please echo 'hello from spring ai'");
        System.out.println("alice: " + answer);
        List<JsonNode> r = List.copyOf(llm.requests);
        check(failures, r.size() == 3, "three model requests for the echo, got " + r.size());
        if (r.size() == 3) {
            List<String> first = ScriptedOpenAi.tools(r.get(0));
            List<String> second = ScriptedOpenAi.tools(r.get(1));
            check(failures, first.equals(List.of(ScriptedOpenAi.SEARCH_TOOL)),
                    "the first request carries only the search tool, got " + first);
            check(failures, lastTool(r.get(1)).contains("everything__echo"),
                    "ToolScout's search found everything__echo, got " + lastTool(r.get(1)));
            check(failures, !first.contains("everything__echo") && second.contains("everything__echo"),
                    "everything__echo was not in the first request and is in the next, got " + first + " then "
                            + second);
            check(failures, calls(r.get(2)).contains("everything__echo"),
                    "the model called everything__echo, got " + calls(r.get(2)));
            // "Echo: <message>" is the text of server-everything's echo tool: the upstream ran it
            check(failures, lastTool(r.get(2)).equals("Echo: hello from spring ai"),
                    "the MCP upstream answered the call, got " + lastTool(r.get(2)));
        }
        check(failures, "The upstream said: Echo: hello from spring ai".equals(answer), "the final answer, got "
                + answer);

        // 2. a denied tool is never found: bob may not see the vault; alice may (so the check can fail)
        for (Principal p : List.of(bob, alice)) {
            llm.requests.clear();
            String a = ask(chat, p, "Read the secret at /db/password from the vault");
            System.out.println(p.user() + ": " + a);
            boolean seen = false;
            for (JsonNode req : List.copyOf(llm.requests)) {
                seen |= ScriptedOpenAi.tools(req).contains("vault__read_secret")
                        || lastTool(req).contains("vault__read_secret");
            }
            check(failures, seen == (p == alice),
                    p.user() + (p == alice ? " finds" : " never finds") + " vault__read_secret, got seen=" + seen);
        }
        return failures;
    }

    static String ask(ChatClient chat, Principal p, String message) {
        return chat.prompt()
                .user(message)
                .advisors(a -> a.param(PrincipalResolver.PRINCIPAL, p))
                .call()
                .content();
    }

    /** The text of the request's last message when it is a tool's answer, else "". */
    static String lastTool(JsonNode request) {
        JsonNode messages = request.path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        return last.path("role").asText().equals("tool") ? ScriptedOpenAi.text(last) : "";
    }

    /** The tools the assistant called in the request's history. */
    static List<String> calls(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.path("messages").forEach(m -> m.path("tool_calls")
                .forEach(c -> names.add(c.path("function").path("name").asText())));
        return names;
    }

    static void check(List<String> failures, boolean ok, String what) {
        if (!ok) {
            failures.add(what);
        }
    }

    static Path copy(String resource, Path dir) throws IOException {
        try (InputStream in = SpringAiExample.class.getResourceAsStream("/" + resource)) {
            Path out = dir.resolve(resource);
            Files.copy(in, out);
            return out;
        }
    }
}
