package dev.toolscout.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, item 9: arguments a model sends are bounded as the gateway and the HTTP API bound the arguments they
 * take in. A local provider replays the recorded Anthropic wire fixtures: the model calls a tool with 12 MB of
 * arguments, the executor never sees them, and the model reads a tool error naming the limit and the size.
 */
class AgentArgumentCapTest {
    @TempDir
    Path tmp;

    @Test
    void a_models_12_mb_argument_is_never_sent_to_the_executor_and_the_model_reads_the_limit_and_the_size()
            throws Exception {
        List<ToolInvocation> calls = new CopyOnWriteArrayList<>();
        ToolExecutor recording = call -> {
            calls.add(call);
            return ToolResult.of(TextNode.valueOf("written"));
        };
        String content = "x".repeat(12 * 1024 * 1024);
        String args = "{\"path\":\"notes.txt\",\"content\":\"" + content + "\"}";
        int bytes = args.getBytes(StandardCharsets.UTF_8).length;
        try (FakeProvider fake = new FakeProvider();
                ToolScout scout = ToolScout.builder()
                        .dataDir(tmp.resolve("data"))
                        .tools(List.of(ToolSpec.builder("files__write_file", "Write a file on the shared drive")
                                .build()))
                        .build()) {
            fake.toolCall("anthropic", "files__write_file", args)
                    .text("anthropic", "The file is too large to write.")
                    .toolCall("anthropic", "files__write_file", "{\"path\":\"notes.txt\",\"content\":\"short\"}")
                    .text("anthropic", "Written.");
            ProviderConfig c = new ProviderConfig(
                    ProviderConfig.Kind.ANTHROPIC,
                    "claude-sonnet-4-5",
                    fake.baseUrl(),
                    "sk-test-key",
                    null,
                    0,
                    1024,
                    false);
            Agent agent = Agent.builder(scout, Providers.of(c))
                    .executor("files", recording)
                    .build();
            Principal ana = new Principal("ana", null, null);

            AgentResult big = agent.run("c-big", ana, "Write my notes to notes.txt");

            assertThat(big.status()).isEqualTo(AgentResult.Status.DONE);
            assertThat(calls).as("calls the executor got").isEmpty();
            JsonNode second = fake.requests().get(1);
            JsonNode result = second.findValues("content").stream()
                    .flatMap(n -> n.isArray()
                            ? java.util.stream.StreamSupport.stream(n.spliterator(), false)
                            : java.util.stream.Stream.of(n))
                    .filter(n -> n.path("type").asText().equals("tool_result"))
                    .findFirst()
                    .orElseThrow();
            assertThat(result.path("is_error").asBoolean()).isTrue();
            // the size is that of the arguments as the provider's client handed them over (its JSON, re-serialized)
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(String.format(
                            Locale.ROOT,
                            "the arguments of "
                                    + "files__write_file must be at most %,d bytes \\(UTF-8 JSON\\), got: ([0-9,]+) bytes; send less in one "
                                    + "call",
                            InputLimits.MAX_ARGUMENT_BYTES))
                    .matcher(result.path("content").asText());
            assertThat(m.find()).as(result.path("content").asText()).isTrue();
            assertThat(Long.parseLong(m.group(1).replace(",", ""))).isBetween((long) bytes - 100, (long) bytes + 100);
            assertThat(big.usage().json().path("calls").get(0).path("outcome").asText())
                    .isEqualTo("error");

            // arguments within the limit run as before
            AgentResult small = agent.run("c-small", ana, "Write short notes to notes.txt");
            assertThat(small.status()).isEqualTo(AgentResult.Status.DONE);
            assertThat(calls)
                    .singleElement()
                    .satisfies(
                            call -> assertThat(call.arguments().path("content").asText())
                                    .isEqualTo("short"));
        }
    }
}
