package dev.toolscout.agent.openapi;

import java.util.Locale;

/**
 * An OpenAPI document could not be imported. The message names the file, where in it (a JSON path such as
 * {@code paths./pets/{petId}.get}), the rule and the bad value:
 *
 * <pre>
 * petstore.yaml: paths: holds 2,417 operations, more than the limit of 2,000
 * </pre>
 *
 * <p>Not retriable: the document (or the options) has to change. Nothing was stored.
 */
public final class OpenApiImportException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    OpenApiImportException(String file, String detail) {
        this(file, detail, null);
    }

    OpenApiImportException(String file, String detail, Throwable cause) {
        super(oneLine(file + ": " + detail), cause);
    }

    /** Values quoted from the document may hold line breaks; a message stays one line in logs. */
    private static String oneLine(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}
