package dev.toolscout.model;

/**
 * Who is asking: a user, in a group, working in a space. Any part may be {@code null} (unknown); rules
 * that name an unknown part do not apply.
 */
public record Principal(String user, String group, String space) {
    /** The local single-user default: no user, group or space, so only rules for everyone apply. */
    public static final Principal ANONYMOUS = new Principal(null, null, null);

    public Principal {
        user = blankToNull(user);
        group = blankToNull(group);
        space = blankToNull(space);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
