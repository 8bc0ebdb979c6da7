package dev.toolscout.execution;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a tool call gave back: an output for the model, or an error for the model to read and act on.
 *
 * @param output the answer (text or JSON), or {@code null} with an error
 * @param error what went wrong, in words the model can act on, or {@code null}
 */
public record ToolResult(JsonNode output, String error) {
    public ToolResult {
        if ((output == null) == (error == null)) {
            throw new IllegalArgumentException(
                    "a tool result has an output or an error, got: " + output + ", " + error);
        }
    }

    public static ToolResult of(JsonNode output) {
        return new ToolResult(output, null);
    }

    public static ToolResult error(String message) {
        return new ToolResult(null, message);
    }

    public boolean isError() {
        return error != null;
    }
}
