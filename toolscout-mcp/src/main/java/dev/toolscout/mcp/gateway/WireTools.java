package dev.toolscout.mcp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.ToolRenderer;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.util.ToolInputValidator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The wire definitions ({@code tools/list}'s) of the tools the gateway's MCP server holds, by name, and the check of a
 * call's arguments against them. The gateway checks arguments itself, once access has been checked: the SDK would
 * check them first, which would tell a denied tool (its schema's errors) from a missing one. Thread-safe.
 */
final class WireTools {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonSchemaValidator validator = new DefaultJsonSchemaValidator();
    private final Map<String, McpSchema.Tool> tools = new ConcurrentHashMap<>();

    /** {@code s} on the wire (its input schema, read-only and destructive hints), held for argument checks. */
    McpSchema.Tool define(ToolSpec s) {
        JsonNode schema = ToolRenderer.mcp(s).path("inputSchema");
        @SuppressWarnings("unchecked")
        Map<String, Object> input = JSON.convertValue(schema, Map.class);
        McpSchema.ToolAnnotations ann = new McpSchema.ToolAnnotations(
                null, s.sideEffect() == SideEffect.READ, s.sideEffect() == SideEffect.DELETE, null, null, null);
        McpSchema.Tool t = McpSchema.Tool.builder(s.fullName(), input)
                .description(s.description())
                .annotations(ann)
                .build();
        tools.put(t.name(), t);
        return t;
    }

    /** Drops the definition of a tool the server no longer holds. */
    void forget(String name) {
        tools.remove(name);
    }

    /** The schema check of a call of {@code name}: none for a name with no definition held. */
    ToolCalls.ArgumentCheck check(String name) {
        return args -> {
            McpSchema.Tool t = tools.get(name);
            McpSchema.CallToolResult invalid =
                    t == null ? null : ToolInputValidator.validate(t, map(args), true, validator);
            return invalid == null ? null : text(invalid);
        };
    }

    /** A call's arguments as a map: as the SDK parsed them, or converted from the gate's JSON. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object args) {
        return args instanceof Map<?, ?> m ? (Map<String, Object>) m : JSON.convertValue(args, Map.class);
    }

    /** The text of a one-text tool result (the SDK's argument check's, an action's error). */
    static String text(McpSchema.CallToolResult r) {
        return r.content().isEmpty() || !(r.content().get(0) instanceof McpSchema.TextContent t) ? "" : t.text();
    }
}
