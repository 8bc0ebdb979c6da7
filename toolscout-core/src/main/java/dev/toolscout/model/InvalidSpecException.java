package dev.toolscout.model;

/**
 * A tool definition broke a rule. The message names the tool, the field, the rule and the bad value. Not
 * retriable: the input has to change.
 */
public final class InvalidSpecException extends IllegalArgumentException {
    private final String tool;
    private final String field;

    public InvalidSpecException(String tool, String field, String message) {
        super("tool '" + tool + "': " + field + " " + message);
        this.tool = tool;
        this.field = field;
    }

    /** The tool's name as given (possibly invalid itself). */
    public String tool() {
        return tool;
    }

    /** The offending field, e.g. {@code description} or {@code parameters.properties.x}. */
    public String field() {
        return field;
    }
}
