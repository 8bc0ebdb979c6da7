package dev.toolscout.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.model.Principal;
import java.util.function.Function;

/**
 * A LangChain4j {@link ToolExecutor} that runs the call through ToolScout's call gate ({@link ToolRunner#reply}):
 * access (a denied tool reads as missing), {@code BLOCKED}, the size cap, the approval queue for a {@code PROPOSE}
 * tool, then the tool's executor. Every outcome is a tool result the model reads; a failure is flagged as an error.
 */
final class RunnerToolExecutor implements ToolExecutor {
    /** Who calls, for the approval queue: requests are filed as {@code langchain4j:<user>}, in scope {@code langchain4j:<conversation>}. */
    static final String LABEL = "langchain4j";

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
        ToolRunner.Reply r =
                runner.reply(LABEL, p, Invocations.conversationId(context), request.name(), request.arguments());
        ToolExecutionResult.Builder b =
                ToolExecutionResult.builder().isError(r.error()).resultText(r.text());
        if (r.output() != null) {
            b.result(r.output());
        } else if (r.approvalId() != null) {
            b.result(r.approvalId());
        }
        return b.build();
    }
}
