package dev.toolscout.server.mcp;

import static dev.toolscout.server.mcp.SecurityGateway.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.mcp.McpActions;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 14, item 3 (environment leak): stdio upstreams inherited the gateway's whole environment, and the
 * reference server's {@code get-env} tool returned {@code TOOLSCOUT_SECRET_KEY}. The gateway runs here in its
 * own JVM with that key and another secret in its environment, serving Streamable HTTP; a real MCP client
 * asks the reference server for its environment through the gateway.
 */
@ResourceLock(LogCapture.LOGGERS)
class UpstreamEnvironmentSecurityTest {
    static final String SECRET_KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
    static final String PARENT_ONLY = "parent-only-value-5c1e";

    @TempDir
    Path dir;

    @Test
    void the_reference_servers_get_env_shows_what_it_needs_and_what_its_config_names_but_no_secret_of_ours()
            throws Exception {
        Path servers = dir.resolve("servers.json");
        Files.writeString(servers, """
        {"mcpServers": {"everything": {"command": "node", "args": ["%s", "stdio"],
          "env": {"GIVEN_BY_CONFIG": "given-value"}}}}""".formatted(SecurityGateway.EVERYTHING));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-modules",
                        "jdk.incubator.vector",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.toolscout.server.cli.ToolScoutCli",
                        "serve",
                        "--port",
                        "0",
                        "--servers",
                        servers.toString(),
                        "--servers-wait",
                        "30",
                        "--data-dir",
                        dir.resolve("data").toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("gateway.log").toFile());
        pb.environment().put("TOOLSCOUT_SECRET_KEY", SECRET_KEY);
        pb.environment().put("PARENT_ONLY_SECRET", PARENT_ONLY);
        Process gateway = pb.start();
        try {
            String url = awaitUrl(gateway, dir.resolve("gateway.log"));
            McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(url.replace("/mcp", ""))
                            .endpoint(GatewayHttpServer.ENDPOINT)
                            .build())
                    .requestTimeout(Duration.ofSeconds(60))
                    .build();
            try (client) {
                client.initialize();
                McpSchema.CallToolResult r = client.callTool(SecurityGateway.request(
                        McpActions.CALL, Map.of("server_name", "everything", "tool_name", "get-env")));
                String env = text(r);

                assertThat(r.isError()).as(env).isNotEqualTo(Boolean.TRUE);
                assertThat(env)
                        .contains("\"PATH\"")
                        .contains("\"GIVEN_BY_CONFIG\": \"given-value\"")
                        .doesNotContain("TOOLSCOUT_SECRET_KEY")
                        .doesNotContain(SECRET_KEY)
                        .doesNotContain("PARENT_ONLY_SECRET")
                        .doesNotContain(PARENT_ONLY);
            }
        } finally {
            gateway.destroy();
            if (!gateway.waitFor(20, TimeUnit.SECONDS)) {
                gateway.destroyForcibly();
            }
        }
    }

    /** The gateway's URL, once its log says it listens. */
    static String awaitUrl(Process p, Path log) throws Exception {
        Pattern listening = Pattern.compile("listening on (http://\\S+/mcp)");
        for (int i = 0; i < 1200; i++) {
            String text = Files.exists(log) ? Files.readString(log) : "";
            Matcher m = listening.matcher(text);
            if (m.find()) {
                return m.group(1);
            }
            if (!p.isAlive()) {
                throw new AssertionError("the gateway exited with " + p.exitValue() + ":\n" + text);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the gateway did not start within 120 s:\n" + Files.readString(log));
    }
}
