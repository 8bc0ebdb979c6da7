package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.testing.LogCapture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The gateway driven by a real MCP client that is not ours: a script on the official TypeScript SDK client
 * ({@code toolscout-mcp/src/test/node/gateway-client.mjs}). It initializes, lists tools, calls
 * tool_discovery__find, waits for tools/list_changed, lists again and calls a found upstream tool, over stdio
 * (the gateway in its own process, as Claude Desktop runs it) and over Streamable HTTP.
 */
@ResourceLock(LogCapture.LOGGERS)
class GatewayEndToEndTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path PEERS =
            Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();

    @TempDir
    static Path tmp;

    static Path serversFile;
    static McpRuntime engine;
    static McpGateway gateway;
    static GatewayHttpServer http;
    static GatewayHttpServer keyed;
    static final String ALICE_KEY = "alice-key-0123456789abcdef";
    static final String BOB_KEY = "bob-key-0123456789abcdefgh";

    /**
     * Writes {@code DIR/servers.json} naming the reference servers from npm: {@code everything} (stdio) and
     * {@code kg} (server-memory, its graph in {@code DIR/kg.jsonl}).
     */
    static Path writeReferenceServers(Path dir) throws java.io.IOException {
        Path servers = dir.resolve("servers.json");
        Files.writeString(servers, """
        {"mcpServers": {
          "everything": {"command": "node", "args": ["%s", "stdio"]},
          "kg": {"command": "node", "args": ["%s"], "env": {"MEMORY_FILE_PATH": "%s"}}
        }}""".formatted(
                        PEERS.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
                        PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
                        dir.resolve("kg.jsonl")));
        return servers;
    }

    @BeforeAll
    static void start() throws Exception {
        assertThat(PEERS.resolve("node_modules/@modelcontextprotocol/sdk"))
                .as("npm packages missing: run ./run-tests (it runs npm ci in " + PEERS + ")")
                .isDirectory();
        serversFile = writeReferenceServers(tmp);
        Path policy = tmp.resolve("policy.json");
        Files.writeString(policy, """
        {"rules": [{"effect": "deny", "tool": "everything__get-sum", "user": "bob"}]}""");
        // the policy is read before the upstream lists the tool its rule names: the engine says so once, at open
        try (LogCapture log = LogCapture.of("dev.toolscout.engine.LocalToolScout")) {
            engine = McpRuntime.open(ToolScout.builder()
                    .preloadModel(false)
                    .dataDir(tmp.resolve("http-data"))
                    .policyFile(policy));
            assertThat(log.warnings())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("'everything__get-sum' matches no known tool");
        }
        engine.start(ServersFile.load(serversFile), Duration.ofSeconds(30));
        // one user, no keys: the single-user modes, where the user's own client asks and answers (docs/SECURITY.md)
        gateway = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS)
                .approval(McpGateway.Approval.ELICIT)
                .allowRemoteStdio(true);
        http = GatewayHttpServer.start(gateway, GatewayAuth.local(Principal.ANONYMOUS), "127.0.0.1", 0);
        McpGateway second = new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS);
        keyed = GatewayHttpServer.start(
                second,
                GatewayAuth.of(Map.of(
                        ALICE_KEY, new Principal("alice", null, null), BOB_KEY, new Principal("bob", null, null))),
                "127.0.0.1",
                0);
    }

    @AfterAll
    static void stop() {
        if (keyed != null) {
            keyed.close();
        }
        if (http != null) {
            http.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    static JsonNode client(List<String> transport, String... options) throws Exception {
        List<String> cmd = new ArrayList<>(transport);
        if (transport.get(0).equals("--stdio")) {
            cmd.add("--"); // ends the gateway's command line
        }
        cmd.addAll(List.of(options));
        return NodeClient.run(tmp, "gateway-client.mjs", cmd);
    }

    static List<String> names(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.asText()));
        return out;
    }

    static String text(JsonNode callResult) {
        StringBuilder sb = new StringBuilder();
        callResult.path("content").forEach(c -> sb.append(c.path("text").asText()));
        return sb.toString();
    }

    static List<String> stdioGateway() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(
                "--stdio",
                java,
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules",
                "jdk.incubator.vector",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.toolscout.server.cli.ToolScoutCli",
                "mcp",
                "--servers",
                serversFile.toString(),
                "--data-dir",
                tmp.resolve("stdio-data").toString());
    }

    @Test
    void stdio_gateway_discloses_found_tools_and_calls_reach_the_upstream() throws Exception {
        JsonNode r = client(
                stdioGateway(),
                "--query",
                "add two numbers",
                "--call",
                "everything__get-sum",
                "--args",
                "{\"a\": 2, \"b\": 3}");

        assertThat(r.path("serverInfo").path("name").asText()).isEqualTo("toolscout");
        assertThat(names(r.path("toolsBefore")))
                .contains("tool_discovery__find", "tool_discovery__describe", "mcp__call_tool", "mcp__list_servers")
                .doesNotContain("everything__get-sum");
        assertThat(text(r.path("findResult"))).contains("everything__get-sum");
        assertThat(r.path("listChangedAfterFind").asInt()).isPositive();
        assertThat(names(r.path("toolsAfter"))).contains("everything__get-sum");
        assertThat(r.path("callResult").path("isError").asBoolean(false)).isFalse();
        assertThat(text(r.path("callResult"))).contains("The sum of 2 and 3 is 5");
    }

    @Test
    void http_gateway_discloses_found_tools_and_calls_reach_the_upstream() throws Exception {
        JsonNode r = client(
                List.of("--http", http.url()),
                "--query",
                "store entities in a knowledge graph",
                "--call",
                "kg__create_entities",
                "--args",
                "{\"entities\": [{\"name\": \"Grace\", \"entityType\": \"person\", "
                        + "\"observations\": [\"invented the compiler\"]}]}");

        assertThat(names(r.path("toolsBefore")))
                .contains("tool_discovery__find")
                .doesNotContain("kg__create_entities");
        assertThat(r.path("listChangedAfterFind").asInt()).isPositive();
        assertThat(names(r.path("toolsAfter"))).contains("kg__create_entities");
        assertThat(r.path("callResult").path("isError").asBoolean(false)).isFalse();
        assertThat(text(r.path("callResult"))).contains("Grace");
    }

    @Test
    void http_call_through_reaches_the_upstream_by_server_and_tool_name() throws Exception {
        JsonNode r = client(
                List.of("--http", http.url()),
                "--query",
                "echo a message",
                "--call",
                "mcp__call_tool",
                "--args",
                "{\"server_name\": \"everything\", \"tool_name\": \"echo\", \"params\": {\"message\": \"via gateway\"}}");

        assertThat(text(r.path("callResult"))).contains("via gateway");
    }

    @Test
    void each_session_sees_only_what_it_found() throws Exception {
        client(List.of("--http", http.url()), "--query", "add two numbers");

        JsonNode fresh = client(List.of("--http", http.url()), "--query", "echo a message back");
        assertThat(names(fresh.path("toolsBefore"))).doesNotContain("everything__get-sum", "everything__echo");
        assertThat(names(fresh.path("toolsAfter"))).contains("everything__echo");
    }

    @Test
    void an_api_key_is_a_principal_and_a_denied_tool_is_never_shown_or_run() throws Exception {
        JsonNode alice = client(
                List.of("--http", keyed.url(), "--header", "Authorization: Bearer " + ALICE_KEY),
                "--query",
                "add two numbers",
                "--call",
                "everything__get-sum",
                "--args",
                "{\"a\": 1, \"b\": 1}");
        assertThat(text(alice.path("callResult"))).contains("The sum of 1 and 1 is 2");

        JsonNode bob = client(
                List.of("--http", keyed.url(), "--header", "Authorization: Bearer " + BOB_KEY),
                "--query",
                "add two numbers",
                "--call",
                "mcp__call_tool",
                "--args",
                "{\"server_name\": \"everything\", \"tool_name\": \"get-sum\", \"params\": {\"a\": 1, \"b\": 1}}");
        assertThat(text(bob.path("findResult"))).doesNotContain("get-sum");
        assertThat(names(bob.path("toolsAfter"))).doesNotContain("everything__get-sum");
        assertThat(bob.path("callResult").path("isError").asBoolean()).isTrue();
        assertThat(text(bob.path("callResult"))).isEqualTo("Tool not found: everything/get-sum");
    }

    @Test
    void a_destructive_upstream_tool_runs_only_after_the_user_approves_it_through_the_client() throws Exception {
        String entity = "{\"entities\": [{\"name\": \"Temp\", \"entityType\": \"note\", \"observations\": []}]}";
        client(
                List.of("--http", http.url()),
                "--query",
                "create entities",
                "--call",
                "kg__create_entities",
                "--args",
                entity);
        String delete = "{\"entityNames\": [\"Temp\"]}";

        JsonNode noElicitation = client(
                List.of("--http", http.url()),
                "--query",
                "delete entities from the graph",
                "--call",
                "kg__delete_entities",
                "--args",
                delete);
        assertThat(noElicitation.path("callResult").path("isError").asBoolean()).isTrue();
        assertThat(text(noElicitation.path("callResult")))
                .contains("kg__delete_entities needs the user's approval before it runs (ai_access: propose");

        JsonNode declined = client(
                List.of("--http", http.url(), "--elicit", "decline"),
                "--query",
                "delete entities from the graph",
                "--call",
                "kg__delete_entities",
                "--args",
                delete);
        assertThat(names(declined.path("elicitations")))
                .singleElement()
                .asString()
                .contains("Allow kg__delete_entities");
        assertThat(declined.path("callResult").path("isError").asBoolean()).isTrue();

        JsonNode approved = client(
                List.of("--http", http.url(), "--elicit", "accept"),
                "--query",
                "delete entities from the graph",
                "--call",
                "kg__delete_entities",
                "--args",
                delete);
        assertThat(approved.path("callResult").path("isError").asBoolean(false)).isFalse();
        assertThat(text(approved.path("callResult"))).containsIgnoringCase("deleted");
    }

    @Test
    void mcp_register_server_is_proposed_and_registers_once_the_user_approves() throws Exception {
        String memory = PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js")
                .toString();
        String args = "{\"name\": \"Notes Graph\", \"endpoint\": \"node " + memory + "\"}";

        JsonNode unapproved = client(
                List.of("--http", http.url()),
                "--query",
                "install an MCP server",
                "--call",
                "mcp__register_server",
                "--args",
                args);
        assertThat(unapproved.path("callResult").path("isError").asBoolean()).isTrue();
        assertThat(text(unapproved.path("callResult")))
                .contains("needs the user's approval")
                .contains("toolscout mcp add");
        assertThat(engine.registry().manager().status("Notes Graph")).isEmpty();

        JsonNode approved = client(
                List.of("--http", http.url(), "--elicit", "accept"),
                "--query",
                "install an MCP server",
                "--call",
                "mcp__register_server",
                "--args",
                args);
        assertThat(text(approved.path("callResult")))
                .contains("\"status\":\"ready\"")
                .contains("notes_graph");
        assertThat(engine.scout().gatewayParts().catalog().get("notes_graph__read_graph"))
                .isPresent();

        JsonNode listed = client(
                List.of("--http", http.url()), "--query", "which MCP servers are there", "--call", "mcp__list_servers");
        assertThat(text(listed.path("callResult"))).contains("Notes Graph").contains("everything");
        assertThat(engine.registry().remove("Notes Graph")).isTrue();
    }

    @Test
    void a_request_without_a_known_key_is_refused() throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(keyed.url()))
                                .header("Content-Type", "application/json")
                                .header("Accept", "application/json, text/event-stream")
                                .header("Authorization", "Bearer not-a-real-key-000000000")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("unknown API key").doesNotContain("not-a-real-key");
    }
}
