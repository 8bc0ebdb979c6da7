package dev.toolscout.store;

import java.nio.file.Path;
import java.sql.SQLException;

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

    /**
     * Whether the store's server could not be reached or refused the connection: a cause with SQLSTATE class 08
     * (connection exception: no server at the address, SSL refused, connection lost), 28 (invalid authorization) or
     * 3D (no such database). The user fixes these in the address or on the server; the message names the store, the
     * operation and the cause, which is all a user can act on (a caller may leave out the stack trace).
     */
    public boolean connectionFailed() {
        for (Throwable t = getCause(); t != null; t = t.getCause()) {
            if (t instanceof SQLException e && e.getSQLState() != null) {
                String state = e.getSQLState();
                if (state.startsWith("08") || state.startsWith("28") || state.startsWith("3D")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The store file, or {@code null} for a store that is not a file. */
    public Path file() {
        return file;
    }
}
