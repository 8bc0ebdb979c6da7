package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the real MCP clients of {@code toolscout-mcp/src/test/node} (the official TypeScript SDK's client:
 * {@code gateway-client.mjs}, {@code script-client.mjs}) to its end and reads the JSON it prints. A client that
 * does not finish in 120 s, or exits non-zero, fails the test with what it wrote to stderr.
 */
public final class NodeClient {
    /** The folder of the node clients and reference servers, installed by {@code ./run-tests} (npm ci). */
    public static final Path PEERS =
            Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();

    private static final ObjectMapper JSON = new ObjectMapper();

    private NodeClient() {}

    /**
     * Runs {@code node PEERS/script args...}, its output and errors in files under {@code tmp}.
     *
     * @return what the client printed, as JSON
     */
    public static JsonNode run(Path tmp, String script, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("node", PEERS.resolve(script).toString()));
        cmd.addAll(args);
        Path out = Files.createTempFile(tmp, "client", ".json");
        Path err = Files.createTempFile(tmp, "client", ".err");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(script + " did not finish; stderr:\n" + Files.readString(err));
        }
        assertThat(p.exitValue())
                .as(script + " failed; stderr:\n" + Files.readString(err))
                .isZero();
        return JSON.readTree(Files.readString(out));
    }

    /**
     * One session of {@code gateway-client.mjs} over Streamable HTTP at {@code url} with {@code key}: finds
     * {@code query}, then calls {@code tool} with {@code args} (a JSON object).
     *
     * @return the call's result ({@code callResult})
     */
    public static JsonNode call(Path tmp, String url, String key, String query, String tool, String args)
            throws Exception {
        return run(
                        tmp,
                        "gateway-client.mjs",
                        List.of(
                                "--http",
                                url,
                                "--header",
                                "Authorization: Bearer " + key,
                                "--query",
                                query,
                                "--wait-ms",
                                "0",
                                "--call",
                                tool,
                                "--args",
                                args))
                .path("callResult");
    }

    /** The text of a tool result's content, joined. */
    public static String text(JsonNode callResult) {
        StringBuilder sb = new StringBuilder();
        callResult.path("content").forEach(c -> sb.append(c.path("text").asText()));
        return sb.toString();
    }
}
