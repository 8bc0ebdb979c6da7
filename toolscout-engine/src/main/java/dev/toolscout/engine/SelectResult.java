package dev.toolscout.engine;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.routing.Route;
import dev.toolscout.routing.RouteDecision;
import dev.toolscout.selection.Origin;
import dev.toolscout.selection.Shortened;
import java.util.List;
import java.util.Objects;

/**
 * The tools chosen for one request, and why. Holds only tools the principal may see, and counts only those.
 *
 * @param selected the chosen tools, best first
 * @param coreIncluded names of the pinned core tools among {@code selected}
 * @param excludedCount how many tools the principal may see were left out
 * @param visibleCount how many tools the principal may see in all (the catalog's, plus the engine's own
 *     discovery tool when this selection offers it)
 * @param reason a sentence for the model and the user explaining the choice
 * @param discoverySuggested whether tools were left out, so the model should know it can search for more
 * @param tokens the definitions' size, selected against all visible
 * @param activeSkills the conversation's active skills the principal may see, in activation order (their visible
 *     tools are pinned into the selection); empty outside a conversation
 * @param suggestedSkill a skill to suggest activating, or {@code null}
 * @param route the route the message took ({@code docs/ROUTING.md}) with its evidence (cosines), or {@code null}
 *     when none was decided; on {@link Route#LLM_REQUIRED} (and a catalog too large to send whole) {@code selected}
 *     holds only the pinned core tools and discovery is suggested, instead of weak matches
 * @param shortened how the message was shortened for the ranking and the route (a message longer than they read is
 *     ranked on its first part), or {@code null} when they read it whole
 */
public record SelectResult(
        List<SelectedTool> selected,
        List<String> coreIncluded,
        int excludedCount,
        int visibleCount,
        String reason,
        boolean discoverySuggested,
        Tokens tokens,
        List<String> activeSkills,
        SkillSuggestion suggestedSkill,
        RouteDecision route,
        Shortened shortened) {
    public SelectResult {
        selected = List.copyOf(selected);
        coreIncluded = List.copyOf(coreIncluded);
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(tokens, "tokens");
        activeSkills = activeSkills == null ? List.of() : List.copyOf(activeSkills);
    }

    /** A result with no route decided. */
    public SelectResult(
            List<SelectedTool> selected,
            List<String> coreIncluded,
            int excludedCount,
            int visibleCount,
            String reason,
            boolean discoverySuggested,
            Tokens tokens,
            List<String> activeSkills,
            SkillSuggestion suggestedSkill) {
        this(
                selected,
                coreIncluded,
                excludedCount,
                visibleCount,
                reason,
                discoverySuggested,
                tokens,
                activeSkills,
                suggestedSkill,
                null,
                null);
    }

    /**
     * This result with {@code r} as its route and {@code s} as how its message was shortened ({@code null}: read
     * whole).
     */
    public SelectResult withRoute(RouteDecision r, Shortened s) {
        return new SelectResult(
                selected,
                coreIncluded,
                excludedCount,
                visibleCount,
                reason,
                discoverySuggested,
                tokens,
                activeSkills,
                suggestedSkill,
                r,
                s);
    }

    /** A result outside a conversation: no active skills, no suggestion. */
    public SelectResult(
            List<SelectedTool> selected,
            List<String> coreIncluded,
            int excludedCount,
            int visibleCount,
            String reason,
            boolean discoverySuggested,
            Tokens tokens) {
        this(selected, coreIncluded, excludedCount, visibleCount, reason, discoverySuggested, tokens, List.of(), null);
    }

    /**
     * A skill that clearly matches the message (first both by words and by meaning among the principal's skills),
     * which the system prompt suggests activating with {@code skills__activate}.
     *
     * @param why how it matched, e.g. {@code matches 'feature'; nearest in meaning}
     */
    public record SkillSuggestion(String name, String description, String why) {}

    /** The selected tools' definitions, in order (what goes to the model). */
    public List<ToolSpec> specs() {
        return selected.stream().map(SelectedTool::spec).toList();
    }

    /**
     * One selected tool.
     *
     * @param score the fused relevance, 0-1 (0 for a core tool that did not match the message at all)
     * @param reason why it is here, e.g. {@code "core tool"} or {@code "matches 'meeting'; similar in meaning
     *     (0.71)"}
     * @param core whether it is one of the pinned core tools
     * @param spec the tool's definition; its {@code dependsOn} names only tools the principal may see
     * @param origin how it came into the selection (core, offered, skill, ranked, dependency): a value to go by,
     *     where {@code reason} is text for people
     */
    public record SelectedTool(String name, double score, String reason, boolean core, ToolSpec spec, Origin origin) {
        public SelectedTool {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(origin, "origin");
        }
    }

    /**
     * Token counts (cl100k) of the tool definitions: the selected ones against every one the principal may see,
     * so {@code savedPct} is what selecting saved over sending all of them.
     *
     * @param savedPct {@code 100 * (all - selected) / all}, rounded to one decimal; 0 when {@code all} is 0
     * @param estimated whether {@code all} is an estimate: right after a start in a data directory whose counts were
     *     not stored, or during a large change, definitions not counted yet are taken at the mean of the others rather
     *     than counted on the request's thread (seconds at 100k tools); the engine counts them in the background, and a
     *     later selection's figure is exact. The JSON forms ({@code SelectResultJson}, the HTTP API) say
     *     {@code "estimated": true} then, and nothing otherwise
     */
    public record Tokens(long selected, long all, double savedPct, boolean estimated) {
        /** The counts, with {@code savedPct} computed from them. */
        public static Tokens of(long selected, long all) {
            return new Tokens(selected, all, savedPct(selected, all), false);
        }

        /** The same with {@code all} estimated. */
        public static Tokens estimated(long selected, long all) {
            return new Tokens(selected, all, savedPct(selected, all), true);
        }

        private static double savedPct(long selected, long all) {
            return all == 0 ? 0 : Math.round(1000.0 * (all - selected) / all) / 10.0;
        }
    }
}
