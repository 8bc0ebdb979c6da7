package dev.toolscout.engine.files;

import java.util.Locale;

/**
 * A catalog file could not be loaded. The message names the file, then where in it (a JSON path
 * such as {@code sources[1].actions[3]}, or a line and column for malformed text), the tool when
 * known, the field and the problem:
 *
 * <pre>
 * catalog.yaml: sources[1].actions[3] (gmail__send): description is required and must not be blank
 * </pre>
 *
 * <p>Not retriable: the file has to change (or, for a missing or unreadable file, the path or its
 * permissions).
 */
public final class CatalogFileException extends IllegalArgumentException {
    private final String file;

    CatalogFileException(String file, String detail) {
        this(file, detail, null);
    }

    CatalogFileException(String file, String detail, Throwable cause) {
        super(oneLine(file + ": " + detail), cause);
        this.file = file;
    }

    /** Values quoted from the file may hold line breaks; a message stays one line in logs. */
    private static String oneLine(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c)) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** The file as it was given (a path, or the classpath resource of the demo catalog). */
    public String file() {
        return file;
    }
}
