package dev.toolscout.model;

import java.util.Locale;

/**
 * What a caller of a shared surface (an API key of the gateway) may do, beyond what the access policy lets
 * it see. The policy decides which tools a principal sees; the role decides which of those it may run and
 * whether it may decide other callers' approval requests. See docs/SECURITY.md.
 */
public enum Role {
    /** Finds and describes tools and calls those that only read; nothing with a side effect, nothing proposed. */
    READER,
    /** Calls the tools it sees; a tool that needs approval is held until someone else approves it. */
    USER,
    /** A user who may also approve or deny other callers' requests (never its own). */
    ADMIN;

    /** The role of an API key whose entry names none: a user, never an approver. */
    public static final Role DEFAULT = USER;

    /** The lower-case name used in files and output. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a role name (case-insensitive).
     *
     * @throws IllegalArgumentException naming the rule and the bad value
     */
    public static Role parse(String text) {
        if (text != null) {
            for (Role r : values()) {
                if (r.id().equals(text.strip().toLowerCase(Locale.ROOT))) {
                    return r;
                }
            }
        }
        throw new IllegalArgumentException("role must be reader, user or admin, got: '" + text + "'");
    }
}
