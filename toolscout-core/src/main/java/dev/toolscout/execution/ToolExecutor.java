package dev.toolscout.execution;

/**
 * Runs the calls of one kind of tool (an MCP upstream's, an imported HTTP API's, ToolScout's own meta-tools, or
 * an application's) for the agent loop. The call gate ({@link ToolCalls#call}) has already checked access,
 * {@code BLOCKED}, the arguments and approvals before it calls an executor: an executor only runs the call.
 *
 * <p>A tool's own failure (bad arguments, an HTTP 404, an upstream error) is a {@link ToolResult#error} the
 * model can read and act on, not an exception. Implementations are thread-safe and time out every call.
 */
@FunctionalInterface
public interface ToolExecutor {
    /**
     * Runs one call.
     *
     * @throws InterruptedException when the calling request is cancelled
     */
    ToolResult execute(ToolInvocation call) throws InterruptedException;
}
