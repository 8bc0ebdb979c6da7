package dev.toolscout.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.approval.Approvals;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code PROPOSE} tool called through the provider's executor waits for a person's approval of exactly that call. */
class HeldCallsTest {
    @TempDir
    Path tmp;

    @Test
    void a_propose_tool_is_held_until_someone_else_approves_exactly_that_call() {
        List<String> sent = new CopyOnWriteArrayList<>();
        try (ToolScout scout = ToolScout.builder()
                        .dataDir(tmp.resolve("data"))
                        .tools(List.of(ToolSpec.builder("mail__send_email", "Send an email to people")
                                .aiAccess(AiAccess.PROPOSE)
                                .build()))
                        .build();
                LogCapture log = LogCapture.of(ToolRunner.class)) {
            ToolRunner runner = ToolRunner.builder(scout)
                    .executor("mail", call -> {
                        sent.add(call.arguments().path("to").asText());
                        return ToolResult.of(call.arguments());
                    })
                    .build();
            InvocationContext alice =
                    InvocationContext.builder().chatMemoryId("alice").build();
            ToolExecutor executor = ToolScoutToolProvider.builder(runner)
                    .build()
                    .provideTools(ToolProviderRequest.builder()
                            .invocationContext(alice)
                            .userMessage(UserMessage.from("email bob the report"))
                            .build())
                    .aiServiceTools()
                    .stream()
                    .filter(t -> t.name().equals("mail__send_email"))
                    .findFirst()
                    .orElseThrow()
                    .toolExecutor();

            ToolExecutionResult held = executor.executeWithContext(send("{\"to\": \"bob\"}"), alice);
            assertThat(sent).isEmpty();
            assertThat(held.isError()).isFalse();
            StoredApproval request = scout.approvals().list().get(0);
            assertThat(request.requester()).isEqualTo("langchain4j:alice");
            assertThat(held.resultText())
                    .isEqualTo("mail__send_email needs approval and was not run: approval request " + request.id()
                            + " is pending. Tell the user; once someone else approves it, the same call with the "
                            + "same arguments runs.");
            assertThat(log.messages(Level.WARN))
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains(request.id(), "langchain4j:alice", "mail__send_email", "toolscout approvals approve");

            scout.approvals().decide(request.id(), true, Approvals.Approver.operator("ops"));
            // other arguments are another call: held again, not run
            ToolExecutionResult other = executor.executeWithContext(send("{\"to\": \"mallory\"}"), alice);
            assertThat(other.resultText()).contains("needs approval").doesNotContain(request.id());
            assertThat(sent).isEmpty();
            ToolExecutionResult ran = executor.executeWithContext(send("{\"to\": \"bob\"}"), alice);
            assertThat(ran.isError()).isFalse();
            assertThat(sent).containsExactly("bob");
        }
    }

    private static ToolExecutionRequest send(String arguments) {
        return ToolExecutionRequest.builder()
                .id("c1")
                .name("mail__send_email")
                .arguments(arguments)
                .build();
    }
}
