package dev.toolscout.agent;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessPolicyJson;
import dev.toolscout.approval.Approvals;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop end to end on the real engine (the real embedding model, SQLite) against {@link FakeProvider}, which
 * replays recorded Anthropic and OpenAI wire fixtures; tools run through executors an application registers.
 * The MCP upstream version, with real MCP servers, is the server's AgentEndToEndTest.
 */
class AgentLoopTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Principal ALICE = new Principal("alice", null, null);
    static final Principal BOB = new Principal("bob", null, null);

    @TempDir
    static Path tmp;

    static ToolScout scout;
    static FakeProvider fake;
    static final List<ToolInvocation> calls = new CopyOnWriteArrayList<>();

    static List<ToolSpec> tools() {
        ObjectNode city = (ObjectNode) json("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\","
                + "\"description\":\"City name\"}},\"required\":[\"city\"]}");
        ObjectNode path = (ObjectNode) json(
                "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}," + "\"required\":[\"path\"]}");
        return List.of(
                ToolSpec.builder(
                                "weather__get_forecast", "Get the weather forecast for a city: temperature, rain, wind")
                        .parameters(city)
                        .build(),
                ToolSpec.builder("files__delete_file", "Delete a file from the shared drive")
                        .parameters(path)
                        .aiAccess(AiAccess.PROPOSE)
                        .sideEffect(SideEffect.DELETE)
                        .build(),
                ToolSpec.builder("vault__read_secret", "Read a secret from the vault by its path")
                        .parameters(path)
                        .build(),
                ToolSpec.builder("nuke__launch", "Launch the missiles at a city")
                        .parameters(city)
                        .aiAccess(AiAccess.BLOCKED)
                        .build(),
                ToolSpec.builder("orphan__report", "Make a weather report for a city")
                        .parameters(city)
                        .build());
    }

    static JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ToolScout open(Path dir) {
        return ToolScout.builder()
                .dataDir(dir)
                .tools(tools())
                .policyOverride(AccessPolicyJson.fromJson(
                        json(
                                "{\"rules\": [{\"effect\": \"deny\", \"tool\": \"vault__read_secret\", \"user\": \"bob\"}]}"),
                        "test"))
                .build();
    }

    static final ToolExecutor RECORDING = call -> {
        calls.add(call);
        return ToolResult.of(JSON.createObjectNode()
                .put("tool", call.tool().fullName())
                .put("ok", true)
                .set("args", call.arguments()));
    };

    static Agent agent(ToolScout s, ProviderConfig.Kind kind, boolean stream, AgentLimits limits) {
        ProviderConfig c = new ProviderConfig(
                kind,
                kind == ProviderConfig.Kind.ANTHROPIC ? "claude-sonnet-4-5" : "gpt-4.1-mini",
                fake.baseUrl(),
                "sk-test-secret-key",
                null,
                2,
                1024,
                stream);
        return Agent.builder(s, Providers.of(c))
                .executor("weather", RECORDING)
                .executor("files", RECORDING)
                .executor("vault", RECORDING)
                .executor("nuke", RECORDING)
                .limits(limits)
                .build();
    }

    static Agent anthropic() {
        return agent(scout, ProviderConfig.Kind.ANTHROPIC, true, AgentLimits.DEFAULTS);
    }

    @BeforeAll
    static void start() {
        fake = new FakeProvider();
        scout = open(tmp.resolve("data"));
    }

    @AfterAll
    static void stop() {
        scout.close();
        fake.close();
    }

    /** The tool results (Anthropic tool_result blocks) of the last request the provider got. */
    static List<String> anthropicResults(JsonNode request) {
        List<String> out = new ArrayList<>();
        for (JsonNode m : request.path("messages")) {
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

    static JsonNode last() {
        List<JsonNode> r = fake.requests();
        return r.get(r.size() - 1);
    }

    @Test
    void a_preselected_tool_runs_and_its_result_goes_back_to_the_model() throws Exception {
        calls.clear();
        fake.toolCall("anthropic", "weather__get_forecast", "{\"city\":\"Paris\"}")
                .text("anthropic", "Sunny in Paris.");
        List<AgentEvent> events = new CopyOnWriteArrayList<>();
        int before = fake.requests().size();
        AgentResult r =
                anthropic().run("c-weather", ALICE, null, "What is the weather forecast in Paris?", events::add);

        assertThat(r.status()).isEqualTo(AgentResult.Status.DONE);
        assertThat(r.text()).isEqualTo("Sunny in Paris.");
        assertThat(calls).singleElement().satisfies(c -> {
            assertThat(c.tool().fullName()).isEqualTo("weather__get_forecast");
            assertThat(c.arguments().path("city").asText()).isEqualTo("Paris");
            assertThat(c.principal()).isEqualTo(ALICE);
        });
        JsonNode first = fake.requests().get(before);
        assertThat(first.path("tools").findValuesAsText("name")).contains("weather__get_forecast");
        assertThat(first.path("system").toString()).contains("weather__get_forecast");
        assertThat(first.path("stream").asBoolean()).isTrue();
        assertThat(anthropicResults(last())).singleElement().asString().contains("\"ok\":true");
        assertThat(events).contains(new AgentEvent.ToolCall("weather__get_forecast", "selected"));
        assertThat(events).filteredOn(e -> e instanceof AgentEvent.Text).isNotEmpty();
        assertThat(r.usage().json().path("calls").get(0).path("origin").asText())
                .isEqualTo("selected");
        assertThat(r.usage().json().path("tokens").path("input").asLong()).isEqualTo(472 + 512);
        // the key went in the header, as the provider wants it, and nowhere else
        assertThat(fake.headers().get(before).get("X-api-key")).containsExactly("sk-test-secret-key");
        assertThat(r.usage().json().toString()).doesNotContain("sk-test-secret-key");
    }

    @Test
    void a_denied_tool_and_a_missing_one_are_answered_tool_not_found_alike() throws Exception {
        calls.clear();
        fake.toolCall("anthropic", "vault__read_secret", "{\"path\":\"db\"}").text("anthropic", "Sorry.");
        anthropic().run("c-denied", BOB, null, "Read the database password from the vault", e -> {});
        String denied = anthropicResults(last()).get(0);
        fake.toolCall("anthropic", "vault__read_secrets", "{\"path\":\"db\"}").text("anthropic", "Sorry.");
        anthropic().run("c-missing", BOB, null, "Read the database password from the vault", e -> {});
        String missing = anthropicResults(last()).get(0);

        assertThat(calls).isEmpty();
        assertThat(denied).isEqualTo("Tool not found: vault__read_secret");
        assertThat(missing).isEqualTo("Tool not found: vault__read_secrets");
        // alice may read it: the same call runs for her
        fake.toolCall("anthropic", "vault__read_secret", "{\"path\":\"db\"}").text("anthropic", "Done.");
        anthropic().run("c-allowed", ALICE, null, "Read the database password from the vault", e -> {});
        assertThat(calls)
                .singleElement()
                .satisfies(c -> assertThat(c.tool().fullName()).isEqualTo("vault__read_secret"));
    }

    @Test
    void a_blocked_tool_is_never_run_even_when_the_model_names_it() throws Exception {
        calls.clear();
        fake.toolCall("anthropic", "nuke__launch", "{\"city\":\"Paris\"}").text("anthropic", "I cannot.");
        int before = fake.requests().size();
        AgentResult r = anthropic().run("c-blocked", ALICE, null, "Launch the missiles at Paris", e -> {});

        assertThat(calls).isEmpty();
        assertThat(anthropicResults(last())).containsExactly("Tool not found: nuke__launch");
        assertThat(fake.requests().get(before).path("tools").findValuesAsText("name"))
                .doesNotContain("nuke__launch");
        assertThat(r.usage().json().path("calls").get(0).path("outcome").asText())
                .isEqualTo("not_found");
    }

    @Test
    void a_429_from_the_provider_is_retried() throws Exception {
        fake.error("anthropic", 429, "rate_limit").text("anthropic", "Hello.");
        int before = fake.requests().size();
        AgentResult r = anthropic().run("c-429", ALICE, null, "Say hello", e -> {});

        assertThat(r.status()).isEqualTo(AgentResult.Status.DONE);
        assertThat(r.text()).isEqualTo("Hello.");
        assertThat(fake.requests().size() - before).isEqualTo(2);
    }

    @Test
    void a_400_from_the_provider_fails_the_request_at_once_naming_the_status() throws Exception {
        fake.error("anthropic", 400, "invalid_request");
        int before = fake.requests().size();
        AgentResult r = anthropic().run("c-400", ALICE, null, "Say hello", e -> {});

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(r.error()).contains("HTTP 400").contains("roles must alternate");
        assertThat(fake.requests().size() - before).isEqualTo(1);
    }

    @Test
    void a_tool_without_an_executor_is_not_executable_here() throws Exception {
        fake.toolCall("anthropic", "orphan__report", "{\"city\":\"Oslo\"}").text("anthropic", "No report.");
        anthropic().run("c-orphan", ALICE, null, "Make a weather report for Oslo", e -> {});

        assertThat(anthropicResults(last()))
                .singleElement()
                .asString()
                .contains("orphan__report is not executable here");
    }

    @Test
    void openai_chat_completions_with_and_without_streaming_drive_the_loop() throws Exception {
        for (boolean stream : new boolean[] {true, false}) {
            calls.clear();
            fake.toolCall("openai", "weather__get_forecast", "{\"city\":\"Rome\"}")
                    .text("openai", "Rain in Rome.");
            int before = fake.requests().size();
            List<AgentEvent> events = new CopyOnWriteArrayList<>();
            AgentResult r = agent(scout, ProviderConfig.Kind.OPENAI, stream, AgentLimits.DEFAULTS)
                    .run("c-openai-" + stream, ALICE, null, "Weather forecast for Rome?", events::add);

            assertThat(r.status()).isEqualTo(AgentResult.Status.DONE);
            assertThat(r.text()).isEqualTo("Rain in Rome.");
            // streamed or not, the caller (chat's text output, the HTTP run's events) is told the answer once
            assertThat(events.stream()
                            .filter(e -> e instanceof AgentEvent.Text)
                            .map(e -> ((AgentEvent.Text) e).text())
                            .reduce("", String::concat))
                    .as("stream " + stream)
                    .isEqualTo("Rain in Rome.");
            assertThat(calls)
                    .singleElement()
                    .satisfies(
                            c -> assertThat(c.arguments().path("city").asText()).isEqualTo("Rome"));
            JsonNode second = fake.requests().get(before + 1);
            assertThat(second.path("messages").findValuesAsText("role"))
                    .contains("system", "user", "assistant", "tool");
            assertThat(second.path("stream").asBoolean(false)).isEqualTo(stream);
            assertThat(fake.headers().get(before).get("Authorization")).containsExactly("Bearer sk-test-secret-key");
        }
    }

    @Test
    void the_turn_limit_stops_a_request_with_an_error_naming_it() throws Exception {
        fake.toolCall("anthropic", "weather__get_forecast", "{\"city\":\"Paris\"}");
        AgentResult r = agent(
                        scout,
                        ProviderConfig.Kind.ANTHROPIC,
                        true,
                        new AgentLimits(1, 25, java.time.Duration.ofMinutes(1), 100_000))
                .run("c-limit", ALICE, null, "Weather in Paris?", e -> {});

        assertThat(r.status()).isEqualTo(AgentResult.Status.FAILED);
        assertThat(r.error()).contains("maxTurns is 1");
    }

    @Test
    void a_propose_tool_pauses_is_approved_by_someone_else_and_resumes_after_a_restart() throws Exception {
        calls.clear();
        Path dir = tmp.resolve("restart");
        fake.toolCall("anthropic", "files__delete_file", "{\"path\":\"/tmp/old.txt\"}");
        AgentResult paused;
        try (ToolScout s = open(dir)) {
            try (LogCapture log = LogCapture.of(Agent.class)) {
                paused = agent(s, ProviderConfig.Kind.ANTHROPIC, true, AgentLimits.DEFAULTS)
                        .run(
                                "c-propose",
                                ALICE,
                                "key:alice",
                                "Delete the file /tmp/old.txt from the shared drive",
                                e -> {});
                assertThat(log.warnings())
                        .singleElement(as(InstanceOfAssertFactories.STRING))
                        .startsWith("approval request " + paused.approvalId()
                                + ": key:alice asks to run files__delete_file (agent run " + paused.runId() + ")");
            }
            assertThat(paused.status()).isEqualTo(AgentResult.Status.AWAITING_APPROVAL);
            assertThat(paused.tool()).isEqualTo("files__delete_file");
            assertThat(calls).isEmpty();
            // the requester cannot approve it
            Approvals q = s.approvals();
            assertThatThrownBy(
                            () -> q.decide(paused.approvalId(), true, new Approvals.Approver("key:alice", Role.ADMIN)))
                    .hasMessageContaining("cannot approve it");
            // a new message waits for the decision
            assertThatThrownBy(() -> agent(s, ProviderConfig.Kind.ANTHROPIC, true, AgentLimits.DEFAULTS)
                            .run("c-propose", ALICE, "key:alice", "and another thing", e -> {}))
                    .hasMessageContaining(paused.approvalId());
        }
        fake.text("anthropic", "Deleted /tmp/old.txt.");
        try (ToolScout s = open(dir)) {
            s.approvals().decide(paused.approvalId(), true, new Approvals.Approver("key:root", Role.ADMIN));
            List<AgentResult> resumed = agent(s, ProviderConfig.Kind.ANTHROPIC, true, AgentLimits.DEFAULTS)
                    .resumeDecided();

            assertThat(resumed).singleElement().satisfies(r -> {
                assertThat(r.runId()).isEqualTo(paused.runId());
                assertThat(r.status()).isEqualTo(AgentResult.Status.DONE);
                assertThat(r.text()).isEqualTo("Deleted /tmp/old.txt.");
                assertThat(r.usage()
                                .json()
                                .path("approvals")
                                .get(0)
                                .path("outcome")
                                .asText())
                        .isEqualTo("approved");
            });
            assertThat(calls)
                    .singleElement()
                    .satisfies(
                            c -> assertThat(c.arguments().path("path").asText()).isEqualTo("/tmp/old.txt"));
            assertThat(anthropicResults(last())).singleElement().asString().contains("\"ok\":true");
        }
    }

    @Test
    void usage_summary_counts_the_requests_calls_and_pairs() throws Exception {
        Path dir = tmp.resolve("usage");
        try (ToolScout s = open(dir)) {
            Agent a = agent(s, ProviderConfig.Kind.ANTHROPIC, true, AgentLimits.DEFAULTS);
            fake.toolCall("anthropic", "weather__get_forecast", "{\"city\":\"Paris\"}")
                    .text("anthropic", "Sunny.");
            a.run("u1", ALICE, null, "What is the weather forecast in Paris?", e -> {});
            fake.toolCall("anthropic", "nosuch__tool", "{}").text("anthropic", "Hm.");
            a.run("u2", ALICE, null, "Do something odd", e -> {});
            fake.text("anthropic", "Hi.");
            a.run("u3", ALICE, null, "Hi", e -> {});

            List<UsageRecord> records = a.usage(Instant.EPOCH, 100);
            ObjectNode sum = UsageReport.summary(records);
            assertThat(sum.path("requests").asInt()).isEqualTo(3);
            assertThat(sum.path("tool_calls").asInt()).isEqualTo(1);
            assertThat(sum.path("preselected_share").asDouble()).isEqualTo(1.0);
            assertThat(sum.path("not_found").asInt()).isEqualTo(1);
            // every tool fits in K here, so selecting saved nothing; the provider's counts add up over the model calls
            assertThat(sum.path("tokens").path("saved").asLong()).isZero();
            assertThat(sum.path("tokens").path("input").asLong()).isEqualTo(472 + 512 + 472 + 512 + 512);
            assertThat(UsageReport.pairs(records))
                    .extracting(p -> p.path("tools").toString())
                    .containsExactly("[\"weather__get_forecast\"]", "[]", "[]");
            assertThat(UsageReport.pairs(records).get(0).path("message").asText())
                    .isEqualTo("What is the weather forecast in Paris?");
        }
    }

    @Test
    void usage_counts_a_memory_tool_the_selection_lacked_and_gives_recall_and_precision_per_origin() throws Exception {
        Path dir = tmp.resolve("usage-memory");
        try (ToolScout s = open(dir)) {
            Agent a = agent(s, ProviderConfig.Kind.ANTHROPIC, true, AgentLimits.DEFAULTS);
            fake.toolCall("anthropic", "weather__get_forecast", "{\"city\":\"Paris\"}")
                    .toolCall("anthropic", "memory__store", "{\"content\":\"Alice looks at the weather in Paris.\"}")
                    .text("anthropic", "Sunny, and noted.");
            a.run("m1", ALICE, null, "What is the weather forecast in Paris?", e -> {});

            List<UsageRecord> records = a.usage(Instant.EPOCH, 100);
            JsonNode record = records.get(0).json();
            List<String> selection = new ArrayList<>();
            record.path("selection").forEach(t -> selection.add(t.path("name").asText()));
            // the model used a memory tool the first selection did not hold, and the store ran
            assertThat(selection).contains("weather__get_forecast").doesNotContain("memory__store");
            assertThat(record.path("calls"))
                    .extracting(c ->
                            c.path("tool").asText() + " " + c.path("outcome").asText())
                    .containsExactly("weather__get_forecast ok", "memory__store ok");
            assertThat(record.path("selection"))
                    .allSatisfy(t -> assertThat(t.path("origin").asText())
                            .isIn("core", "offered", "skill", "ranked", "dependency", "used_with"));

            ObjectNode sum = UsageReport.summary(records);
            // recall: one of the two tools used was pre-selected (the catalog-only share says 100%)
            assertThat(sum.path("used_tools").asInt()).isEqualTo(2);
            assertThat(sum.path("recall").asDouble()).isEqualTo(0.5);
            assertThat(sum.path("preselected_share").asDouble()).isEqualTo(1.0);
            // precision: one of the selected tools (the discovery tools apart) was used
            long selectedTools = selection.stream()
                    .filter(t -> !t.startsWith("tool_discovery__"))
                    .count();
            assertThat(sum.path("selected_tools").asLong()).isEqualTo(selectedTools);
            assertThat(sum.path("precision").asDouble()).isEqualTo(Math.round(10_000.0 / selectedTools) / 10_000.0);
            JsonNode byOrigin = sum.path("selection_by_origin");
            assertThat(byOrigin.path("ranked").path("used").asInt()).isEqualTo(1);
            assertThat(byOrigin.path("ranked").path("recall").asDouble()).isEqualTo(0.5);
            assertThat(byOrigin.path("not_selected").path("used").asInt()).isEqualTo(1);
            assertThat(byOrigin.path("not_selected").path("recall").asDouble()).isEqualTo(0.5);
            long perOrigin = 0;
            for (String origin : List.of("core", "offered", "skill", "ranked", "dependency", "used_with")) {
                perOrigin += byOrigin.path(origin).path("selected").asLong();
            }
            assertThat(perOrigin).isEqualTo(selectedTools);
        }
    }
}
