package dev.toolscout.store;

import java.nio.file.Path;

/**
 * The database under a state store failed: the file cannot be opened or created, the disk is full, another
 * process holds the lock past the busy timeout, the PostgreSQL server cannot be reached. The message names the
 * store (file or address) and the operation. Whether
 * a retry helps depends on the cause (a lock may clear, a corrupt file will not); stored data that the code
 * cannot read is an {@link IllegalStateException} instead.
 */
public final class StoreException extends RuntimeException {
    private final transient Path file;

    public StoreException(Path file, String operation, Throwable cause) {
        super("state store " + file + ": cannot " + operation + ": " + cause.getMessage(), cause);
        this.file = file;
    }

    /**
     * A store that is not a file (PostgreSQL): {@code where} names it (its address, without a password).
     */
    public StoreException(String where, String operation, Throwable cause) {
        super("state store " + where + ": cannot " + operation + ": " + cause.getMessage(), cause);
        this.file = null;
    }

    /** The store file, or {@code null} for a store that is not a file. */
    public Path file() {
        return file;
    }
}
