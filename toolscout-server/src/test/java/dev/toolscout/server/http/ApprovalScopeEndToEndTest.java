package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.FakeProvider;
import dev.toolscout.agent.ProviderConfig;
import dev.toolscout.agent.Providers;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpActions;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.McpToolExecutor;
import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SourceKind;
import dev.toolscout.secret.SecretRules;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.server.mcp.NodeClient;
import dev.toolscout.testing.LogCapture;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 30 item 2, as an attacker tried it: an approval is for exactly the call that was asked. Over the real
 * gateway (Streamable HTTP, the official TypeScript SDK client {@code gateway-client.mjs}), the real
 * {@code /v1} routes (the approval queue is {@code /v1/approvals}) with API keys, the agent loop on recorded Anthropic fixtures
 * ({@link FakeProvider}) and the real {@code memory} MCP server as {@code kg}, whose {@code delete_entities} is
 * a destructive tool that needs approval. Before the fix an approval matched the arguments after redaction: it
 * ran the call with another token, it ran an agent-loop call, and two different calls shared one request.
 */
@ResourceLock(LogCapture.LOGGERS)
class ApprovalScopeEndToEndTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ALICE = "alice-user-key-0123456789";
    static final String ROOT = "root-admin-key-012345678";
    static final Path PEERS =
            Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();
    static final Pattern REQUEST_ID = Pattern.compile("Approval request (ap-[0-9a-f]{10})");

    @TempDir
    static Path tmp;

    static Path dataDir;
    static FakeProvider fake;
    static McpRuntime rt;
    static GatewayHttpServer http;
    static ApiClient client;

    /** The approval requests the gateway and the agent log for the operator, over the whole class. */
    static LogCapture gatewayLog;

    static LogCapture agentLog;
    /** The line an approval request logs for the operator (as ApprovalsEndToEndTest checks it). */
    static final String APPROVAL_LOGGED = "approval request (ap-[0-9a-f]{10}): key:\\w+ asks to run \\S+"
            + "( \\(agent run run-[0-9a-f]+\\))?; decide with `toolscout approvals approve \\1` or `deny \\1`";

    @BeforeAll
    static void start() throws Exception {
        gatewayLog = LogCapture.of(McpGateway.class);
        agentLog = LogCapture.of(Agent.class);
        Path servers = tmp.resolve("servers.json");
        Files.writeString(servers, """
        {"mcpServers": {"kg": {"command": "node", "args": ["%s"], "env": {"MEMORY_FILE_PATH": "%s"}}}}""".formatted(
                        PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
                        tmp.resolve("kg.jsonl")));
        dataDir = tmp.resolve("data");
        fake = new FakeProvider();
        rt = McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(dataDir));
        rt.start(ServersFile.load(servers), Duration.ofSeconds(60));
        ProviderConfig config = new ProviderConfig(
                ProviderConfig.Kind.ANTHROPIC, "claude-sonnet-4-5", fake.baseUrl(), "sk-ant-test", null, 2, 1024, true);
        McpToolExecutor mcp = new McpToolExecutor(rt.actions());
        Agent agent = Agent.builder(rt.scout(), Providers.of(config))
                .executor(SourceKind.MCP, mcp)
                .tools(
                        McpActions.specs().stream()
                                .filter(s -> McpToolExecutor.ACTIONS.contains(s.fullName()))
                                .toList(),
                        mcp)
                .build();
        GatewayAuth auth = GatewayAuth.withRoles(Map.of(
                ALICE, new GatewayAuth.Key(new Principal("alice", null, null), Role.USER),
                ROOT, new GatewayAuth.Key(new Principal("root", null, null), Role.ADMIN)));
        HttpApi api = new HttpApi(auth, HttpApi.Options.DEFAULT);
        http = GatewayHttpServer.start(
                new McpGateway(rt.scout(), rt.actions(), Principal.ANONYMOUS), auth, "127.0.0.1", 0, api);
        api.open(new ApiBackend(rt.scout(), rt.registry(), agent));
        client = new ApiClient(
                http.baseUrl(), ALICE, new OpenApiContract(new String(api.openApiDocument(), StandardCharsets.UTF_8)));
    }

    @AfterAll
    static void stop() {
        try {
            if (http != null) {
                http.close();
            }
        } finally {
            if (rt != null) {
                rt.close();
            }
            if (fake != null) {
                fake.close();
            }
            gatewayLog.close();
            agentLog.close();
        }
        assertThat(gatewayLog.warnings())
                .isNotEmpty()
                .allSatisfy(w -> assertThat(w).matches(APPROVAL_LOGGED));
        assertThat(agentLog.warnings())
                .isNotEmpty()
                .allSatisfy(w -> assertThat(w).matches(APPROVAL_LOGGED));
    }

    /** One MCP client session with {@code key} on the gateway: calls {@code tool} with {@code args}. */
    static JsonNode mcpCall(String key, String tool, String args) throws Exception {
        return NodeClient.call(tmp, http.url(), key, "delete entities", tool, args);
    }

    static String text(JsonNode callResult) {
        return NodeClient.text(callResult);
    }

    /** The approval request id a held call names; fails when the call was not held. */
    static String heldId(JsonNode callResult) {
        Matcher m = REQUEST_ID.matcher(text(callResult));
        assertThat(m.find()).as("the call was held, got: " + text(callResult)).isTrue();
        return m.group(1);
    }

    static void createEntity(String name) throws Exception {
        mcpCall(
                ALICE,
                "kg__create_entities",
                "{\"entities\": [{\"name\": \"" + name + "\", \"entityType\": \"note\", \"observations\": []}]}");
    }

    static String graph() throws Exception {
        return text(mcpCall(ALICE, "kg__read_graph", "{}"));
    }

    static String deleteWithToken(String entity, String token) throws Exception {
        return JSON.writeValueAsString(Map.of("entityNames", List.of(entity), "token", token));
    }

    /** {@code POST /v1/approvals/{id}} with {@code decision} (approve or deny), as {@code key}. */
    static HttpResponse<String> decide(String id, String decision, String key) {
        return client.as(key).post("/v1/approvals/" + id, "{\"decision\": \"" + decision + "\"}");
    }

    static JsonNode listed(String id) throws Exception {
        JsonNode all = ApiClient.json(client.as(ROOT).get("/v1/approvals?all=true"));
        for (JsonNode a : all.path("approvals")) {
            if (a.path("id").asText().equals(id)) {
                return a;
            }
        }
        throw new AssertionError("approval " + id + " is not listed: " + all);
    }

    @Test
    void an_approval_for_one_token_never_runs_the_call_with_another() throws Exception {
        createEntity("Sessions");
        String alices = heldId(mcpCall(ALICE, "kg__delete_entities", deleteWithToken("Sessions", "session-of-alice")));
        HttpResponse<String> approved = decide(alices, "approve", ROOT);
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);

        JsonNode other = mcpCall(ALICE, "kg__delete_entities", deleteWithToken("Sessions", "ALL-SESSIONS"));

        assertThat(text(other)).contains("needs approval and was not run");
        assertThat(heldId(other)).isNotEqualTo(alices);
        assertThat(graph()).contains("Sessions");
        assertThat(rt.scout().approvals().get(alices).status()).isEqualTo(ApprovalStatus.APPROVED);
    }

    @Test
    void two_different_calls_get_two_requests_that_the_approver_can_tell_apart() throws Exception {
        createEntity("Twice");
        String first = heldId(mcpCall(ALICE, "kg__delete_entities", deleteWithToken("Twice", "tok-first-0000000001")));
        String second = heldId(mcpCall(ALICE, "kg__delete_entities", deleteWithToken("Twice", "tok-second-000000002")));

        HttpResponse<String> shown = client.as(ROOT).get("/v1/approvals");
        JsonNode a = listed(first);
        JsonNode b = listed(second);

        assertThat(second).isNotEqualTo(first);
        assertThat(a.path("arguments").path("token").asText())
                .isEqualTo(SecretRules.mask("tok-first-0000000001"))
                .endsWith(Hashing8.of("tok-first-0000000001") + "]")
                .contains("…0001");
        assertThat(b.path("arguments").path("token").asText()).isEqualTo(SecretRules.mask("tok-second-000000002"));
        assertThat(a.path("channel").asText()).isEqualTo("gateway");
        assertThat(shown.body()).contains(first, second).doesNotContain("tok-first-0000000001", "tok-second-000000002");
        // nor does the store hold them in clear (the match key is a digest)
        List<Path> files;
        try (Stream<Path> s = Files.list(dataDir)) {
            files = s.filter(f -> f.getFileName().toString().startsWith("state.db"))
                    .toList();
        }
        assertThat(files).isNotEmpty();
        for (Path f : files) {
            assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                    .as(f.toString())
                    .doesNotContain("tok-first-0000000001", "tok-second-000000002");
        }
    }

    @Test
    void an_approval_given_on_the_gateway_does_not_run_the_same_call_in_the_agent_loop() throws Exception {
        createEntity("Crossing");
        String args = deleteWithToken("Crossing", "session-of-alice");
        String onGateway = heldId(mcpCall(ALICE, "kg__delete_entities", args));
        assertThat(decide(onGateway, "approve", ROOT).statusCode()).isEqualTo(200);

        fake.toolCall("anthropic", "kg__delete_entities", args).text("anthropic", "Deleted.");
        HttpResponse<String> r = client.post(
                "/v1/conversations/cross-channel/messages",
                "{\"message\": \"Delete the entity Crossing from the knowledge graph\"}");
        JsonNode run = ApiClient.json(r);

        assertThat(run.path("status").asText()).as(r.body()).isEqualTo("awaiting_approval");
        String inLoop = run.path("approval").path("id").asText();
        assertThat(inLoop).isNotEqualTo(onGateway);
        assertThat(listed(inLoop).path("channel").asText()).isEqualTo("agent");
        assertThat(listed(inLoop).path("scope").asText())
                .isEqualTo(run.path("run_id").asText());
        assertThat(graph()).contains("Crossing");
        assertThat(rt.scout().approvals().get(onGateway).status()).isEqualTo(ApprovalStatus.APPROVED);
        // withdrawn by its requester, a user key, so the conversation can go on
        HttpResponse<String> withdrawn = client.post("/v1/approvals/" + inLoop, "{\"decision\": \"deny\"}");
        assertThat(withdrawn.statusCode()).as(withdrawn.body()).isEqualTo(200);
    }

    @Test
    void a_requester_withdraws_its_own_request_and_cannot_touch_another_s() throws Exception {
        createEntity("Withdrawn");
        String alices = heldId(mcpCall(ALICE, "kg__delete_entities", "{\"entityNames\": [\"Withdrawn\"]}"));
        String roots = heldId(mcpCall(ROOT, "kg__delete_entities", "{\"entityNames\": [\"Withdrawn\"]}"));

        HttpResponse<String> own = decide(alices, "deny", ALICE);
        HttpResponse<String> others = decide(roots, "deny", ALICE);
        HttpResponse<String> missing = decide("ap-0000000000", "deny", ALICE);
        HttpResponse<String> approveOwn = decide(alices, "approve", ALICE);

        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        assertThat(JSON.readTree(own.body()).path("status").asText()).isEqualTo("denied");
        assertThat(JSON.readTree(own.body()).path("decided_by").asText()).isEqualTo("key:alice");
        assertThat(others.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(missing.body()).path("detail").asText()).contains("ap-0000000000");
        assertThat(JSON.readTree(others.body()).path("detail").asText())
                .isEqualTo(JSON.readTree(missing.body()).path("detail").asText().replace("ap-0000000000", roots));
        assertThat(approveOwn.statusCode()).isEqualTo(403);
        assertThat(rt.scout().approvals().get(roots).status()).isEqualTo(ApprovalStatus.PENDING);
    }

    @Test
    void a_propose_tool_reached_through_call_tool_in_the_loop_says_to_call_it_by_name_not_elicitation()
            throws Exception {
        fake.toolCall(
                        "anthropic",
                        "mcp__call_tool",
                        "{\"server_name\": \"kg\", \"tool_name\": \"delete_entities\", \"params\": {\"entityNames\": [\"X\"]}}")
                .text("anthropic", "It needs approval.");
        HttpResponse<String> r = client.post(
                "/v1/conversations/through-call-tool/messages",
                "{\"message\": \"Delete the entity X through mcp__call_tool\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

        List<JsonNode> sent = fake.requests();
        String results = sent.get(sent.size() - 1).path("messages").toString();
        assertThat(results)
                .contains("kg__delete_entities needs approval")
                .contains("Call kg__delete_entities by its own name")
                .doesNotContain("elicitation");
    }

    /** The first 8 hex digits of a value's SHA-256, as a mask shows them. */
    static final class Hashing8 {
        static String of(String v) {
            return dev.toolscout.model.Hashing.sha256Hex(v).substring(0, 8);
        }
    }
}
