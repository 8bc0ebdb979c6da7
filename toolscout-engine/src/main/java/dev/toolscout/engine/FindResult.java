package dev.toolscout.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.model.AiAccess;
import dev.toolscout.render.DeferredTools;
import java.util.List;

/**
 * Tools matching a search, best first: what {@code tool_discovery__find} answers.
 *
 * @param query the query as given
 * @param tools the matches the principal may see, at most the limit asked for
 * @param skills the skills the principal may see that match, at most 5 ({@code kind: skill} in the meta-tool's
 *     answer)
 */
public record FindResult(String query, List<ToolMatch> tools, List<SkillMatch> skills) {
    public FindResult {
        tools = List.copyOf(tools);
        skills = skills == null ? List.of() : List.copyOf(skills);
    }

    /** Matching tools only. */
    public FindResult(String query, List<ToolMatch> tools) {
        this(query, tools, List.of());
    }

    /**
     * This result as Claude's tool search takes it: the {@code content} of the {@code tool_result} answering a search
     * tool's call, {@code [{"type": "tool_reference", "tool_name"}, ...]}, a block per matching tool, best first;
     * the names are the ones {@link RenderFormat#ANTHROPIC_DEFERRED} sends, so each loads its deferred tool. The
     * search tool itself ({@code tool_discovery__find}, loaded and never deferred) and the skills are left out; with
     * no tool left, one text block says nothing matched.
     */
    public ArrayNode toolReferences() {
        return DeferredTools.references(
                tools.stream()
                        .map(ToolMatch::name)
                        .filter(n -> !n.equals(DiscoveryTools.FIND))
                        .toList(),
                query);
    }

    /**
     * A skill that matches the query (it shares a word with it, or is nearer in meaning than every tool found).
     *
     * @param tools the skill's tools the principal may see
     * @param score the skill's fused reciprocal-rank score among the principal's skills, 0-1
     */
    public record SkillMatch(String name, String description, List<String> tools, double score) {
        public SkillMatch {
            tools = List.copyOf(tools);
        }
    }

    /**
     * One match.
     *
     * @param score the fused relevance, 0-1, rounded to four decimals
     */
    public record ToolMatch(String name, String description, String category, AiAccess aiAccess, double score) {}
}
