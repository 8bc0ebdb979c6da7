package dev.toolscout.memory;

import java.util.Locale;

/**
 * Who a memory belongs to, and so who may read it (docs/MEMORY.md): {@link #USER} only its user; {@link #GROUP}
 * every principal of its group; {@link #SPACE} every principal working in its space or a space under it (the
 * access policy's space tree, as tool rules inherit).
 */
public enum MemoryScope {
    /** Private to one user (the principal's user; principals with no user share one private scope). */
    USER,
    /** Shared by a group. */
    GROUP,
    /** Shared by the members of a space and of the spaces under it. */
    SPACE;

    /** The lower-case name used on the wire ({@code user}, {@code group}, {@code space}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The scope named {@code id} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the input, the allowed values and the bad value
     */
    public static MemoryScope of(String input, String id) {
        for (MemoryScope s : values()) {
            if (s.id().equalsIgnoreCase(id == null ? "" : id.strip())) {
                return s;
            }
        }
        throw new IllegalArgumentException(input + " must be one of user, group, space, got: '" + clip(id) + "'");
    }

    static String clip(String s) {
        return s == null ? "null" : s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }
}
