package dev.toolscout.memory;

import java.util.Locale;

/** What kind of thing a memory is (seed 003's types). */
public enum MemoryType {
    /** Something true about the user or the world: "my dog is called Rex". */
    FACT,
    /** How the user likes things done: "answer in French". */
    PREFERENCE,
    /** Something that happened or will: "the offsite is on 3 March". */
    EVENT,
    /** Anything else worth keeping. */
    NOTE;

    /** The lower-case name used on the wire. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The type named {@code id} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the input, the allowed values and the bad value
     */
    public static MemoryType of(String input, String id) {
        for (MemoryType t : values()) {
            if (t.id().equalsIgnoreCase(id == null ? "" : id.strip())) {
                return t;
            }
        }
        throw new IllegalArgumentException(
                input + " must be one of fact, preference, event, note, got: '" + MemoryScope.clip(id) + "'");
    }
}
