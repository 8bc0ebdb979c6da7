package dev.toolscout.routing;

import java.util.List;
import java.util.Objects;

/**
 * A route and what it was decided on.
 *
 * @param route the route
 * @param target what the route points at: the memory's id (DIRECT_MEMORY), the tool (SKILL_EXECUTE, or
 *     SKILL_HINT for a tool), the skill (SKILL_HINT for a skill); {@code null} for TOOL_FILTER and LLM_REQUIRED
 * @param reason a sentence saying why, with the cosine and the threshold it cleared or missed
 * @param discoverySuggested whether the caller should search ({@code tool_discovery__find}) rather than trust the
 *     matches (LLM_REQUIRED)
 * @param sendWhole LLM_REQUIRED with a catalog small enough to send whole: the selection holds every tool the
 *     principal may see
 * @param evidence the nearest memories, tools and skills the principal may read, each with its cosine, best first
 *     per kind
 * @param thresholds the thresholds applied
 * @param wordsMatch whether a word of the message matches a tool the principal may see (BM25 finds one): a message
 *     under the {@code tool_filter} cosine whose words match a tool still gets TOOL_FILTER
 */
public record RouteDecision(
        Route route,
        String target,
        String reason,
        boolean discoverySuggested,
        boolean sendWhole,
        List<Evidence> evidence,
        RouteThresholds thresholds,
        boolean wordsMatch) {
    public RouteDecision {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(thresholds, "thresholds");
        evidence = List.copyOf(evidence);
    }

    /** What kind of thing a piece of evidence is. */
    public enum Kind {
        MEMORY,
        TOOL,
        SKILL
    }

    /**
     * One thing near the message.
     *
     * @param name the memory's id, the tool's or the skill's name
     * @param cosine the cosine similarity of its stored vector to the message's (absolute, not a rank)
     * @param requiredParameters for a tool, whether it has required parameters (false for memories and skills)
     * @param text a memory's content (the principal may read it), a tool's or skill's description; at most 300
     *     characters
     */
    public record Evidence(Kind kind, String name, double cosine, boolean requiredParameters, String text) {
        public Evidence {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
            text = text == null ? "" : text.length() > 300 ? text.substring(0, 297) + "..." : text;
        }
    }
}
