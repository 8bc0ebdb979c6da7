package dev.toolscout.selection;

/**
 * How a tool came into a {@link Selection}: the value the steps after selection (the route's cut, the token budget)
 * go by. The reason text beside it says the same for people and is never parsed.
 */
public enum Origin {
    /** A pinned core tool (the discovery tool among them, and an engine tool offered in a core tool's place). */
    CORE,
    /** A tool the engine serves for this request (such as {@code skills__activate}), offered for the conversation. */
    OFFERED,
    /** A tool of one of the conversation's active skills, pinned. */
    SKILL,
    /** Ranked by the message (a core tool may rank too: it is then {@code RANKED} and still core). */
    RANKED,
    /** Declared as needed ({@code depends_on}) by a tool chosen before it. */
    DEPENDENCY,
    /** Used together with a tool chosen before it, as learned from use (a dependency not declared). */
    USED_WITH;

    /**
     * Whether the selection carries the tool for the request's conversation ({@link #OFFERED}, {@link #SKILL}), not
     * for the message: such a tool stays when the route cuts the ranked ones.
     */
    public boolean forConversation() {
        return this == OFFERED || this == SKILL;
    }

    /** Whether the tool came in behind another chosen tool ({@link #DEPENDENCY}, {@link #USED_WITH}). */
    public boolean neededByAnother() {
        return this == DEPENDENCY || this == USED_WITH;
    }
}
