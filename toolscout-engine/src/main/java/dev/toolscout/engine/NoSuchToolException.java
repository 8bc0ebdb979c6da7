package dev.toolscout.engine;

import java.util.List;

/**
 * A write named tools the catalog does not hold ({@link ToolScout#remove}); nothing was changed. An {@link
 * IllegalArgumentException}, so a caller that does not tell kinds apart still sees bad input; one that does
 * (an HTTP API answering 404) can.
 */
public final class NoSuchToolException extends IllegalArgumentException {
    private final List<String> names;

    public NoSuchToolException(String message, List<String> names) {
        super(message);
        this.names = List.copyOf(names);
    }

    /** The names that are not in the catalog. */
    public List<String> names() {
        return names;
    }
}
