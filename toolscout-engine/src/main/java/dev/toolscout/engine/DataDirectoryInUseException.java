package dev.toolscout.engine;

import java.nio.file.Path;

/** Another engine holds the data directory: nothing was opened or changed; retrying later may work. */
public final class DataDirectoryInUseException extends IllegalStateException {
  private final Path dataDir;

  /**
   * @param holder who holds it, e.g. {@code "an engine in this process (pid 42)"}
   */
  public DataDirectoryInUseException(Path dataDir, String holder) {
    super("data directory " + dataDir + " is in use by " + holder
        + "; give this one its own --data-dir, or stop the other one");
    this.dataDir = dataDir;
  }

  /** The data directory that is in use. */
  public Path dataDir() {
    return dataDir;
  }
}
