package dev.toolscout.render;

import static dev.toolscout.discovery.DiscoveryTools.DESCRIBE;
import static dev.toolscout.discovery.DiscoveryTools.FIND;
import static dev.toolscout.discovery.DiscoveryTools.LIST_ALL;
import static dev.toolscout.skills.SkillTools.ACTIVATE;

import dev.toolscout.model.AiAccess;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selection.SelectedTool;
import java.util.ArrayList;
import java.util.List;

/**
 * The system-prompt section that tells the model which tools it has for this request, why, and how to find
 * more (the seed's transparency message). It names only tools the selection carries: a discovery meta-tool
 * left out of the selection (by K, a token budget or the policy) is never mentioned, since a model told to call
 * a tool it was not given fails the call. Each tool is named with the first sentence of its description (cut only
 * at a sentence end: {@link Sentences}) and, when its calls wait for a person's approval ({@code PROPOSE}), the mark
 * {@code (requires approval)}, as the seed's prompt has it.
 */
public final class SystemPrompt {
    private SystemPrompt() {}

    public static String section(Selection selection) {
        return section(selection, List.of(), null);
    }

    /**
     * A skill that clearly matches the message, to suggest activating.
     *
     * @param name the skill's name
     * @param description what it does (as the principal may read it)
     * @param why how it matched, e.g. {@code matches 'feature'; nearest in meaning}
     */
    public record SkillSuggestion(String name, String description, String why) {}

    /**
     * The section for a request in a conversation: {@code activeSkills} are named as active (their tools are among
     * the selected ones), and {@code suggestion}, when not null, is suggested for activation, but only when the
     * selection carries {@code skills__activate} to activate it with.
     */
    public static String section(Selection selection, List<String> activeSkills, SkillSuggestion suggestion) {
        StringBuilder b = new StringBuilder();
        b.append("# Tools available for this request\n\n");
        if (selection.selected().isEmpty()) {
            b.append("No tools were selected for this message.\n");
        } else {
            b.append("I've selected these tools based on your message:\n");
            int i = 1;
            for (SelectedTool t : selection.selected()) {
                b.append(i++)
                        .append(". ")
                        .append(t.name())
                        .append(" — ")
                        .append(Sentences.first(t.spec().description()));
                if (t.spec().aiAccess() == AiAccess.PROPOSE) {
                    // the seed's mark: the model should say so before it calls, since the call waits for a person
                    b.append(" (requires approval)");
                }
                b.append(" (").append(t.reason()).append(")\n");
            }
            b.append('\n').append(selection.reason()).append('\n');
        }
        if (selection.discoverySuggested()) {
            java.util.Set<String> given = new java.util.HashSet<>();
            selection.selected().forEach(t -> given.add(t.name()));
            List<String> ways = new ArrayList<>();
            if (given.contains(FIND)) {
                ways.add("call " + FIND + " with a short description of the task (e.g. \"send email\")");
            }
            if (given.contains(LIST_ALL)) {
                ways.add("call " + LIST_ALL + " to browse by category");
            }
            if (given.contains(DESCRIBE)) {
                ways.add("call " + DESCRIBE + " with a tool name for its full definition");
            }
            b.append("\n# ")
                    .append(ways.isEmpty() ? "Other tools" : "Discover more tools")
                    .append("\n\n");
            b.append("These are the most relevant of ")
                    .append(selection.visibleCount())
                    .append(" tools; ")
                    .append(selection.excludedCount());
            if (ways.isEmpty()) {
                b.append(" more were left out of this request.\n");
            } else {
                b.append(" more are available.\n");
                b.append("If you need something else, ").append(joinOr(ways)).append(".\n");
            }
        }
        boolean canActivate =
                selection.selected().stream().anyMatch(t -> t.name().equals(ACTIVATE));
        if (!activeSkills.isEmpty() || suggestion != null && canActivate) {
            b.append("\n# Skills\n\n");
            if (!activeSkills.isEmpty()) {
                b.append("Active in this conversation: ")
                        .append(String.join(", ", activeSkills))
                        .append(" (their tools are above).\n");
            }
            if (suggestion != null && canActivate) {
                b.append("The skill '")
                        .append(suggestion.name())
                        .append("' matches this message (")
                        .append(suggestion.why())
                        .append("): ")
                        .append(Sentences.first(suggestion.description()))
                        .append(" Call ")
                        .append(ACTIVATE)
                        .append(" with skill_name \"")
                        .append(suggestion.name())
                        .append("\" for its instructions and tools.\n");
            }
        }
        return b.toString();
    }

    /** "a", "a or b", "a, b, or c". */
    private static String joinOr(List<String> ways) {
        if (ways.size() == 1) {
            return ways.get(0);
        }
        if (ways.size() == 2) {
            return ways.get(0) + " or " + ways.get(1);
        }
        return String.join(", ", ways.subList(0, ways.size() - 1)) + ", or " + ways.get(ways.size() - 1);
    }
}
