package dev.toolscout.mcp.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InvalidSpecException;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the tools an MCP server lists into catalog tools, leniently: a tool with a missing description gets
 * its title or name as one, an odd schema is replaced by an empty object schema, and a tool that still
 * cannot be understood is skipped with a warning naming the server, the tool and the field, while the
 * server's other tools are kept.
 *
 * <p>Annotations: {@code readOnlyHint: true} is a {@code READ} tool run directly; {@code destructiveHint:
 * true} is a {@code DELETE} tool that is proposed for approval; anything else is a {@code WRITE} run
 * directly (the MCP spec's default for a tool that is not read-only is "may be destructive", but most
 * servers leave the hints out, and gating every such tool would make them unusable; a server's tools can be
 * set to propose as a whole with an access rule).
 */
public final class ToolMapping {
  private static final Logger LOG = LoggerFactory.getLogger(ToolMapping.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private ToolMapping() {}

  /** One upstream tool and the catalog spec it became. */
  public record Mapped(String originalName, ToolSpec spec, McpSchema.Tool tool) {}

  /** Maps a server's tools; the order of the result follows {@code tools}. */
  public static List<Mapped> map(String serverName, String prefix, List<McpSchema.Tool> tools) {
    List<McpSchema.Tool> usable = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (McpSchema.Tool t : tools) {
      if (t == null || t.name() == null || t.name().isBlank()) {
        LOG.warn("MCP server '{}' listed a tool without a name; skipped", serverName);
      } else if (!seen.add(t.name())) {
        LOG.warn("MCP server '{}' listed tool '{}' twice; the first is kept", serverName, t.name());
      } else {
        usable.add(t);
      }
    }
    Map<String, String> names = ToolNaming.wireNames(prefix, usable.stream().map(McpSchema.Tool::name).toList());
    List<Mapped> out = new ArrayList<>(usable.size());
    List<String> tags = List.of(ToolNaming.serverPrefix(serverName)); // the same for every tool of the server
    for (McpSchema.Tool t : usable) {
      try {
        out.add(new Mapped(t.name(), spec(serverName, tags, names.get(t.name()), t), t));
      } catch (InvalidSpecException e) {
        LOG.warn("MCP server '{}': tool '{}' skipped: {}", serverName, t.name(), e.getMessage());
      }
    }
    return out;
  }

  static ToolSpec spec(String serverName, List<String> tags, String wireName, McpSchema.Tool t) {
    String description = firstNonBlank(t.description(), t.title(), t.annotations() == null ? null : t.annotations().title());
    if (description == null) {
      LOG.warn("MCP server '{}': tool '{}' has no description; its name stands in", serverName, t.name());
      description = t.name().replace('_', ' ').replace('-', ' ');
    }
    if (description.length() > ToolSpec.MAX_DESCRIPTION) {
      LOG.warn("MCP server '{}': tool '{}' description cut from {} to {} characters", serverName, t.name(),
          description.length(), ToolSpec.MAX_DESCRIPTION);
      description = description.substring(0, ToolSpec.MAX_DESCRIPTION);
    }
    SideEffect effect = SideEffect.WRITE;
    AiAccess access = AiAccess.EXECUTE;
    McpSchema.ToolAnnotations a = t.annotations();
    if (a != null && Boolean.TRUE.equals(a.readOnlyHint())) {
      effect = SideEffect.READ;
    } else if (a != null && Boolean.TRUE.equals(a.destructiveHint())) {
      effect = SideEffect.DELETE;
      access = AiAccess.PROPOSE;
    }
    ToolSpec.Builder b = ToolSpec.builder(wireName, description)
        .sourceKind(SourceKind.MCP)
        .category("mcp")
        .tags(tags)
        .aiAccess(access)
        .sideEffect(effect)
        .originalName(t.name());
    try {
      return b.parameters(schema(serverName, t)).build();
    } catch (InvalidSpecException e) {
      if (!e.field().startsWith("parameters")) {
        throw e;
      }
      // an object schema with an odd part (a boolean property schema, "required" naming a missing property):
      // the tool stays usable, and the server still checks the arguments it is called with
      LOG.warn("MCP server '{}': tool '{}' inputSchema is not usable ({}); an empty one stands in", serverName,
          t.name(), e.getMessage());
      return b.parameters(emptySchema()).build();
    }
  }

  private static ObjectNode schema(String serverName, McpSchema.Tool t) {
    JsonNode n = t.inputSchema() == null ? null : JSON.valueToTree(t.inputSchema());
    if (n instanceof ObjectNode o && (!o.has("type") || "object".equals(o.path("type").asText()))) {
      return o;
    }
    if (n != null) {
      LOG.warn("MCP server '{}': tool '{}' inputSchema is not an object schema ({}); an empty one stands in",
          serverName, t.name(), n.getNodeType());
    }
    return emptySchema();
  }

  private static ObjectNode emptySchema() {
    ObjectNode o = JSON.createObjectNode();
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
