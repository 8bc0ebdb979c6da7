package dev.toolscout.mcp.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.model.McpToolJson;
import dev.toolscout.model.ToolSpec;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the tools an MCP server lists into catalog tools: the SDK's records as their wire JSON, mapped by
 * {@link McpToolJson} (lenient per tool; the rules are there), so a live server and a saved {@code tools/list}
 * file map alike.
 */
public final class ToolMapping {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolMapping() {}

    /** One upstream tool and the catalog spec it became. */
    public record Mapped(String originalName, ToolSpec spec, McpSchema.Tool tool) {}

    /** Maps a server's tools; the order of the result follows {@code tools}. */
    public static List<Mapped> map(String serverName, String prefix, List<McpSchema.Tool> tools) {
        List<JsonNode> json = new ArrayList<>(tools.size());
        for (McpSchema.Tool t : tools) {
            json.add(t == null ? null : JSON.valueToTree(t));
        }
        List<Mapped> out = new ArrayList<>();
        for (McpToolJson.Mapped m : McpToolJson.map(serverName, prefix, json)) {
            out.add(new Mapped(m.originalName(), m.spec(), tools.get(m.index())));
        }
        return out;
    }
}
