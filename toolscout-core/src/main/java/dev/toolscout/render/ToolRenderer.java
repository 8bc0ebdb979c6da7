package dev.toolscout.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.util.List;

/** The wire forms of tool definitions: Anthropic {@code tools}, OpenAI function tools, MCP {@code Tool}. */
public final class ToolRenderer {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ToolRenderer() {}

    /** {@code {"name", "description", "input_schema"}} (Anthropic Messages API). */
    public static ObjectNode anthropic(ToolSpec spec) {
        ObjectNode n = F.objectNode();
        n.put("name", spec.fullName());
        n.put("description", spec.description());
        n.set("input_schema", spec.parameters().deepCopy());
        return n;
    }

    /** {@code {"type":"function","function":{"name","description","parameters"}}} (OpenAI Chat Completions). */
    public static ObjectNode openai(ToolSpec spec) {
        ObjectNode n = F.objectNode();
        n.put("type", "function");
        ObjectNode fn = n.putObject("function");
        fn.put("name", spec.fullName());
        fn.put("description", spec.description());
        fn.set("parameters", spec.parameters().deepCopy());
        return n;
    }

    /** An MCP {@code Tool}: {@code name, description, inputSchema, annotations} (readOnlyHint, destructiveHint). */
    public static ObjectNode mcp(ToolSpec spec) {
        ObjectNode n = F.objectNode();
        n.put("name", spec.fullName());
        n.put("description", spec.description());
        n.set("inputSchema", spec.parameters().deepCopy());
        ObjectNode ann = n.putObject("annotations");
        ann.put("readOnlyHint", spec.sideEffect() == SideEffect.READ);
        ann.put("destructiveHint", spec.sideEffect() == SideEffect.DELETE);
        return n;
    }

    public static ArrayNode anthropic(List<ToolSpec> specs) {
        ArrayNode a = F.arrayNode();
        specs.forEach(s -> a.add(anthropic(s)));
        return a;
    }

    public static ArrayNode openai(List<ToolSpec> specs) {
        ArrayNode a = F.arrayNode();
        specs.forEach(s -> a.add(openai(s)));
        return a;
    }

    public static ArrayNode mcp(List<ToolSpec> specs) {
        ArrayNode a = F.arrayNode();
        specs.forEach(s -> a.add(mcp(s)));
        return a;
    }
}
