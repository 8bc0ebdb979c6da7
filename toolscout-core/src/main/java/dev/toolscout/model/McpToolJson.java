package dev.toolscout.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns tools in MCP's wire JSON (the objects of a {@code tools/list} result) into catalog tools, leniently: a
 * tool with a missing description gets its title or name as one, an odd schema is replaced by an empty object
 * schema, and a tool that still cannot be understood is skipped with a warning naming the server, the tool and
 * the field, while the server's other tools are kept. Shared by a live MCP server's tools (the mcp module) and
 * a saved {@code tools/list} file (catalog files), so both map alike; JSON in, so the core needs no MCP SDK.
 *
 * <p>Annotations: {@code readOnlyHint: true} is a {@code READ} tool run directly; {@code destructiveHint:
 * true} is a {@code DELETE} tool that is proposed for approval; anything else is a {@code WRITE} run
 * directly (the MCP spec's default for a tool that is not read-only is "may be destructive", but most
 * servers leave the hints out, and gating every such tool would make them unusable; a server's tools can be
 * set to propose as a whole with an access rule).
 */
public final class McpToolJson {
    private static final Logger LOG = LoggerFactory.getLogger(McpToolJson.class);

    private McpToolJson() {}

    /**
     * One MCP tool and the catalog spec it became.
     *
     * @param index the tool's position in the list given to {@link #map}
     */
    public record Mapped(String originalName, ToolSpec spec, int index) {}

    /**
     * Maps a server's tools, each an MCP {@code Tool} JSON object; the order of the result follows {@code tools}.
     *
     * @param serverName named in warnings and the tools' tag source
     * @param prefix the source part of the wire names ({@link ToolNaming#serverPrefix})
     */
    public static List<Mapped> map(String serverName, String prefix, List<JsonNode> tools) {
        List<Integer> usable = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < tools.size(); i++) {
            String name = name(tools.get(i));
            if (name == null || name.isBlank()) {
                LOG.warn("MCP server '{}' listed a tool without a name; skipped", serverName);
            } else if (!seen.add(name)) {
                LOG.warn("MCP server '{}' listed tool '{}' twice; the first is kept", serverName, name);
            } else {
                usable.add(i);
            }
        }
        Map<String, String> names = ToolNaming.wireNames(
                prefix, usable.stream().map(i -> name(tools.get(i))).toList());
        List<Mapped> out = new ArrayList<>(usable.size());
        List<String> tags = List.of(ToolNaming.serverPrefix(serverName)); // the same for every tool of the server
        for (int i : usable) {
            JsonNode t = tools.get(i);
            String name = name(t);
            try {
                out.add(new Mapped(name, spec(serverName, tags, names.get(name), name, t), i));
            } catch (InvalidSpecException e) {
                LOG.warn("MCP server '{}': tool '{}' skipped: {}", serverName, name, e.getMessage());
            }
        }
        return out;
    }

    private static String name(JsonNode t) {
        JsonNode n = t == null ? null : t.get("name");
        return n == null || !n.isValueNode() || n.isNull() ? null : n.asText();
    }

    private static String text(JsonNode parent, String field) {
        JsonNode n = parent == null ? null : parent.get(field);
        return n == null || !n.isValueNode() || n.isNull() ? null : n.asText();
    }

    private static ToolSpec spec(String serverName, List<String> tags, String wireName, String name, JsonNode t) {
        JsonNode a = t.get("annotations");
        String description = firstNonBlank(text(t, "description"), text(t, "title"), text(a, "title"));
        if (description == null) {
            LOG.warn("MCP server '{}': tool '{}' has no description; its name stands in", serverName, name);
            description = name.replace('_', ' ').replace('-', ' ');
        }
        if (description.length() > ToolSpec.MAX_DESCRIPTION) {
            LOG.warn(
                    "MCP server '{}': tool '{}' description cut from {} to {} characters",
                    serverName,
                    name,
                    description.length(),
                    ToolSpec.MAX_DESCRIPTION);
            description = description.substring(0, ToolSpec.MAX_DESCRIPTION);
        }
        SideEffect effect = SideEffect.WRITE;
        AiAccess access = AiAccess.EXECUTE;
        if (a != null && a.path("readOnlyHint").asBoolean(false)) {
            effect = SideEffect.READ;
        } else if (a != null && a.path("destructiveHint").asBoolean(false)) {
            effect = SideEffect.DELETE;
            access = AiAccess.PROPOSE;
        }
        ToolSpec.Builder b = ToolSpec.builder(wireName, description)
                .sourceKind(SourceKind.MCP)
                .category("mcp")
                .tags(tags)
                .aiAccess(access)
                .sideEffect(effect)
                .originalName(name);
        try {
            return b.parameters(schema(serverName, name, t.get("inputSchema"))).build();
        } catch (InvalidSpecException e) {
            if (!e.field().startsWith("parameters")) {
                throw e;
            }
            // an object schema with an odd part (a boolean property schema, "required" naming a missing property):
            // the tool stays usable, and the server still checks the arguments it is called with
            LOG.warn(
                    "MCP server '{}': tool '{}' inputSchema is not usable ({}); an empty one stands in",
                    serverName,
                    name,
                    e.getMessage());
            return b.parameters(emptySchema()).build();
        }
    }

    private static ObjectNode schema(String serverName, String name, JsonNode n) {
        if (n instanceof ObjectNode o
                && (!o.has("type") || "object".equals(o.path("type").asText()))) {
            return o.deepCopy();
        }
        if (n != null && !n.isNull()) {
            LOG.warn(
                    "MCP server '{}': tool '{}' inputSchema is not an object schema ({}); an empty one stands in",
                    serverName,
                    name,
                    n.getNodeType());
        }
        return emptySchema();
    }

    private static ObjectNode emptySchema() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("type", "object");
        return o;
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }
}
