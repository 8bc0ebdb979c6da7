package dev.toolscout.engine;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one of ToolScout's own tools answered a model's call with ({@link ToolScout#callMetaTool}): its output,
 * or an error for the model to read and act on (a tool result flagged as an error, not an exception).
 *
 * @param output the answer, or {@code null} with an error
 * @param error the error, e.g. {@code Skill not found: x} (the same for a denied and a missing name), or {@code
 *     null}
 */
public record ToolCallResult(JsonNode output, String error) {
    public ToolCallResult {
        if ((output == null) == (error == null)) {
            throw new IllegalArgumentException(
                    "a tool call result has an output or an error, got: " + output + ", " + error);
        }
    }

    public boolean isError() {
        return error != null;
    }
}
