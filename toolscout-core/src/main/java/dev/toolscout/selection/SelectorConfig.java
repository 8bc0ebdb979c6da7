package dev.toolscout.selection;

import java.util.List;
import java.util.Set;

/**
 * Selector settings.
 *
 * @param coreTools tools pinned into every selection when the principal may see them, in priority order
 *     (the seed's set by default: memory, tasks, frontend, notifications and {@code tool_discovery__find})
 * @param coreShare the share of the K slots reserved for core tools (0.3, the seed's "about 30%"); slots the
 *     core tools do not use go to ranked tools
 * @param fusion how lexical and dense results are fused
 * @param defaultK K when the request gives none (10)
 * @param dependencies whether a selected tool brings the tools it needs (declared {@code depends_on} and
 *     inferred credential issuers); on by default, off only for evaluation baselines that stand for a retriever
 *     alone
 */
public record SelectorConfig(
        List<String> coreTools, double coreShare, Fusion fusion, int defaultK, boolean dependencies) {
    public static final int MIN_K = 1;
    public static final int MAX_K = 50;
    public static final String DISCOVERY_FIND = "tool_discovery__find";

    /** The seed's core tools. */
    public static final List<String> SEED_CORE_TOOLS = List.of(
            DISCOVERY_FIND,
            "memory__search",
            "memory__store",
            "memory__recall",
            "memory__forget",
            "tasks__list",
            "tasks__create",
            "tasks__update_status",
            "frontend__show_card",
            "frontend__show_form",
            "frontend__show_choices",
            "notifications__send");

    public static final SelectorConfig DEFAULT = new SelectorConfig(SEED_CORE_TOOLS, 0.3, Fusion.DEFAULT, 10, true);

    public SelectorConfig {
        coreTools = List.copyOf(new java.util.LinkedHashSet<>(coreTools));
        if (!(coreShare >= 0 && coreShare <= 1)) {
            throw new IllegalArgumentException("core share must be between 0 and 1, got: " + coreShare);
        }
        checkK(defaultK);
    }

    public Set<String> coreSet() {
        return Set.copyOf(coreTools);
    }

    public SelectorConfig withCoreTools(List<String> tools) {
        return new SelectorConfig(tools, coreShare, fusion, defaultK, dependencies);
    }

    public SelectorConfig withFusion(Fusion f) {
        return new SelectorConfig(coreTools, coreShare, f, defaultK, dependencies);
    }

    /** Slots reserved for core tools at {@code k}: {@code round(k * coreShare)}. */
    public int coreSlots(int k) {
        return (int) Math.round(k * coreShare);
    }

    /** @throws IllegalArgumentException unless {@code MIN_K <= k <= MAX_K} */
    public static int checkK(int k) {
        if (k < MIN_K || k > MAX_K) {
            throw new IllegalArgumentException("k must be between " + MIN_K + " and " + MAX_K + ", got: " + k);
        }
        return k;
    }
}
