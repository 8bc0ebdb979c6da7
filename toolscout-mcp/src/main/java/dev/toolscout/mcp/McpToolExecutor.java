package dev.toolscout.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.ToolSpec;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs the agent loop's calls of upstream MCP tools, and of the actions {@code mcp__list_servers} and {@code
 * mcp__call_tool}, through the same path as the gateway ({@link McpActions}): the upstream manager's timeouts,
 * size caps and secret scrubbing apply. The call gate ({@code ToolCalls.call}) has checked access and, for a
 * {@code PROPOSE} tool, the approval before; {@code mcp__call_tool} is never run as approved, so a {@code PROPOSE} tool cannot be reached
 * through it without its own approval: the model is told to call the tool by its own name, which the loop holds
 * for approval. {@code mcp__register_server} is not offered to the loop ({@link
 * #ACTIONS}): servers are registered by people ({@code toolscout mcp add}, {@code POST /v1/servers}).
 * Thread-safe.
 */
public final class McpToolExecutor implements ToolExecutor {
    /** The MCP actions the agent loop offers. */
    public static final List<String> ACTIONS = List.of(McpActions.LIST, McpActions.CALL);

    private static final ObjectMapper JSON = new ObjectMapper();
    private final McpActions actions;

    public McpToolExecutor(McpActions actions) {
        this.actions = Objects.requireNonNull(actions, "actions");
    }

    @Override
    public ToolResult execute(ToolInvocation call) {
        String name = call.tool().fullName();
        @SuppressWarnings("unchecked")
        Map<String, Object> args = JSON.convertValue(call.arguments(), Map.class);
        McpSchema.CallToolResult r;
        if (McpActions.isAction(name)) {
            if (!ACTIONS.contains(name)) {
                return ToolResult.error("Tool not found: " + name);
            }
            Optional<ToolSpec> target =
                    McpActions.CALL.equals(name) ? actions.callTarget(call.principal(), args) : Optional.empty();
            if (target.isPresent() && target.get().aiAccess() == AiAccess.PROPOSE) {
                // the loop's approval queue holds a call of the tool by its own name; through mcp__call_tool it has
                // none
                return ToolResult.error(
                        target.get().fullName() + " needs approval (ai_access: propose) and was not run: "
                                + "in the agent loop a tool that needs approval is not run through " + McpActions.CALL
                                + ". Call "
                                + target.get().fullName()
                                + " by its own name instead: the call is then held as an approval request "
                                + "and runs once someone else approves it.");
            }
            r = actions.call(call.principal(), name, args, false);
        } else {
            r = actions.callUpstream(call.principal(), call.tool(), args, true);
        }
        String text = text(r);
        return Boolean.TRUE.equals(r.isError())
                ? ToolResult.error(text.isEmpty() ? name + " failed" : text)
                : ToolResult.of(TextNode.valueOf(text));
    }

    /** The result's content as text: text items as they are, other items as their JSON. */
    static String text(McpSchema.CallToolResult r) {
        List<String> parts = new ArrayList<>();
        if (r.content() != null) {
            for (McpSchema.Content c : r.content()) {
                if (c instanceof McpSchema.TextContent t) {
                    parts.add(t.text());
                } else {
                    parts.add(JSON.valueToTree(c).toString());
                }
            }
        }
        if (parts.isEmpty() && r.structuredContent() != null) {
            parts.add(JSON.valueToTree(r.structuredContent()).toString());
        }
        return String.join("\n", parts);
    }
}
