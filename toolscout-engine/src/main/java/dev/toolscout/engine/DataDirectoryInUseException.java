package dev.toolscout.engine;

import java.nio.file.Path;

/**
 * Another engine holds the data directory: nothing was opened or changed; retrying later may work, and {@link
 * ToolScout.Builder#readOnly} reads it meanwhile.
 */
public final class DataDirectoryInUseException extends IllegalStateException {
    private final Path dataDir;
    private final String holder;

    /**
     * @param holder who holds it, e.g. {@code "an engine in this process (pid 42)"}
     */
    public DataDirectoryInUseException(Path dataDir, String holder) {
        super("data directory " + dataDir + " is in use by " + holder
                + "; give this one its own --data-dir, or stop the other one");
        this.dataDir = dataDir;
        this.holder = holder;
    }

    /** The data directory that is in use. */
    public Path dataDir() {
        return dataDir;
    }

    /** Who holds it, as far as known: {@code "another process (pid 42, since 2026-01-01T10:00:00Z)"}, say. */
    public String holder() {
        return holder;
    }
}
