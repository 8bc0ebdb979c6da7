package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.Principal;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real gateway for the security tests: an engine on a data directory, upstream servers from a servers
 * file, an optional policy and API keys, served over Streamable HTTP by the real Jetty. Clients: the official
 * MCP Java SDK client ({@link #client}) and raw JSON-RPC over {@code java.net.http} ({@link #raw}).
 */
final class SecurityGateway implements AutoCloseable {
    static final Path PEERS = GatewayEndToEndTest.PEERS;
    static final String EVERYTHING = PEERS.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
            .toString();

    final McpRuntime engine;
    final List<UpstreamManager.Registration> registrations;
    final McpGateway gateway;
    final GatewayHttpServer http;

    private SecurityGateway(
            McpRuntime engine,
            List<UpstreamManager.Registration> registrations,
            McpGateway gateway,
            GatewayHttpServer http) {
        this.engine = engine;
        this.registrations = registrations;
        this.gateway = gateway;
        this.http = http;
    }

    /**
     * @param servers the {@code mcpServers} object of a servers file
     * @param policy an access policy file's JSON, or {@code null}
     * @param keys API keys to principals; empty for the local single user
     */
    static SecurityGateway start(Path dir, String servers, String policy, Map<String, Principal> keys)
            throws Exception {
        assertThat(PEERS.resolve("node_modules/@modelcontextprotocol/sdk"))
                .as("npm packages missing: run ./run-tests (it runs npm ci in " + PEERS + ")")
                .isDirectory();
        Path serversFile = dir.resolve("servers.json");
        Files.writeString(serversFile, "{\"mcpServers\": " + servers + "}");
        ToolScout.Builder options = ToolScout.builder().preloadModel(false).dataDir(dir.resolve("data"));
        if (policy != null) {
            Path p = dir.resolve("policy.json");
            Files.writeString(p, policy);
            options.policyFile(p);
        }
        McpRuntime engine;
        // a policy naming the servers' tools is read before the servers are started: that each rule matches nothing
        // yet is said at open
        try (LogCapture log = LogCapture.of("dev.toolscout.engine.LocalToolScout")) {
            engine = McpRuntime.open(options);
            assertThat(log.warnings())
                    .allSatisfy(w -> assertThat(w)
                            .startsWith(dir.resolve("policy.json") + ": rules[")
                            .containsPattern(": '[^']+' matches no known (tool|source)"));
        }
        List<UpstreamManager.Registration> r = engine.start(ServersFile.load(serversFile), Duration.ofSeconds(30));
        McpGateway gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS);
        GatewayHttpServer http = GatewayHttpServer.start(
                gateway,
                keys.isEmpty() ? GatewayAuth.local(Principal.ANONYMOUS) : GatewayAuth.of(keys),
                "127.0.0.1",
                0);
        return new SecurityGateway(engine, r, gateway, http);
    }

    /** A servers-file entry running the reference {@code everything} server over stdio. */
    static String everything() {
        return "{\"command\": \"node\", \"args\": [\"" + EVERYTHING + "\", \"stdio\"]}";
    }

    /** An initialized MCP Java SDK client; {@code key} may be {@code null}. */
    McpSyncClient client(String key) {
        HttpClientStreamableHttpTransport.Builder t = HttpClientStreamableHttpTransport.builder("http://"
                        + http.address().getHostString() + ":" + http.address().getPort())
                .endpoint(GatewayHttpServer.ENDPOINT);
        if (key != null) {
            t.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key));
        }
        McpSyncClient c = McpClient.sync(t.build())
                .requestTimeout(Duration.ofSeconds(60))
                .clientInfo(
                        McpSchema.Implementation.builder("security-test", "1").build())
                .build();
        c.initialize();
        return c;
    }

    /** An initialized session spoken in raw JSON-RPC over HTTP, so that tests see the exact bytes. */
    Raw raw(String key) throws IOException, InterruptedException {
        Raw r = new Raw(URI.create(http.url()), key, null);
        HttpResponse<String> init = r.post(
                "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        String session = init.headers().firstValue("mcp-session-id").orElseThrow();
        Raw s = new Raw(r.url, key, session);
        assertThat(s.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                        .statusCode())
                .isEqualTo(202);
        return s;
    }

    /** Raw HTTP to the gateway, with the headers a Streamable HTTP client sends. */
    record Raw(URI url, String key, String session) {
        static final HttpClient HTTP = HttpClient.newHttpClient();

        HttpResponse<String> post(String body) throws IOException, InterruptedException {
            return send(builder()
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
        }

        HttpRequest.Builder builder() {
            HttpRequest.Builder b = HttpRequest.newBuilder(url)
                    .timeout(Duration.ofSeconds(60))
                    .header("Accept", "application/json, text/event-stream");
            if (key != null) {
                b.header("Authorization", "Bearer " + key);
            }
            if (session != null) {
                b.header("mcp-session-id", session);
            }
            return b;
        }

        HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        /** A {@code tools/call} request with id 7. */
        HttpResponse<String> call(String tool, String argumentsJson) throws IOException, InterruptedException {
            return post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                    + "\",\"arguments\":" + argumentsJson + "}}");
        }
    }

    /** A tools/call request. */
    static McpSchema.CallToolRequest request(String tool, Map<String, Object> arguments) {
        return McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
    }

    /** The text of a tool result. */
    static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        r.content().forEach(c -> sb.append(c instanceof McpSchema.TextContent t ? t.text() : ""));
        return sb.toString();
    }

    @Override
    public void close() {
        http.close();
        gateway.close();
        engine.close();
    }
}
