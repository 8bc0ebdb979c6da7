package dev.toolscout.server;

import java.nio.file.Path;

/** Another engine holds the data directory: nothing was opened or changed; retrying later may work. */
public final class DataDirectoryInUseException extends IllegalStateException {
  private final Path dataDir;

  DataDirectoryInUseException(Path dataDir, String holder) {
    super("data directory " + dataDir + " is in use by " + holder
        + "; give this one its own --data-dir, or stop the other one");
    this.dataDir = dataDir;
  }

  public Path dataDir() {
    return dataDir;
  }
}
