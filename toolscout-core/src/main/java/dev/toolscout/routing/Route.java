package dev.toolscout.routing;

/**
 * What to do with a message before any LLM is called (seed 003's VectorRouter), decided by {@link VectorRouter}
 * from absolute cosine similarities against per-model thresholds ({@link RouteThresholds}).
 */
public enum Route {
    /** A remembered fact, preference, event or note answers the message: answer from memory. */
    DIRECT_MEMORY,
    /** A tool with no required parameters matches closely enough to run without the LLM (access and approval still apply). */
    SKILL_EXECUTE,
    /** A close match that needs parameters (or a skill to activate): tell the LLM which one. */
    SKILL_HINT,
    /** Something in the catalog is relevant: send the LLM the selected tools. */
    TOOL_FILTER,
    /**
     * Nothing clears its threshold: the LLM decides, with discovery suggested instead of weak matches presented as
     * relevant (a catalog small enough is sent whole).
     */
    LLM_REQUIRED
}
