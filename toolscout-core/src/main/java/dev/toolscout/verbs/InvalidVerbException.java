package dev.toolscout.verbs;

/**
 * A verb manifest or a novel verb broke a rule. The message names the verb, the field, the rule and the bad
 * value: {@code verb 'search web': verb must be upper snake case ...}. Not retriable: the input has to change.
 */
public final class InvalidVerbException extends IllegalArgumentException {
    private final String verb;
    private final String field;

    public InvalidVerbException(String verb, String field, String message) {
        super("verb '" + shown(verb) + "': " + field + " " + message);
        this.verb = verb;
        this.field = field;
    }

    /** At most 100 characters of a verb, so a hostile one cannot flood a response. */
    static String shown(String verb) {
        return verb != null && verb.length() > 100 ? verb.substring(0, 100) + "..." : verb;
    }

    /** The verb as given (possibly invalid itself). */
    public String verb() {
        return verb;
    }

    /** The offending field, e.g. {@code description} or {@code inputDefinitions.properties.url}. */
    public String field() {
        return field;
    }
}
