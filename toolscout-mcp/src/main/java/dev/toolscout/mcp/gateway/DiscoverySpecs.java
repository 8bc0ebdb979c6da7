package dev.toolscout.mcp.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.util.List;

/** The definitions of the discovery meta-tools as the gateway offers them (whatever the catalog holds). */
final class DiscoverySpecs {
    static final String FIND = DiscoveryTools.FIND;
    private static final ObjectMapper JSON = new ObjectMapper();

    static final List<ToolSpec> ALL = List.of(
            spec(
                    DiscoveryTools.FIND,
                    "Search for tools by what you want to do. The tools it finds are added to your "
                            + "tool list, so you can call them directly; use it when none of the tools you have fits the request.",
                    """
          {"type":"object","properties":{
           "query":{"type":"string","description":"What you need, e.g. 'read a file', 'store a fact'"},
           "limit":{"type":"integer","description":"Max results to return (default 10)","minimum":1,"maximum":50}},
           "required":["query"]}"""),
            spec(DiscoveryTools.LIST_ALL, "List all available tools, optionally only those in one category.", """
          {"type":"object","properties":{
           "category":{"type":"string","description":"Optional: only tools of this category"}}}"""),
            spec(
                    DiscoveryTools.DESCRIBE,
                    "Get full details about a tool: its parameters and whether it needs approval.",
                    """
          {"type":"object","properties":{
           "tool_name":{"type":"string","description":"The tool's name, e.g. 'memory__read_graph'"}},
           "required":["tool_name"]}"""));

    private DiscoverySpecs() {}

    static boolean isDiscovery(String name) {
        return ALL.stream().anyMatch(s -> s.fullName().equals(name));
    }

    private static ToolSpec spec(String name, String description, String schema) {
        try {
            return ToolSpec.builder(name, description)
                    .category("discovery")
                    .parameters((ObjectNode) JSON.readTree(schema))
                    .aiAccess(AiAccess.EXECUTE)
                    .sideEffect(SideEffect.READ)
                    .build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
