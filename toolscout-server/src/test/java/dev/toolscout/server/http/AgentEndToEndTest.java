package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.FakeProvider;
import dev.toolscout.agent.ProviderConfig;
import dev.toolscout.agent.Providers;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.mcp.McpActions;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.McpToolExecutor;
import dev.toolscout.mcp.config.ServersFile;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.server.cli.ToolScoutCli;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.skills.Skill;
import dev.toolscout.testing.LogCapture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 17's "Must show", end to end: the HTTP API of {@code serve} with the agent loop, a local fake provider
 * ({@link FakeProvider}) replaying recorded Anthropic wire fixtures, and real MCP servers from npm ({@code
 * everything} and {@code memory} as {@code kg}) as the tools. Ends with {@code toolscout usage --format json} on
 * the same data directory, counting what the runs before it did.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ResourceLock(LogCapture.LOGGERS)
class AgentEndToEndTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ALICE = "alice-user-key-0123456789";
    static final String BOB = "bob-user-key-01234567890";
    static final String ROOT = "root-admin-key-012345678";
    static final String RITA = "rita-reader-key-01234567";
    static final Map<String, GatewayAuth.Key> KEYS = Map.of(
            RITA, new GatewayAuth.Key(new Principal("rita", null, null), Role.READER),
            ALICE, new GatewayAuth.Key(new Principal("alice", null, null), Role.USER),
            BOB, new GatewayAuth.Key(new Principal("bob", null, null), Role.USER),
            ROOT, new GatewayAuth.Key(new Principal("root", null, null), Role.ADMIN));

    @TempDir
    static Path tmp;

    static Path dataDir;
    static Path serversFile;
    static Path policy;
    static FakeProvider fake;
    static Server server;
    static final List<ToolInvocation> dangerCalls = new CopyOnWriteArrayList<>();

    /** What serve runs, over one data directory; closed and opened again for the restart. */
    static final class Server implements AutoCloseable {
        final McpRuntime rt;
        final HttpApi api;
        final GatewayHttpServer http;
        final ApiClient client;
        final Agent agent;

        Server() throws Exception {
            rt = McpRuntime.open(ToolScout.builder().dataDir(dataDir).policyFile(policy));
            rt.start(ServersFile.load(serversFile), Duration.ofSeconds(60));
            ProviderConfig config = new ProviderConfig(
                    ProviderConfig.Kind.ANTHROPIC,
                    "claude-sonnet-4-5",
                    fake.baseUrl(),
                    "sk-ant-test",
                    null,
                    2,
                    1024,
                    true);
            McpToolExecutor mcp = new McpToolExecutor(rt.actions());
            ToolExecutor danger = call -> {
                dangerCalls.add(call);
                return ToolResult.error("must never run");
            };
            agent = Agent.builder(rt.scout(), Providers.of(config))
                    .executor(SourceKind.MCP, mcp)
                    .tools(
                            McpActions.specs().stream()
                                    .filter(s -> McpToolExecutor.ACTIONS.contains(s.fullName()))
                                    .toList(),
                            mcp)
                    .executor("danger", danger)
                    .build();
            GatewayAuth auth = GatewayAuth.withRoles(KEYS);
            api = new HttpApi(auth, HttpApi.Options.DEFAULT);
            http = GatewayHttpServer.start(
                    new McpGateway(rt.scout(), rt.actions(), Principal.ANONYMOUS), auth, "127.0.0.1", 0, api);
            api.open(new ApiBackend(rt.scout(), rt.registry(), agent));
            client = new ApiClient(
                    http.baseUrl(),
                    ALICE,
                    new OpenApiContract(new String(api.openApiDocument(), java.nio.charset.StandardCharsets.UTF_8)));
        }

        ToolScout scout() {
            return rt.scout();
        }

        @Override
        public void close() {
            try {
                http.close();
            } finally {
                rt.close();
            }
        }
    }

    /**
     * What the server logs for the operator on purpose, over the class: the policy's rule read before the upstream
     * listed the tool it names, and the approval requests the tests make.
     */
    static LogCapture policyLog;

    static LogCapture approvalLog;

    @BeforeAll
    static void start() throws Exception {
        policyLog = LogCapture.of("dev.toolscout.engine.LocalToolScout");
        approvalLog = LogCapture.of("dev.toolscout.agent.Agent");
        Path peers = Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();
        serversFile = tmp.resolve("servers.json");
        Files.writeString(serversFile, """
        {"mcpServers": {
          "everything": {"command": "node", "args": ["%s", "stdio"]},
          "kg": {"command": "node", "args": ["%s"], "env": {"MEMORY_FILE_PATH": "%s"}}
        }}""".formatted(
                        peers.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
                        peers.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
                        tmp.resolve("kg.jsonl")));
        policy = tmp.resolve("policy.json");
        Files.writeString(policy, """
        {"rules": [{"effect": "deny", "tool": "everything__get-sum", "user": "bob"}]}""");
        dataDir = tmp.resolve("data");
        fake = new FakeProvider();
        server = new Server();
        server.scout()
                .upsert(List.of(ToolSpec.builder("danger__wipe_disk", "Wipe the disk of the server, every file")
                        .aiAccess(AiAccess.BLOCKED)
                        .build()));
        server.scout()
                .putSkill(new Skill(
                        "graph-notes",
                        "Keep notes in the knowledge graph: read and add entities",
                        "Read the graph first with kg__read_graph, then add entities with kg__create_entities.",
                        List.of("kg__read_graph", "kg__create_entities"),
                        Skill.Source.API,
                        List.of()));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
            fake.close();
            assertThat(policyLog.warnings())
                    .allSatisfy(w -> assertThat(w).contains("'everything__get-sum' matches no known tool"));
            assertThat(approvalLog.warnings())
                    .isNotEmpty()
                    .allSatisfy(w -> assertThat(w).matches("approval request ap-\\w+: .+ asks to run .+"));
        } finally {
            policyLog.close();
            approvalLog.close();
        }
    }

    static JsonNode send(ApiClient client, String conversation, String message) throws Exception {
        HttpResponse<String> r = client.post(
                "/v1/conversations/" + conversation + "/messages", JSON.writeValueAsString(Map.of("message", message)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ApiClient.json(r);
    }

    /** The tool results (Anthropic tool_result blocks) of the last request the provider got. */
    static List<String> lastResults() {
        List<JsonNode> all = fake.requests();
        List<String> out = new ArrayList<>();
        for (JsonNode m : all.get(all.size() - 1).path("messages")) {
            for (JsonNode c : m.path("content")) {
                if (c.path("type").asText().equals("tool_result")) {
                    out.add(
                            c.path("content").isTextual()
                                    ? c.path("content").asText()
                                    : c.path("content").toString());
                }
            }
        }
        return out;
    }

    static List<String> toolsOf(JsonNode request) {
        return request.path("tools").findValuesAsText("name");
    }

    @Test
    @Order(1)
    void a_preselected_mcp_tool_is_called_on_the_real_server() throws Exception {
        fake.toolCall("anthropic", "everything__echo", "{\"message\":\"hello agent\"}")
                .text("anthropic", "It echoed.");
        int before = fake.requests().size();
        JsonNode run = send(server.client, "e2e-echo", "Echo back the message 'hello agent'");

        assertThat(run.path("status").asText()).isEqualTo("done");
        assertThat(toolsOf(fake.requests().get(before))).contains("everything__echo");
        assertThat(lastResults()).singleElement().asString().contains("hello agent");
        assertThat(run.path("usage").path("calls").get(0).path("origin").asText())
                .isEqualTo("selected");
        assertThat(run.path("usage").path("calls").get(0).path("outcome").asText())
                .isEqualTo("ok");
    }

    @Test
    @Order(2)
    void discovery_finds_a_tool_that_the_model_then_calls_in_the_same_request() throws Exception {
        String message = "Please store that Ada is a mathematician";
        Principal alice = new Principal("alice", null, null);
        List<String> selected =
                server.scout().select(new SelectRequest(message, alice, null, null, null)).selected().stream()
                        .map(t -> t.name())
                        .toList();
        assertThat(selected).contains("tool_discovery__find");
        // a tool of the real servers the selection left out, found by its own description
        ToolSpec target = server.scout().list(alice, null, 0, 1000).tools().stream()
                .map(t -> server.scout().describe(alice, t.name()).orElseThrow())
                .filter(t -> (t.fullName().startsWith("kg__") || t.fullName().startsWith("everything__"))
                        && !selected.contains(t.fullName())
                        && t.requiredParameters().isEmpty()
                        && t.aiAccess() == AiAccess.EXECUTE)
                .findFirst()
                .orElseThrow();
        fake.toolCall(
                        "anthropic",
                        "tool_discovery__find",
                        JSON.writeValueAsString(Map.of("query", target.description())))
                .toolCall("anthropic", target.fullName(), "{}")
                .text("anthropic", "Done.");
        int before = fake.requests().size();
        JsonNode run = send(server.client, "e2e-find", message);

        assertThat(run.path("status").asText()).isEqualTo("done");
        assertThat(toolsOf(fake.requests().get(before))).doesNotContain(target.fullName());
        assertThat(toolsOf(fake.requests().get(before + 1))).contains(target.fullName());
        JsonNode calls = run.path("usage").path("calls");
        assertThat(calls.get(0).path("tool").asText()).isEqualTo("tool_discovery__find");
        assertThat(calls.get(0).path("found").asInt()).isPositive();
        assertThat(calls.get(1).path("origin").asText()).isEqualTo("discovery");
        assertThat(calls.get(1).path("outcome").asText()).isEqualTo("ok");
        assertThat(calls.get(1).path("tool").asText()).isEqualTo(target.fullName());
    }

    @Test
    @Order(3)
    void an_activated_skill_brings_its_tools_to_the_next_turn() throws Exception {
        String message = "Write down some notes about the project";
        fake.toolCall("anthropic", "skills__activate", "{\"skill_name\":\"graph-notes\"}")
                .toolCall(
                        "anthropic",
                        "kg__create_entities",
                        "{\"entities\":[{\"name\":\"ToolScout\",\"entityType\":\"project\",\"observations\":[\"selects tools\"]}]}")
                .text("anthropic", "Noted.");
        int before = fake.requests().size();
        JsonNode run = send(server.client, "e2e-skill", message);

        assertThat(run.path("status").asText()).isEqualTo("done");
        assertThat(toolsOf(fake.requests().get(before))).contains("skills__activate");
        assertThat(toolsOf(fake.requests().get(before + 1))).contains("kg__read_graph", "kg__create_entities");
        JsonNode calls = run.path("usage").path("calls");
        assertThat(calls.get(0).path("origin").asText()).isEqualTo("meta");
        assertThat(calls.get(1).path("tool").asText()).isEqualTo("kg__create_entities");
        assertThat(calls.get(1).path("outcome").asText()).isEqualTo("ok");
        assertThat(lastResults()).last().asString().contains("ToolScout");
    }

    @Test
    @Order(4)
    void a_denied_tool_is_answered_tool_not_found_like_a_missing_one() throws Exception {
        ApiClient bob = server.client.as(BOB);
        fake.toolCall("anthropic", "everything__get-sum", "{\"a\":1,\"b\":2}").text("anthropic", "Cannot.");
        send(bob, "e2e-denied", "Add 1 and 2");
        String denied = lastResults().get(0);
        fake.toolCall("anthropic", "everything__get-sums", "{\"a\":1,\"b\":2}").text("anthropic", "Cannot.");
        send(bob, "e2e-missing", "Add 1 and 2");
        String missing = lastResults().get(0);

        assertThat(denied).isEqualTo("Tool not found: everything__get-sum");
        assertThat(missing).isEqualTo("Tool not found: everything__get-sums");
    }

    @Test
    @Order(5)
    void a_blocked_tool_is_never_executed_even_when_the_model_names_it() throws Exception {
        fake.toolCall("anthropic", "danger__wipe_disk", "{}").text("anthropic", "No.");
        int before = fake.requests().size();
        send(server.client, "e2e-blocked", "Wipe the disk of the server");

        assertThat(dangerCalls).isEmpty();
        assertThat(toolsOf(fake.requests().get(before))).doesNotContain("danger__wipe_disk");
        assertThat(lastResults()).containsExactly("Tool not found: danger__wipe_disk");
    }

    @Test
    @Order(6)
    void a_429_from_the_provider_is_retried_and_the_answer_streams_as_server_sent_events() throws Exception {
        fake.error("anthropic", 429, "rate_limit")
                .toolCall("anthropic", "everything__echo", "{\"message\":\"sse\"}")
                .text("anthropic", "Streamed.");
        int before = fake.requests().size();
        HttpResponse<String> r = server.client.send(server.client
                .builder("/v1/conversations/e2e-sse/messages")
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"message\": \"Echo back sse\"}")));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        assertThat(fake.requests().size() - before).isEqualTo(3);
        assertThat(r.body())
                .contains("event: tool_call\ndata: {\"tool\":\"everything__echo\",\"origin\":\"selected\"}")
                .contains("event: text\ndata: {\"text\":\"Streamed.\"}")
                .contains("event: result\ndata: {\"run_id\"");
        assertThat(r.body().indexOf("event: tool_call")).isLessThan(r.body().indexOf("event: result"));
    }

    @Test
    @Order(7)
    void a_propose_tool_pauses_is_approved_by_an_admin_key_and_resumes_after_a_restart() throws Exception {
        fake.toolCall("anthropic", "kg__delete_entities", "{\"entityNames\":[\"ToolScout\"]}");
        JsonNode paused = send(server.client, "e2e-propose", "Delete the entity ToolScout from the knowledge graph");
        assertThat(paused.path("status").asText()).isEqualTo("awaiting_approval");
        String approval = paused.path("approval").path("id").asText();
        String run = paused.path("run_id").asText();
        assertThat(paused.path("approval").path("tool").asText()).isEqualTo("kg__delete_entities");
        // the requester cannot decide it: a user key is no approver, and nobody approves their own request
        assertThat(server.client
                        .post("/v1/approvals/" + approval, "{\"decision\": \"approve\"}")
                        .statusCode())
                .isEqualTo(403);

        server.close();
        server = null;
        fake.text("anthropic", "Deleted it.");
        server = new Server();
        HttpResponse<String> decided =
                server.client.as(ROOT).post("/v1/approvals/" + approval, "{\"decision\": \"approve\"}");
        assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);
        assertThat(ApiClient.json(decided).path("decided_by").asText()).isEqualTo("key:root");

        JsonNode done = null;
        for (int i = 0; i < 600; i++) { // the run resumes in the background: wait for it (at most a minute)
            done = ApiClient.json(server.client.get("/v1/runs/" + run));
            if (!done.path("status").asText().equals("awaiting_approval")) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(done.path("status").asText()).isEqualTo("done");
        assertThat(done.path("text").asText()).isEqualTo("Deleted it.");
        assertThat(done.path("usage").path("approvals").get(0).path("outcome").asText())
                .isEqualTo("approved");
        assertThat(lastResults()).singleElement().asString().containsIgnoringCase("deleted");
        // another principal's run is answered like a missing one
        assertThat(server.client.as(BOB).get("/v1/runs/" + run).statusCode()).isEqualTo(404);
        // the approval queue names the run that asked, as it stands now (what the console's Approvals page shows)
        JsonNode listed = ApiClient.json(server.client.as(ROOT).get("/v1/approvals?all=true"));
        JsonNode mine = null;
        for (JsonNode a : listed.path("approvals")) {
            if (a.path("id").asText().equals(approval)) {
                mine = a;
            }
        }
        assertThat(mine).as(listed.toString()).isNotNull();
        assertThat(mine.path("run").path("id").asText()).isEqualTo(run);
        assertThat(mine.path("run").path("status").asText()).isEqualTo("done");
        assertThat(mine.path("run").path("conversation").asText()).isEqualTo("e2e-propose");
    }

    @Test
    @Order(8)
    void usage_in_json_counts_what_the_runs_did() throws Exception {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = ToolScoutCli.run(
                new String[] {"usage", "--format", "json", "--data-dir", dataDir.toString()},
                new PrintWriter(o, true),
                new PrintWriter(e, true));
        assertThat(code).as(e.toString()).isZero();
        JsonNode u = JSON.readTree(o.toString());

        // echo, find+read_graph, activate+create_entities, denied, missing, blocked, sse echo, delete after approval
        assertThat(u.path("requests").asInt()).isEqualTo(8);
        assertThat(u.path("by_status").path("done").asInt()).isEqualTo(8);
        // echo, read_graph (discovery), create_entities (skill), echo (sse), delete_entities (selected or other)
        assertThat(u.path("tool_calls").asInt()).isEqualTo(5);
        assertThat(u.path("by_origin").path("discovery").asInt()).isEqualTo(1);
        assertThat(u.path("by_origin").path("skill").asInt()).isEqualTo(1);
        assertThat(u.path("by_origin").path("meta").asInt()).isEqualTo(2);
        assertThat(u.path("not_found").asInt()).isEqualTo(3);
        assertThat(u.path("discovery_calls").asInt()).isEqualTo(1);
        assertThat(u.path("discovery_empty").asInt()).isZero();
        assertThat(u.path("discovery_rate").asDouble()).isEqualTo(0.125);
        assertThat(u.path("approvals").path("requested").asInt()).isEqualTo(1);
        assertThat(u.path("approvals").path("approved").asInt()).isEqualTo(1);
        assertThat(u.path("tokens").path("input").asLong()).isPositive();

        Path pairs = tmp.resolve("pairs.jsonl");
        assertThat(ToolScoutCli.run(
                        new String[] {"usage", "--export-pairs", pairs.toString(), "--data-dir", dataDir.toString()},
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(new StringWriter(), true)))
                .isZero();
        List<String> lines = Files.readAllLines(pairs);
        assertThat(lines).hasSize(8);
        assertThat(lines)
                .anySatisfy(l ->
                        assertThat(JSON.readTree(l).path("tools").toString()).isEqualTo("[\"kg__create_entities\"]"));
        assertThat(JSON.readTree(lines.get(0)).path("principal").asText()).isEqualTo("alice");
    }

    @Test
    @Order(9)
    void usage_reads_a_shared_store_as_it_reads_the_data_directory() throws Exception {
        // the records the runs above made, copied into a fresh schema of the shared PostgreSQL store that replicas
        // write
        dev.toolscout.store.TestPostgres.Server pg = dev.toolscout.store.TestPostgres.server();
        String schema = dev.toolscout.store.TestPostgres.newSchema("ts_usage_");
        String store = pg.url(schema);
        try {
            try (var local = dev.toolscout.store.SqliteStateStore.openReadOnly(dataDir.resolve("state.db"));
                    var shared = dev.toolscout.store.PostgresStateStore.open(store)) {
                local.loadUsage(java.time.Instant.EPOCH, 100_000).forEach(shared::saveUsage);
            }
            String since = "2000-01-01T00:00:00Z";
            assertThat(usageJson("--data-dir", dataDir.toString(), "--since", since))
                    .isEqualTo(usageJson(
                            "--store",
                            store,
                            "--data-dir",
                            tmp.resolve("elsewhere").toString(),
                            "--since",
                            since))
                    .contains("\"requests\" : 8");
        } finally {
            pg.dropSchema(schema);
        }
    }

    private static String usageJson(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        List<String> all = new ArrayList<>(List.of("usage", "--format", "json"));
        all.addAll(List.of(args));
        assertThat(ToolScoutCli.run(all.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true)))
                .as(e.toString())
                .isZero();
        return o.toString();
    }

    @Test
    @Order(10)
    void a_reader_key_cannot_run_the_agent_loop() throws Exception {
        int before = fake.requests().size();
        HttpResponse<String> r = server.client
                .as(RITA)
                .post(
                        "/v1/conversations/e2e-reader/messages",
                        JSON.writeValueAsString(Map.of("message", "Echo back the message 'hello'")));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
        assertThat(r.body()).contains("this key's role is reader");
        assertThat(fake.requests()).hasSize(before); // the model was never asked
    }
}
