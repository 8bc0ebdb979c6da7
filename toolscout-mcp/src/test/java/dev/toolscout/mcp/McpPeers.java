package dev.toolscout.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.mcp.upstream.ServerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The real MCP peers the tests run: the reference servers from npm and the fault servers beside them, in
 * {@code src/test/node} (installed by {@code npm ci} there; {@code .ci/run} does it).
 */
public final class McpPeers {
    public static final Path DIR = locate();

    private McpPeers() {}

    private static Path locate() {
        Path dir = Path.of("src/test/node").toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            dir = Path.of("toolscout-mcp/src/test/node").toAbsolutePath();
        }
        return dir;
    }

    /** Fails with the fix when the npm packages are not installed. */
    public static void requireInstalled() {
        assertThat(DIR.resolve("node_modules/@modelcontextprotocol/server-everything"))
                .as("the MCP reference servers are not installed: run `npm ci` in " + DIR)
                .isDirectory();
    }

    /** {@code node <script> args...} as a stdio server config. */
    public static ServerConfig node(String name, String script, String... args) {
        requireInstalled();
        List<String> a = new ArrayList<>();
        a.add(DIR.resolve(script).toString());
        a.addAll(List.of(args));
        return ServerConfig.stdio(name, "node", a).withCwd(DIR);
    }

    public static String everything() {
        return "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
    }

    public static String memory() {
        return "node_modules/@modelcontextprotocol/server-memory/dist/index.js";
    }

    public static String filesystem() {
        return "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js";
    }

    /** A free TCP port on loopback. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
