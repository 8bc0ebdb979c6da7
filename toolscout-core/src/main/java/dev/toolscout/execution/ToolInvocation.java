package dev.toolscout.execution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.util.Objects;

/**
 * One call of a tool as the model made it, after the call gate's checks ({@link ToolCalls#call}).
 *
 * @param tool the called tool's definition (its {@link ToolSpec#originalName()} is the name to call upstream)
 * @param arguments the model's arguments, a JSON object (empty when the model gave none)
 * @param principal who the request runs for
 * @param conversationId the conversation the call belongs to
 */
public record ToolInvocation(ToolSpec tool, ObjectNode arguments, Principal principal, String conversationId) {
    public ToolInvocation {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(conversationId, "conversationId");
    }
}
