package dev.toolscout.routing;

import java.util.List;
import java.util.Objects;

/**
 * A route and what it was decided on.
 *
 * @param route the route
 * @param target what the route points at: the memory's id (DIRECT_MEMORY), the tool (SKILL_EXECUTE, or
 *     SKILL_HINT for a tool, or for the tool that searches an index whose entry matches best), the skill (SKILL_HINT
 *     for a skill); {@code null} for TOOL_FILTER and LLM_REQUIRED
 * @param reason a sentence saying why, with the cosine and the threshold it cleared or missed
 * @param discoverySuggested whether the caller should search ({@code tool_discovery__find}) rather than trust the
 *     matches (LLM_REQUIRED)
 * @param sendWhole LLM_REQUIRED with a catalog small enough to send whole: the selection holds every tool the
 *     principal may see
 * @param evidence the nearest memories, tools, skills and entries of searchable indexes (a git repository's) the
 *     principal may read, each with its cosine, best first per kind
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

    /**
     * The index whose entry is the message's nearest match, ahead of every tool and skill the evidence names: the
     * tool that searches it ({@link Evidence#via()}, e.g. {@code git__search}), which a selection then offers; empty
     * when a tool or a skill is as near, or no index was searched.
     */
    public java.util.Optional<String> nearestIndex() {
        Evidence best = null;
        double others = Double.NEGATIVE_INFINITY;
        for (Evidence e : evidence) {
            if (e.kind() == Kind.INDEX) {
                best = best == null || e.cosine() > best.cosine() ? e : best;
            } else if (e.kind() == Kind.TOOL || e.kind() == Kind.SKILL) {
                others = Math.max(others, e.cosine());
            }
        }
        return best != null && best.cosine() > others ? java.util.Optional.of(best.via()) : java.util.Optional.empty();
    }

    /** What kind of thing a piece of evidence is. */
    public enum Kind {
        MEMORY,
        TOOL,
        SKILL,
        /** An entry of a searchable index (a git repository's commit or file), reached through its tool. */
        INDEX
    }

    /**
     * One thing near the message.
     *
     * @param name the memory's id, the tool's or the skill's name
     * @param cosine the cosine similarity of its stored vector to the message's (absolute, not a rank)
     * @param requiredParameters for a tool, whether it has required parameters (false for memories and skills)
     * @param text a memory's content (the principal may read it), a tool's or skill's description, an index entry's
     *     text; at most 300 characters
     * @param via for an index entry, the tool that searches its index ({@code git__search}); else {@code null}
     */
    public record Evidence(Kind kind, String name, double cosine, boolean requiredParameters, String text, String via) {
        public Evidence {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
            if ((kind == Kind.INDEX) != (via != null)) {
                throw new IllegalArgumentException(
                        "an index entry, and only one, names the tool that searches it (via)," + " got kind " + kind
                                + " with via " + via);
            }
            text = text == null ? "" : text.length() > 300 ? text.substring(0, 297) + "..." : text;
        }

        /** A memory, a tool or a skill. */
        public Evidence(Kind kind, String name, double cosine, boolean requiredParameters, String text) {
            this(kind, name, cosine, requiredParameters, text, null);
        }
    }
}
