package dev.toolscout.engine;

import java.util.List;
import java.util.Map;

/**
 * One page of the tools a principal may see, by name: what {@code tool_discovery__list_all} answers, paged.
 *
 * @param tools this page's tools
 * @param total how many tools match (the category, if one was given) in all pages
 * @param offset where this page starts in the whole list
 * @param categories every category the principal may see, with its number of tools, by name
 */
public record ToolPage(List<ToolSummary> tools, int total, int offset, Map<String, Integer> categories) {
    /** The largest page {@link ToolScout#list} gives. */
    public static final int MAX_LIMIT = 1000;

    public ToolPage {
        tools = List.copyOf(tools);
        categories = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(categories));
    }

    /** A tool's name, description and category ({@link ToolScout#describe} gives the whole definition). */
    public record ToolSummary(String name, String description, String category) {}
}
