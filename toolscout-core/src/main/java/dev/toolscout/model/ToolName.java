package dev.toolscout.model;

import java.util.regex.Pattern;

/**
 * A tool's full name, {@code <source>__<action>}: {@code gmail__send_email}. The full name matches the wire
 * rule of the Anthropic and OpenAI APIs, {@code ^[a-zA-Z0-9_-]{1,64}$}. The source holds no double
 * underscore, so the first {@code __} splits the name unambiguously.
 */
public final class ToolName implements Comparable<ToolName> {
    /** The wire rule every full name obeys. */
    public static final Pattern WIRE = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

    private static final Pattern SOURCE = Pattern.compile("^[a-zA-Z0-9-]+(_[a-zA-Z0-9-]+)*$");
    private static final Pattern ACTION = Pattern.compile("^[a-zA-Z0-9_-]+$");
    public static final String SEPARATOR = "__";

    private final String source;
    private final String action;
    /** Built once: names are compared and hashed on every selection's hot path. */
    private final String full;

    public ToolName(String source, String action) {
        String full = source + SEPARATOR + action;
        if (source == null || !SOURCE.matcher(source).matches()) {
            throw new InvalidSpecException(
                    full, "name", "source part must match " + SOURCE.pattern() + " (no '__'), got: '" + source + "'");
        }
        if (action == null || !ACTION.matcher(action).matches()) {
            throw new InvalidSpecException(
                    full, "name", "action part must match " + ACTION.pattern() + ", got: '" + action + "'");
        }
        if (full.length() > 64) {
            throw new InvalidSpecException(
                    full,
                    "name",
                    "must be at most 64 characters (the Anthropic/OpenAI wire rule), got: " + full.length());
        }
        this.source = source;
        this.action = action;
        this.full = full;
    }

    /** The part before the first {@code __}: the integration, skill or server the tool belongs to. */
    public String source() {
        return source;
    }

    /** The part after the first {@code __}. */
    public String action() {
        return action;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ToolName n && n.full.equals(full);
    }

    @Override
    public int hashCode() {
        return full.hashCode();
    }

    /** Parses {@code source__action}; the first double underscore separates the two. */
    public static ToolName parse(String full) {
        if (full == null) {
            throw new InvalidSpecException("null", "name", "is required");
        }
        int at = full.indexOf(SEPARATOR);
        if (at <= 0 || at + SEPARATOR.length() >= full.length()) {
            throw new InvalidSpecException(
                    full,
                    "name",
                    "must have the form <source>__<action> (e.g. gmail__send_email), got: '" + full + "'");
        }
        return new ToolName(full.substring(0, at), full.substring(at + SEPARATOR.length()));
    }

    /** True when {@code full} parses as a valid tool name. */
    public static boolean isValid(String full) {
        try {
            parse(full);
            return true;
        } catch (InvalidSpecException e) {
            return false;
        }
    }

    public String full() {
        return full;
    }

    @Override
    public int compareTo(ToolName o) {
        return full.compareTo(o.full);
    }

    @Override
    public String toString() {
        return full;
    }
}
