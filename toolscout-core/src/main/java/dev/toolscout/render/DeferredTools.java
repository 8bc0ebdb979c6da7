package dev.toolscout.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Locale;

/**
 * The wire forms of Claude's tool search, done by the client: tools sent with {@code "defer_loading": true}, which
 * Claude does not load until a search names them, and the {@code tool_reference} blocks a search tool's {@code
 * tool_result} names them with. Stateless.
 *
 * <p>The shapes are Anthropic's Messages API's (the tool search tool page, "Custom tool search implementation":
 * platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool; and the official Java SDK,
 * anthropics/anthropic-sdk-java, whose {@code com.anthropic.models.messages.Tool} has {@code defer_loading}: "If
 * true, tool will not be included in initial system prompt. Only loaded when returned via tool_reference from tool
 * search", and whose {@code ToolReferenceBlockParam}, "Tool reference block that can be included in tool_result
 * content", is {@code {"type": "tool_reference", "tool_name"}} with an optional {@code cache_control} we never
 * send). Claude's tool search takes a catalog of at most {@value #MAX_TOOLS} tools.
 */
public final class DeferredTools {
    /** The most tools one request carries, loaded and deferred together: Claude's tool search catalog limit. */
    public static final int MAX_TOOLS = 10_000;

    /** The longest query echoed back in a no-match answer, so a long query does not flood the model's context. */
    private static final int MAX_ECHO = 100;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private DeferredTools() {}

    /** {@code {"name", "description", "input_schema", "defer_loading": true}}: an Anthropic tool, not loaded. */
    public static ObjectNode deferred(ToolSpec spec) {
        return ToolRenderer.anthropic(spec).put("defer_loading", true);
    }

    /**
     * The {@code tools} of a request: {@code loaded} as Anthropic tools (the model sees them at once), then {@code
     * deferred} with {@code defer_loading}, each in the order given.
     *
     * @param max the most tools in all ({@link #MAX_TOOLS} for Claude)
     * @throws IllegalArgumentException when {@code loaded} and {@code deferred} together are more than {@code max}
     */
    public static ArrayNode tools(List<ToolSpec> loaded, List<ToolSpec> deferred, int max) {
        int all = loaded.size() + deferred.size();
        if (all > max) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "format anthropic-deferred sends every tool the principal may see, at most %,d (Claude's tool "
                            + "search catalog limit), got: %,d tools; use format anthropic, whose %s finds the rest",
                    max,
                    all,
                    DiscoveryTools.FIND));
        }
        ArrayNode a = F.arrayNode();
        loaded.forEach(s -> a.add(ToolRenderer.anthropic(s)));
        deferred.forEach(s -> a.add(deferred(s)));
        return a;
    }

    /** {@code {"type": "tool_reference", "tool_name": name}}: loads the deferred tool {@code name}. */
    public static ObjectNode reference(String name) {
        ObjectNode n = F.objectNode();
        n.put("type", "tool_reference");
        n.put("tool_name", name);
        return n;
    }

    /**
     * The content of the {@code tool_result} a search tool answers Claude with: a {@code tool_reference} block per
     * name, best first; for no name, one text block saying nothing matched {@code query}, so the model reads why no
     * tool was loaded (a result is never empty).
     */
    public static ArrayNode references(List<String> names, String query) {
        ArrayNode a = F.arrayNode();
        names.forEach(n -> a.add(reference(n)));
        if (a.isEmpty()) {
            String q = query.length() > MAX_ECHO ? query.substring(0, MAX_ECHO) + "..." : query;
            a.addObject().put("type", "text").put("text", "No tools match '" + q + "'.");
        }
        return a;
    }

    /**
     * What the system prompt adds for {@code deferred} tools (none: nothing): that they exist, and that {@code
     * search} loads them.
     */
    public static String promptNote(int deferred, String search) {
        if (deferred == 0) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "\n# Deferred tools\n\n%,d more %s not loaded yet. Call %s with a short description of the task "
                        + "(e.g. \"send email\") to load the ones you need.\n",
                deferred,
                deferred == 1 ? "tool is" : "tools are",
                search);
    }
}
