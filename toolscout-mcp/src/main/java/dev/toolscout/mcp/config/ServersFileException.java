package dev.toolscout.mcp.config;

import java.nio.file.Path;

/**
 * A servers file that cannot be used: missing, not JSON, or a server in it that is invalid. Not retriable;
 * the message names the file, the JSON path ({@code mcpServers.github.args[2]}), the rule and the bad value,
 * so the user can fix the file.
 */
public final class ServersFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String jsonPath;

    /**
     * @param jsonPath where in the file, e.g. {@code mcpServers.github.env.TOKEN}; empty for the whole file
     * @param problem the rule broken and the bad value
     */
    public ServersFileException(Path file, String jsonPath, String problem) {
        this(file, jsonPath, problem, null);
    }

    public ServersFileException(Path file, String jsonPath, String problem, Throwable cause) {
        super("servers file " + file + ": " + (jsonPath.isEmpty() ? "" : jsonPath + ": ") + problem, cause);
        this.file = file;
        this.jsonPath = jsonPath;
    }

    /** The file, as given to {@link ServersFile#load}. */
    public Path file() {
        return file;
    }

    /** Where in the file the problem is; empty when it concerns the whole file. */
    public String jsonPath() {
        return jsonPath;
    }
}
