package dev.toolscout.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.toolscout.approval.Approvals;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.Principal;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A LangChain4j {@link ToolExecutor} that runs the call through ToolScout's call gate ({@link ToolRunner#call}):
 * access (a denied tool reads as missing), {@code BLOCKED}, the size cap, the approval queue for a {@code PROPOSE}
 * tool, then the tool's executor. Every outcome is a tool result the model reads; a failure is flagged as an error.
 */
final class RunnerToolExecutor implements ToolExecutor {
    /** Where the adapter's approval requests are filed: the agent channel, scoped by this prefix and the conversation. */
    static final String SCOPE_PREFIX = "langchain4j:";

    private static final Logger LOG = LoggerFactory.getLogger(RunnerToolExecutor.class);

    private final ToolRunner runner;
    private final Function<InvocationContext, Principal> principals;

    RunnerToolExecutor(ToolRunner runner, Function<InvocationContext, Principal> principals) {
        this.runner = runner;
        this.principals = principals;
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
        return executeWithContext(
                        request,
                        InvocationContext.builder().chatMemoryId(memoryId).build())
                .resultText();
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        Principal p = principals.apply(context);
        if (p == null) {
            p = Principal.ANONYMOUS;
        }
        String conversation = Invocations.conversationId(context);
        String requester = "langchain4j:" + (p.user() == null ? "anonymous" : p.user());
        ToolCalls.Outcome<ToolResult> outcome;
        try {
            outcome = runner.call(
                    new ToolCalls.Request(p, null, requester, conversation, request.name(), request.arguments(), null),
                    ToolCalls.queue(
                            runner.scout().approvals(),
                            Approvals.Channel.AGENT,
                            SCOPE_PREFIX + (conversation == null ? "-" : conversation)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return error(request.name() + " was not run: the call was interrupted");
        }
        return switch (outcome) {
            case ToolCalls.Outcome.Ran<ToolResult> ran ->
                ran.result().isError()
                        ? error(ran.result().error())
                        : ToolExecutionResult.builder()
                                .result(ran.result().output())
                                .resultText(
                                        ran.result().output().isTextual()
                                                ? ran.result().output().textValue()
                                                : ran.result().output().toString())
                                .build();
            case ToolCalls.Outcome.NotFound<ToolResult> nf -> error(nf.message());
            case ToolCalls.Outcome.InvalidArguments<ToolResult> ia -> error(ia.message());
            case ToolCalls.Outcome.Refused<ToolResult> rf -> error(rf.message());
            case ToolCalls.Outcome.Failed<ToolResult> f -> error(f.message());
            case ToolCalls.Outcome.Denied<ToolResult> d -> error(d.message());
            case ToolCalls.Outcome.Held<ToolResult> h -> {
                if (h.filed()) {
                    LOG.warn(
                            "approval request {}: {} asks to run {} (LangChain4j, conversation {}); decide with "
                                    + "`toolscout approvals approve {}` or `deny {}`",
                            h.approval().id(),
                            requester,
                            h.tool().fullName(),
                            conversation,
                            h.approval().id(),
                            h.approval().id());
                }
                yield ToolExecutionResult.builder()
                        .result(h.approval().id())
                        .resultText(h.tool().fullName() + " needs approval and was not run: approval request "
                                + h.approval().id() + " is pending. Tell the user; once someone else approves it, "
                                + "the same call with the same arguments runs.")
                        .build();
            }
        };
    }

    private static ToolExecutionResult error(String message) {
        return ToolExecutionResult.builder().isError(true).resultText(message).build();
    }
}
