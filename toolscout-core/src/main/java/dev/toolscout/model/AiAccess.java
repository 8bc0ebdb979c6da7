package dev.toolscout.model;

/** What the model may do with a tool: run it, propose it for approval, or never see it. */
public enum AiAccess {
    /** Offered and run directly. */
    EXECUTE,
    /** Offered; runs only after an approval is recorded. */
    PROPOSE,
    /** Never offered, never run, never listed. */
    BLOCKED
}
