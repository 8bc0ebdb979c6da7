package dev.toolscout.selection;

import dev.toolscout.model.ToolSpec;
import java.util.List;

/**
 * The tools chosen for one request, and why.
 *
 * @param selected the chosen tools, best first
 * @param coreIncluded names of the pinned core tools among {@code selected}
 * @param excludedCount how many tools the principal may see that were left out (never counts a tool the
 *     principal may not see)
 * @param visibleCount how many tools the principal may see in all: the catalog's, plus the engine's own
 *     discovery tool when this selection offers it (a catalog without one)
 * @param reason a sentence for the model and the user explaining the choice
 * @param discoverySuggested whether tools were left out, so the model should know it can search for more
 */
public record Selection(
        List<SelectedTool> selected,
        List<String> coreIncluded,
        int excludedCount,
        int visibleCount,
        String reason,
        boolean discoverySuggested) {

    public Selection {
        selected = List.copyOf(selected);
        coreIncluded = List.copyOf(coreIncluded);
    }

    /** The specs of the selected tools, in order. */
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
     * @param origin how it came into the selection (what the steps after selection go by; never the reason text)
     */
    public record SelectedTool(ToolSpec spec, double score, String reason, boolean core, Origin origin) {
        public SelectedTool {
            java.util.Objects.requireNonNull(spec, "spec");
            java.util.Objects.requireNonNull(reason, "reason");
            java.util.Objects.requireNonNull(origin, "origin");
        }

        /** This tool with {@code reason} in place of its own. */
        public SelectedTool withReason(String reason) {
            return new SelectedTool(spec, score, reason, core, origin);
        }

        public String name() {
            return spec.fullName();
        }
    }
}
