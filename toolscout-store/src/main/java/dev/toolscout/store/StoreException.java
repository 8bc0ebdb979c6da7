package dev.toolscout.store;

import java.nio.file.Path;

/**
 * The database under a state store failed: the file cannot be opened or created, the disk is full, another
 * process holds the lock past the busy timeout. The message names the store file and the operation. Whether
 * a retry helps depends on the cause (a lock may clear, a corrupt file will not); stored data that the code
 * cannot read is an {@link IllegalStateException} instead.
 */
public final class StoreException extends RuntimeException {
  private final transient Path file;

  public StoreException(Path file, String operation, Throwable cause) {
    super("state store " + file + ": cannot " + operation + ": " + cause.getMessage(), cause);
    this.file = file;
  }

  /** The store file. */
  public Path file() {
    return file;
  }
}
