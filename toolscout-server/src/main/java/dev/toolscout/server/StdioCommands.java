package dev.toolscout.server;

import dev.toolscout.mcp.upstream.ServerConfig;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Whether a stdio server's command can be started at all, checked before it is: a missing command otherwise
 * surfaces as a connect failure, retried with backoff, and logged by the MCP SDK with a long stack trace,
 * where one line naming the command is what a user needs.
 */
public final class StdioCommands {
    private StdioCommands() {}

    /**
     * Why {@code c}'s command cannot run (not found on PATH, or a path that is not an executable file), or
     * {@code null} when it can, or when {@code c} is not a stdio server.
     */
    public static String problem(ServerConfig c) {
        if (c.transport() != ServerConfig.Transport.STDIO || c.command() == null) {
            return null;
        }
        String cmd = c.command();
        try {
            if (cmd.contains("/")) {
                Path p = Path.of(cmd);
                if (!p.isAbsolute() && c.cwd() != null) {
                    p = c.cwd().resolve(p);
                }
                return Files.isRegularFile(p) && Files.isExecutable(p)
                        ? null
                        : "command '" + cmd + "' is not an executable file";
            }
            String path =
                    c.env() != null && c.env().get("PATH") != null ? c.env().get("PATH") : System.getenv("PATH");
            if (path != null) {
                for (String dir : path.split(File.pathSeparator)) {
                    if (dir.isEmpty()) {
                        continue;
                    }
                    Path p = Path.of(dir, cmd);
                    if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                        return null;
                    }
                }
            }
            return "command '" + cmd + "' was not found on PATH";
        } catch (InvalidPathException e) {
            return "command '" + cmd + "' is not a valid path: " + e.getReason();
        }
    }
}
