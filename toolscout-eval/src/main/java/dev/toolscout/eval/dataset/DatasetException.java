package dev.toolscout.eval.dataset;

import java.nio.file.Path;

/**
 * A dataset file that is missing or cannot be understood. The message starts with {@code file:line:} (line
 * 0 when the problem is the whole file), then says what is wrong and with which value. Bad input, so an
 * {@link IllegalArgumentException}: the command line reports it as such (exit code 2, no stack trace).
 */
public final class DatasetException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;

    public DatasetException(Path file, int line, String problem) {
        this(file, line, problem, null);
    }

    public DatasetException(Path file, int line, String problem, Throwable cause) {
        super(file + ":" + line + ": " + problem, cause);
        this.file = file;
        this.line = line;
    }

    /** The file at fault. */
    public Path file() {
        return file;
    }

    /** The 1-based line at fault, or 0 when the problem is the whole file (missing, unreadable). */
    public int line() {
        return line;
    }
}
