package dev.toolscout.verbs;

import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.InputLimits;
import java.util.List;
import java.util.Objects;

/**
 * A verb a planner used that no registered verb has (seed 002's {@code NovelVerbHandler} input): its name, what it
 * should do, and its inputs' names. Any part may be empty, but not all of them. The name need not follow the verb
 * rule ({@code fetchWebPage}, {@code FETCH_PAGE} and {@code fetch page} all work): it is read as words.
 *
 * <p>Limits: the name and each input name at most {@value InputLimits#MAX_NAME_CHARS} characters, the
 * description at most {@value InputLimits#MAX_MESSAGE_CHARS}, at most {@value VerbManifest#MAX_DEFINITIONS}
 * inputs.
 *
 * @param verb the unknown verb's name, or {@code null}
 * @param description what it should do, or {@code null}
 * @param inputs its inputs' names, in order (empty for none)
 */
public record NovelVerb(String verb, String description, List<String> inputs) {
    public NovelVerb {
        verb = verb == null || verb.isBlank() ? null : verb.strip();
        description = description == null || description.isBlank() ? null : description.strip();
        inputs = inputs == null
                ? List.of()
                : inputs.stream()
                        .filter(Objects::nonNull)
                        .map(String::strip)
                        .filter(s -> !s.isEmpty())
                        .toList();
        String name = verb == null ? "" : verb;
        tooLong(name, "verb", InputLimits.nameTooLong("verb", verb));
        tooLong(name, "description", InputLimits.messageTooLong("description", description));
        if (inputs.size() > VerbManifest.MAX_DEFINITIONS) {
            throw new InvalidVerbException(
                    name,
                    "inputs",
                    "must name at most " + VerbManifest.MAX_DEFINITIONS + " inputs, got: " + inputs.size());
        }
        for (String in : inputs) {
            tooLong(name, "inputs", InputLimits.nameTooLong("inputs", in));
        }
        if (verb == null && description == null) {
            throw new InvalidVerbException(
                    name,
                    "verb and description",
                    "must not both be blank: give the verb's name," + " what it should do, or both");
        }
    }

    /** Throws the error {@code InputLimits} wrote ({@code "<field> must be at most ..."}), if any. */
    private static void tooLong(String verb, String field, String error) {
        if (error != null) {
            throw new InvalidVerbException(verb, field, error.substring(field.length() + 1));
        }
    }

    /** A novel verb known by its description only (a request in a user's words). */
    public static NovelVerb described(String description) {
        return new NovelVerb(null, description, List.of());
    }

    /**
     * The text the verb is searched by, built as a tool's embedding text is ({@link ToolText#embeddingText}) so
     * that the two compare like for like: the name as words, then the description, then the inputs as words:
     * {@code fetch web page: Download a page. Parameters: url.}
     */
    public String searchText() {
        StringBuilder b = new StringBuilder();
        if (verb != null) {
            b.append(ToolText.splitIdentifier(verb));
        }
        if (description != null) {
            b.append(b.isEmpty() ? "" : ": ").append(description);
        }
        if (!inputs.isEmpty()) {
            b.append(b.isEmpty() ? "" : " ").append("Parameters: ");
            for (int i = 0; i < inputs.size(); i++) {
                b.append(i > 0 ? ", " : "").append(ToolText.splitIdentifier(inputs.get(i)));
            }
            b.append('.');
        }
        return b.toString();
    }
}
