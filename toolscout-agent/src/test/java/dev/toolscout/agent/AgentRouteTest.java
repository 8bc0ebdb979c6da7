package dev.toolscout.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.routing.Route;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The loop acting on SKILL_EXECUTE (docs/AGENT.md), on the real engine and embedding model against {@link
 * FakeProvider}: a request that restates a no-parameter tool runs it with no model call, only when the policy
 * allows it outright and the tool only reads.
 */
class AgentRouteTest {
    static final Principal ANN = new Principal("ann", "eng", "team-a");
    static final String MESSAGE = "List the webhook endpoints";
    static final String TOOL = "webhook__list_endpoints";

    @TempDir
    Path tmp;

    FakeProvider fake;
    final List<ToolInvocation> ran = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        fake = new FakeProvider();
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    /** The demo catalog's no-parameter webhook tool (as {@code edit} makes it) and a tool with a parameter. */
    static List<ToolSpec> tools(UnaryOperator<ToolSpec.Builder> edit) {
        return List.of(
                edit.apply(ToolSpec.builder(TOOL, "Lists registered outgoing endpoints and incoming hook URLs."))
                        .build(),
                ToolSpec.builder("weather__get_forecast", "Get the weather forecast for a city")
                        .parameters((com.fasterxml.jackson.databind.node.ObjectNode)
                                AgentLoopTest.json("{\"type\":\"object\","
                                        + "\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}"))
                        .build());
    }

    ToolScout open(String dir, List<ToolSpec> tools, AccessPolicy policy) {
        ToolScout.Builder b = ToolScout.builder().dataDir(tmp.resolve(dir)).tools(tools);
        return (policy == null ? b : b.policyOverride(policy)).build();
    }

    Agent agent(ToolScout scout) {
        ProviderConfig c = new ProviderConfig(
                ProviderConfig.Kind.ANTHROPIC,
                "claude-sonnet-4-5",
                fake.baseUrl(),
                "sk-test-secret-key",
                null,
                2,
                1024,
                false);
        return Agent.builder(scout, Providers.of(c))
                .executor("webhook", call -> {
                    ran.add(call);
                    return ToolResult.of(TextNode.valueOf("outgoing: https://hooks.example.test/deploy"));
                })
                .executor("weather", call -> ToolResult.of(TextNode.valueOf("sunny")))
                .build();
    }

    @Test
    void a_request_restating_a_no_parameter_read_tool_runs_it_without_calling_the_model() throws Exception {
        try (ToolScout scout = open("data", tools(b -> b), null)) {
            AgentResult r = agent(scout).run("conv-1", ANN, MESSAGE);

            assertThat(fake.requests()).as("model calls").isEmpty();
            assertThat(r.status()).isEqualTo(AgentResult.Status.DONE);
            assertThat(r.text()).isEqualTo("Ran " + TOOL + ": outgoing: https://hooks.example.test/deploy");
            assertThat(ran).singleElement().satisfies(call -> {
                assertThat(call.tool().fullName()).isEqualTo(TOOL);
                assertThat(call.arguments().isEmpty()).isTrue();
                assertThat(call.principal()).isEqualTo(ANN);
            });
            JsonNode record = r.usage().json();
            assertThat(record.path("route").path("route").asText()).isEqualTo(Route.SKILL_EXECUTE.name());
            assertThat(record.path("route").path("target").asText()).isEqualTo(TOOL);
            assertThat(record.path("route").path("acted").asBoolean()).isTrue();
            assertThat(record.path("turns").asInt()).isZero();
            assertThat(record.path("calls")).singleElement().satisfies(c -> {
                assertThat(c.path("tool").asText()).isEqualTo(TOOL);
                assertThat(c.path("origin").asText()).isEqualTo("route");
                assertThat(c.path("outcome").asText()).isEqualTo("ok");
            });

            // the conversation's history holds the call and its result: the next request's model sees them
            fake.text("anthropic", "Two of them.");
            agent(scout).run("conv-1", ANN, "How many are there?");
            assertThat(AgentLoopTest.anthropicResults(fake.requests().get(0)))
                    .singleElement()
                    .asString()
                    .contains("hooks.example.test");
        }
    }

    /** What the route may not run on its own: the model is asked as for any message, and nothing runs unasked. */
    enum NotOutright {
        PROPOSE,
        BLOCKED,
        WRITES,
        DELETES
    }

    @ParameterizedTest
    @EnumSource(NotOutright.class)
    void a_tool_the_policy_does_not_allow_outright_or_that_changes_something_is_left_to_the_model(NotOutright kind)
            throws Exception {
        UnaryOperator<ToolSpec.Builder> edit = switch (kind) {
            case PROPOSE -> b -> b.aiAccess(AiAccess.PROPOSE);
            case BLOCKED -> b -> b.aiAccess(AiAccess.BLOCKED);
            case WRITES -> b -> b.sideEffect(SideEffect.WRITE);
            case DELETES -> b -> b.sideEffect(SideEffect.DELETE);
        };
        try (ToolScout scout = open("data", tools(edit), null)) {
            fake.text("anthropic", "Which endpoints do you mean?");
            AgentResult r = agent(scout).run("conv-1", ANN, MESSAGE);

            assertThat(fake.requests()).as("model calls").hasSize(1);
            assertThat(r.text()).isEqualTo("Which endpoints do you mean?");
            assertThat(ran).isEmpty();
            assertThat(r.usage().json().path("calls")).isEmpty();
            assertThat(r.usage().json().path("approvals")).isEmpty();
            JsonNode route = r.usage().json().path("route");
            assertThat(route.path("acted").asBoolean()).isFalse();
            if (kind != NotOutright.BLOCKED) { // a BLOCKED tool is not even among the router's evidence
                assertThat(route.path("route").asText()).isEqualTo(Route.SKILL_EXECUTE.name());
                assertThat(route.path("target").asText()).isEqualTo(TOOL);
            } else {
                assertThat(route.toString()).doesNotContain(TOOL);
            }
        }
    }

    @Test
    void a_denied_principal_gets_what_a_catalog_without_the_tool_gives() throws Exception {
        AccessPolicy denyWebhook = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "webhook", AccessRule.Subject.USER, "ann")));
        List<JsonNode> seen = new ArrayList<>();
        List<String> routes = new ArrayList<>();
        for (boolean denied : new boolean[] {true, false}) {
            List<ToolSpec> tools = denied ? tools(b -> b) : tools(b -> b).subList(1, 2);
            try (ToolScout scout = open(denied ? "denied" : "missing", tools, denied ? denyWebhook : null)) {
                fake.text("anthropic", "I cannot list webhooks.");
                AgentResult r = agent(scout).run("conv-1", ANN, MESSAGE);
                assertThat(r.text()).isEqualTo("I cannot list webhooks.");
                routes.add(r.usage().json().path("route").toString());
                seen.add(fake.requests().get(fake.requests().size() - 1));
            }
        }
        assertThat(ran).isEmpty();
        assertThat(routes.get(0)).isEqualTo(routes.get(1)).doesNotContain(TOOL);
        // the model got the same request: the same tools, the same system prompt, no trace of the denied tool
        assertThat(seen.get(0).path("tools")).isEqualTo(seen.get(1).path("tools"));
        assertThat(seen.get(0).path("system")).isEqualTo(seen.get(1).path("system"));
        assertThat(seen.get(0).toString()).doesNotContain(TOOL);
    }
}
