package dev.toolscout.server.mcp;

import static dev.toolscout.server.mcp.GatewayEndToEndTest.PEERS;
import static dev.toolscout.server.mcp.GatewayEndToEndTest.names;
import static dev.toolscout.server.mcp.GatewayEndToEndTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.Approvals.Approver;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.server.cli.ToolScoutCli;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.testing.LogCapture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 14 item 1, "a client approves its own request", against the real gateway over Streamable HTTP with a
 * real MCP client (the official TypeScript SDK, {@code gateway-client.mjs}), API keys with roles from a keys
 * file, and the operator's {@code toolscout approvals} command on the same data directory while the gateway
 * runs. Without the fix, a user key ran {@code touch} on the host through {@code mcp__register_server} and the
 * registration was stored; now nothing runs, nothing is stored, and a request is approved only by someone else.
 */
@ResourceLock(LogCapture.LOGGERS)
class ApprovalsEndToEndTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ALICE = "alice-user-key-0123456789";
    static final String ROOT = "root-admin-key-0123456789";
    static final String RITA = "rita-reader-key-012345678";
    static final Pattern REQUEST_ID = Pattern.compile("Approval request (ap-[0-9a-f]{10})");

    @TempDir
    static Path tmp;

    static Path dataDir;
    static McpRuntime engine;
    static GatewayHttpServer gateway;
    static GatewayHttpServer stdioAllowed;
    /** The approval requests the gateway logs for the operator, over the whole class (the gateway is shared). */
    static LogCapture approvalLog;

    /**
     * The line an approval request logs for the operator: who asks to run what (in which agent run), and the
     * commands that decide it.
     */
    static final String APPROVAL_LOGGED = "approval request (ap-[0-9a-f]{10}): key:\\w+ asks to run \\S+"
            + "( \\(agent run run-[0-9a-f]+\\))?; decide with `toolscout approvals approve \\1` or `deny \\1`";

    @BeforeAll
    static void start() throws Exception {
        approvalLog = LogCapture.of(McpGateway.class);
        Path servers = GatewayEndToEndTest.writeReferenceServers(tmp);
        Path keys = tmp.resolve("keys.json");
        // alice names no role: the default, user
        Files.writeString(keys, """
        {"keys": [
          {"key": "%s", "user": "alice"},
          {"key": "%s", "user": "root", "role": "admin"},
          {"key": "%s", "user": "rita", "role": "Reader"}
        ]}""".formatted(ALICE, ROOT, RITA));
        dataDir = tmp.resolve("data");
        engine = McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(dataDir));
        engine.start(ServersFile.load(servers), Duration.ofSeconds(30));
        GatewayAuth auth = GatewayAuth.load(keys);
        // with the HTTP API open: its /v1/approvals is the approval queue over HTTP
        HttpApi api = new HttpApi(auth, HttpApi.Options.DEFAULT);
        gateway = GatewayHttpServer.start(
                new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS), auth, "127.0.0.1", 0, api);
        api.open(new ApiBackend(engine.scout(), engine.registry()));
        stdioAllowed = GatewayHttpServer.start(
                new McpGateway(engine.scout(), engine.actions(), Principal.ANONYMOUS).allowRemoteStdio(true),
                auth,
                "127.0.0.1",
                0);
    }

    @AfterAll
    static void stop() {
        try {
            for (AutoCloseable c : new AutoCloseable[] {stdioAllowed, gateway, engine}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            assertThat(approvalLog.warnings())
                    .isNotEmpty()
                    .allSatisfy(w -> assertThat(w).matches(APPROVAL_LOGGED));
        } finally {
            approvalLog.close();
        }
    }

    /** One client session with {@code key} on {@code server}: find {@code query}, then call {@code tool}. */
    static JsonNode call(GatewayHttpServer server, String key, String query, String tool, String args)
            throws Exception {
        return call(server, key, query, tool, args, false);
    }

    /**
     * As above; with {@code acceptsOwnApproval} the client declares elicitation and accepts every approval it is
     * asked for, as the attacker's client did when the gateway asked the client that made the call.
     */
    static JsonNode call(
            GatewayHttpServer server, String key, String query, String tool, String args, boolean acceptsOwnApproval)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "--http",
                server.url(),
                "--header",
                "Authorization: Bearer " + key,
                "--query",
                query,
                "--wait-ms",
                "0"));
        if (acceptsOwnApproval) {
            cmd.addAll(List.of("--elicit", "accept"));
        }
        if (tool != null) {
            cmd.addAll(List.of("--call", tool, "--args", args));
        }
        return NodeClient.run(tmp, "gateway-client.mjs", cmd);
    }

    record Cli(int code, String out, String err) {}

    /** The operator's command line on the gateway's data directory, in this JVM. */
    static Cli cli(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--data-dir", dataDir.toString()));
        int code = ToolScoutCli.run(all.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true));
        return new Cli(code, o.toString(), e.toString());
    }

    static String requestId(JsonNode r) {
        Matcher m = REQUEST_ID.matcher(text(r.path("callResult")));
        assertThat(m.find())
                .as("a request id in: " + text(r.path("callResult")))
                .isTrue();
        return m.group(1);
    }

    static String registerArgs(String name, String endpoint) throws Exception {
        return JSON.writeValueAsString(java.util.Map.of("name", name, "endpoint", endpoint));
    }

    @Test
    void a_key_holder_cannot_run_a_command_on_the_host_through_register_server() throws Exception {
        Path pwned = tmp.resolve("pwned");
        String args = registerArgs("pwn", "touch " + pwned);
        int approvalsBefore = engine.scout().approvals().list().size();

        for (String key : List.of(ALICE, ROOT)) {
            JsonNode r = call(gateway, key, "install an MCP server", "mcp__register_server", args, true);

            assertThat(r.path("elicitations")).isEmpty();
            assertThat(r.path("callResult").path("isError").asBoolean()).isTrue();
            assertThat(text(r.path("callResult")))
                    .contains("mcp__register_server refused: the endpoint is a command line")
                    .contains("'touch'")
                    .contains("does not let remote clients register commands");
        }

        assertThat(pwned).doesNotExist();
        assertThat(engine.registry().manager().status("pwn")).isEmpty();
        assertThat(ServersStored.names(dataDir)).doesNotContain("pwn");
        assertThat(engine.scout().approvals().list()).hasSize(approvalsBefore); // refused outright: nothing to approve
    }

    @Test
    void a_held_registration_runs_once_after_the_operator_approves_it_and_never_before() throws Exception {
        String memory = PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js")
                .toString();
        String args = registerArgs("Approved Notes", "node " + memory);

        JsonNode held = call(stdioAllowed, ALICE, "install an MCP server", "mcp__register_server", args);
        String id = requestId(held);
        assertThat(held.path("callResult").path("isError").asBoolean()).isTrue();
        assertThat(text(held.path("callResult")))
                .contains("needs approval and was not run")
                .contains("requested by key:alice")
                .contains("toolscout approvals approve " + id);
        assertThat(engine.registry().manager().status("Approved Notes")).isEmpty();

        JsonNode again = call(stdioAllowed, ALICE, "install an MCP server", "mcp__register_server", args);
        assertThat(requestId(again)).isEqualTo(id);
        assertThat(engine.registry().manager().status("Approved Notes")).isEmpty();

        Cli listed = cli("approvals", "list", "--format", "json");
        assertThat(listed.code()).as(listed.err()).isZero();
        JsonNode pending = JSON.readTree(listed.out()).path("approvals");
        assertThat(pending.findValuesAsText("id")).contains(id);
        Cli table = cli("approvals", "list");
        assertThat(table.out())
                .contains("ID")
                .contains(id)
                .contains("pending")
                .contains("key:alice")
                .contains("mcp__register_server")
                .contains("CHANNEL")
                .contains("gateway");
        assertThat(pending.findValuesAsText("channel")).contains("gateway");

        Cli approved = cli("approvals", "approve", id, "--as", "ops");
        assertThat(approved.code()).as(approved.err()).isZero();
        assertThat(approved.out()).contains("approved " + id).contains("requested by key:alice");

        JsonNode runs = call(stdioAllowed, ALICE, "install an MCP server", "mcp__register_server", args);
        assertThat(text(runs.path("callResult")))
                .contains("\"status\":\"ready\"")
                .contains("approved_notes");
        assertThat(engine.scout().gatewayParts().catalog().get("approved_notes__read_graph"))
                .isPresent();
        assertThat(engine.scout().approvals().get(id).status()).isEqualTo(ApprovalStatus.USED);
        assertThat(engine.scout().approvals().get(id).decidedBy()).isEqualTo("cli:ops");

        JsonNode once = call(stdioAllowed, ALICE, "install an MCP server", "mcp__register_server", args);
        assertThat(requestId(once)).isNotEqualTo(id);
        assertThat(engine.registry().remove("Approved Notes")).isTrue();
    }

    @Test
    void the_requester_cannot_approve_its_own_request_even_with_the_admin_role() throws Exception {
        call(
                gateway,
                ROOT,
                "create entities",
                "kg__create_entities",
                "{\"entities\": [{\"name\": \"Keep\", \"entityType\": \"note\", \"observations\": []}]}");
        String delete = "{\"entityNames\": [\"Keep\"]}";

        JsonNode held = call(gateway, ROOT, "delete entities from the graph", "kg__delete_entities", delete, true);
        String id = requestId(held);
        assertThat(held.path("elicitations"))
                .as("the client that asks is never the one asked")
                .isEmpty();

        assertThatThrownBy(() -> engine.scout().approvals().decide(id, true, new Approver("key:root", Role.ADMIN)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was made by 'key:root', who cannot approve it");
        // to a user key another's request is as good as missing
        assertThatThrownBy(() -> engine.scout().approvals().decide(id, true, new Approver("key:alice", Role.USER)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no approval request has the id '" + id + "'");
        JsonNode still = call(gateway, ROOT, "delete entities from the graph", "kg__delete_entities", delete);
        assertThat(requestId(still)).isEqualTo(id);
        JsonNode graph = call(gateway, ROOT, "read the knowledge graph", "kg__read_graph", "{}");
        assertThat(text(graph.path("callResult"))).contains("Keep");
        assertThat(engine.scout().approvals().get(id).status()).isEqualTo(ApprovalStatus.PENDING);
    }

    @Test
    void a_denied_call_is_refused_and_never_runs() throws Exception {
        call(
                gateway,
                ALICE,
                "create entities",
                "kg__create_entities",
                "{\"entities\": [{\"name\": \"Stays\", \"entityType\": \"note\", \"observations\": []}]}");
        String delete = "{\"entityNames\": [\"Stays\"]}";
        String id = requestId(call(gateway, ALICE, "delete entities", "kg__delete_entities", delete));

        Cli denied = cli("approvals", "deny", id, "--as", "ops", "--format", "json");
        assertThat(denied.code()).as(denied.err()).isZero();
        assertThat(JSON.readTree(denied.out()).path("status").asText()).isEqualTo("denied");

        // through the call-through too: the approval is for the tool it reaches
        JsonNode refused = call(
                gateway,
                ALICE,
                "delete entities",
                "mcp__call_tool",
                "{\"server_name\": \"kg\", \"tool_name\": \"delete_entities\", \"params\": " + delete + "}");
        assertThat(text(refused.path("callResult")))
                .contains("was not run: approval request " + id)
                .contains("denied by cli:ops");
        JsonNode graph = call(gateway, ALICE, "read the knowledge graph", "kg__read_graph", "{}");
        assertThat(text(graph.path("callResult"))).contains("Stays");
    }

    @Test
    void a_reader_key_is_offered_and_runs_only_tools_that_read() throws Exception {
        JsonNode reads = call(gateway, RITA, "echo a message back", "everything__echo", "{\"message\": \"hi\"}");
        assertThat(names(reads.path("toolsBefore")))
                .contains("tool_discovery__find", "mcp__call_tool")
                .doesNotContain("mcp__register_server");
        assertThat(text(reads.path("callResult"))).contains("hi");

        JsonNode writes = call(
                gateway,
                RITA,
                "create entities",
                "kg__create_entities",
                "{\"entities\": [{\"name\": \"Rita\", \"entityType\": \"note\", \"observations\": []}]}");
        assertThat(names(writes.path("toolsAfter"))).doesNotContain("kg__create_entities");
        assertThat(text(writes.path("callResult")))
                .contains("kg__create_entities was not run")
                .contains("role reader")
                .contains("has side effect write");
        JsonNode through = call(
                gateway,
                RITA,
                "create entities",
                "mcp__call_tool",
                "{\"server_name\": \"kg\", \"tool_name\": \"create_entities\", \"params\": {\"entities\": []}}");
        assertThat(text(through.path("callResult"))).contains("role reader");
        JsonNode register = call(
                gateway,
                RITA,
                "install a server",
                "mcp__register_server",
                registerArgs("x", "https://example.com/mcp"));
        assertThat(text(register.path("callResult"))).contains("role reader").contains("needs approval");
        assertThat(engine.scout().approvals().list())
                .noneMatch(a -> a.requester().equals("key:rita"));
    }

    /** A request to the HTTP API with {@code key}; a POST sends {@code json}. */
    static java.net.http.HttpResponse<String> http(String method, String path, String key, String json)
            throws Exception {
        var b = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(gateway.url().replace("/mcp", path)))
                .header("Authorization", "Bearer " + key);
        b = method.equals("POST")
                ? b.header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(json))
                : b.GET();
        return java.net.http.HttpClient.newHttpClient()
                .send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    static final String APPROVE = "{\"decision\": \"approve\"}";

    @Test
    void an_admin_key_decides_other_callers_requests_over_http_but_never_its_own() throws Exception {
        call(
                gateway,
                ALICE,
                "create entities",
                "kg__create_entities",
                "{\"entities\": [{\"name\": \"ByAdmin\", \"entityType\": \"note\", \"observations\": []}]}");
        String delete = "{\"entityNames\": [\"ByAdmin\"]}";
        String alices = requestId(call(gateway, ALICE, "delete entities", "kg__delete_entities", delete));
        String roots = requestId(call(gateway, ROOT, "delete entities", "kg__delete_entities", delete));

        var listed = http("GET", "/v1/approvals", ROOT, null);
        var listedByUser = http("GET", "/v1/approvals", ALICE, null);
        var byUser = http("POST", "/v1/approvals/" + alices, ALICE, APPROVE);
        var own = http("POST", "/v1/approvals/" + roots, ROOT, APPROVE);
        var unknown = http("POST", "/v1/approvals/ap-0000000000", ROOT, APPROVE);
        var approved = http("POST", "/v1/approvals/" + alices, ROOT, APPROVE);
        var twice = http("POST", "/v1/approvals/" + alices, ROOT, APPROVE);

        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(listed.body()).path("approvals").findValuesAsText("id"))
                .contains(alices, roots);
        assertThat(listedByUser.statusCode()).isEqualTo(403);
        assertThat(listedByUser.body()).contains("role admin").contains("this caller's role is user");
        assertThat(byUser.statusCode()).isEqualTo(403);
        assertThat(byUser.body()).contains("role admin").contains("this caller's role is user");
        // refused as the HTTP API documents it: 409, "not pending, or an admin's own request"
        assertThat(own.statusCode()).isEqualTo(409);
        assertThat(own.body()).contains("was made by 'key:root', who cannot approve it");
        assertThat(unknown.statusCode()).isEqualTo(404);
        for (var refused : List.of(listedByUser, byUser, own, unknown, twice)) {
            assertThat(refused.headers().firstValue("Content-Type"))
                    .as(refused.body())
                    .hasValue("application/problem+json");
        }
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(JSON.readTree(approved.body()).path("decided_by").asText()).isEqualTo("key:root");
        assertThat(twice.statusCode()).isEqualTo(409);
        assertThat(text(call(gateway, ALICE, "delete entities", "kg__delete_entities", delete)
                        .path("callResult")))
                .containsIgnoringCase("deleted");
        assertThat(engine.scout().approvals().get(roots).status()).isEqualTo(ApprovalStatus.PENDING);
    }

    @Test
    void the_approvals_command_names_an_unknown_id_and_exits_2() {
        Cli r = cli("approvals", "approve", "ap-0000000000");

        assertThat(r.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(r.err()).contains("no approval request has the id 'ap-0000000000'");
    }

    /** The servers the store holds, read the way the operator would, in a separate store connection. */
    static final class ServersStored {
        static List<String> names(Path dir) {
            try (var store = dev.toolscout.store.SqliteStateStore.open(dir.resolve("state.db"))) {
                return store.loadServers().stream().map(s -> s.name()).toList();
            }
        }
    }
}
