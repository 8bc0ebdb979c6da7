package dev.toolscout.agent;

/**
 * What a run tells a streaming caller as it goes (the SSE events of {@code POST /v1/conversations/{id}/messages},
 * the interactive {@code toolscout chat}). Told on the running thread, in order.
 */
public sealed interface AgentEvent {
    /** The SSE event name. */
    String name();

    /** A piece of the model's text. */
    record Text(String text) implements AgentEvent {
        @Override
        public String name() {
            return "text";
        }
    }

    /** The model called a tool; it is about to be run (or refused). */
    record ToolCall(String tool, String origin) implements AgentEvent {
        @Override
        public String name() {
            return "tool_call";
        }
    }

    /** A tool call's outcome, as the model gets it: {@code error} is null when it succeeded. */
    record ToolResult(String tool, String error) implements AgentEvent {
        @Override
        public String name() {
            return "tool_result";
        }
    }
}
