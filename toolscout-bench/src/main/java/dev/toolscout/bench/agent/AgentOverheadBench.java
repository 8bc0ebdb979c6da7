package dev.toolscout.bench.agent;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.AgentResult;
import dev.toolscout.agent.ChatProvider;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The agent loop's own time per turn: everything but the provider's answer and the tool's run (selection with
 * the real embedding model, rendering, the schema conversion, run state and usage record writes to SQLite,
 * approvals and access checks). The provider is an in-process stand-in that answers at once (turn 1 calls the
 * first tool it was offered, turn 2 answers with text), the tools answer at once, the catalog is the bundled
 * demo catalog, so the measured time is the loop's. Each request is two turns; a request's overhead per turn is
 * read from its usage record ({@code latency_ms.overhead_per_turn}).
 *
 * <p>Run: {@code scripts/bench-java.sh dev.toolscout.bench.agent.AgentOverheadBench [REQUESTS]} (default 400,
 * after 50 warm-up requests). Prints p50, p90, p99 and the mean in milliseconds.
 */
public final class AgentOverheadBench {
    private static final String[] MESSAGES = {
        "Schedule a meeting with the team tomorrow at 10", "Send an email to Ana about the invoice",
        "What is on my calendar this week?", "Search the web for Java 25 release notes",
        "Create a task to renew the certificate", "Find the latest sales report in the drive",
        "Remind me to call the bank on Friday", "Summarize the unread emails from today",
        "Post a message in the general channel", "Look up the weather forecast for Lisbon",
    };

    private AgentOverheadBench() {}

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int warmup = 50;
        Path dir = Files.createTempDirectory("agent-bench");
        try (ToolScout scout = ToolScout.builder().dataDir(dir).build()) {
            run(scout, requests, warmup);
        }
    }

    private static void run(ToolScout scout, int requests, int warmup) throws Exception {
        ChatProvider provider = (request, onText) -> {
            List<ChatMessage> messages = request.messages();
            boolean answered = messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage;
            List<ToolSpecification> tools = request.toolSpecifications();
            AiMessage ai = answered || tools.isEmpty()
                    ? AiMessage.from("Done.")
                    : AiMessage.from(ToolExecutionRequest.builder()
                            .id("call_1")
                            .name(firstRunnable(scout, tools))
                            .arguments("{}")
                            .build());
            return ChatResponse.builder()
                    .aiMessage(ai)
                    .tokenUsage(new TokenUsage(1000, 20))
                    .build();
        };
        ToolExecutor instant = call -> ToolResult.of(TextNode.valueOf("ok"));
        {
            Agent.Builder b = Agent.builder(scout, provider);
            for (SourceKind k : SourceKind.values()) {
                b.executor(k, instant);
            }
            Agent agent = b.build();
            double[] perTurn = new double[requests];
            int turns = 0;
            for (int i = 0; i < warmup + requests; i++) {
                AgentResult r = agent.run("bench-" + i, Principal.ANONYMOUS, MESSAGES[i % MESSAGES.length]);
                if (r.status() != AgentResult.Status.DONE) {
                    throw new IllegalStateException("request " + i + " ended " + r.status() + ": " + r.error());
                }
                if (i >= warmup) {
                    perTurn[i - warmup] = r.usage()
                            .json()
                            .path("latency_ms")
                            .path("overhead_per_turn")
                            .asDouble();
                    turns += r.usage().json().path("turns").asInt();
                }
            }
            Arrays.sort(perTurn);
            double mean = Arrays.stream(perTurn).average().orElse(0);
            System.out.printf(
                    "agent loop overhead per turn (ms), %d requests (%d turns), %d tools in the catalog:%n",
                    requests, turns, scout.size());
            System.out.printf(
                    "  p50 %.3f  p90 %.3f  p99 %.3f  mean %.3f  max %.3f%n",
                    pct(perTurn, 50), pct(perTurn, 90), pct(perTurn, 99), mean, perTurn[perTurn.length - 1]);
        }
    }

    /** The first offered catalog tool that runs without an approval. */
    private static String firstRunnable(ToolScout scout, List<ToolSpecification> tools) {
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.name()));
        return names.stream()
                .filter(n -> !scout.isMetaTool(n))
                .filter(n -> scout.describe(Principal.ANONYMOUS, n)
                        .map(s -> s.aiAccess() == AiAccess.EXECUTE)
                        .orElse(false))
                .findFirst()
                .orElse(names.get(0));
    }

    private static double pct(double[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
