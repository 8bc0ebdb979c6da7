package dev.toolscout.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.access.AccessPolicyJson;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.approval.Approvals;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * Invariant 1 through Spring AI: a tool a principal may not see is never found by the search advisor, never offered
 * by the callback provider, and a call of it reads exactly as a call of a missing tool; for several principals, each
 * of whom sees a different set (so a filter that ignored the principal would fail here).
 */
class DeniedToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<ToolInvocation> RAN = Collections.synchronizedList(new ArrayList<>());
    private static final ToolExecutor RECORDING = call -> {
        RAN.add(call);
        return ToolResult.of(JSON.createObjectNode().put("ran", call.tool().fullName()));
    };

    static final Principal ANONYMOUS = Principal.ANONYMOUS;
    static final Principal ALICE = new Principal("alice", "staff", null);
    static final Principal BOB = new Principal("bob", "staff", null);
    static final Principal CAROL = new Principal("carol", "contractors", null);

    /** What each principal may not see: the vault is staff only (not bob), payroll not for contractors. */
    static final Map<Principal, Set<String>> DENIED = Map.of(
            ANONYMOUS, Set.of("vault__read_secret", "nuke__launch"),
            ALICE, Set.of("nuke__launch"),
            BOB, Set.of("vault__read_secret", "nuke__launch"),
            CAROL, Set.of("vault__read_secret", "payroll__run_payroll", "nuke__launch"));

    static final List<String> QUERIES = List.of(
            "read a secret from the vault",
            "run the monthly payroll",
            "launch the missiles",
            "weather forecast for a city");

    @TempDir
    static Path dir;

    static ToolScout scout;
    static ToolScoutToolCallbackProvider provider;

    static List<ToolSpec> catalog() {
        return List.of(
                ToolSpec.builder("vault__read_secret", "Read a secret from the vault by its path")
                        .category("secrets")
                        .build(),
                ToolSpec.builder("payroll__run_payroll", "Run the monthly payroll for all employees")
                        .category("finance")
                        .sideEffect(SideEffect.WRITE)
                        .build(),
                ToolSpec.builder("nuke__launch", "Launch the missiles at a city")
                        .aiAccess(AiAccess.BLOCKED)
                        .build(),
                ToolSpec.builder("weather__forecast", "Get the weather forecast for a city")
                        .build(),
                ToolSpec.builder("files__delete_file", "Delete a file from the shared drive")
                        .aiAccess(AiAccess.PROPOSE)
                        .sideEffect(SideEffect.DELETE)
                        .build());
    }

    @BeforeAll
    static void open() throws Exception {
        scout = ToolScout.builder()
                .dataDir(dir)
                .tools(catalog())
                .coreTools(List.of())
                .policyOverride(AccessPolicyJson.fromJson(JSON.readTree("""
                                {"rules": [
                                  {"effect": "deny", "source": "vault"},
                                  {"effect": "allow", "tool": "vault__read_secret", "group": "staff"},
                                  {"effect": "deny", "tool": "vault__read_secret", "user": "bob"},
                                  {"effect": "deny", "source": "payroll", "group": "contractors"}
                                ]}"""), "test"))
                .build();
        ToolRunner runner = ToolRunner.builder(scout)
                .executor(SourceKind.INTEGRATION, RECORDING)
                .build();
        provider = new ToolScoutToolCallbackProvider(
                new ToolScoutToolIndex(runner), new ToolScoutToolCallbacks(runner), PrincipalResolver.fromContext());
    }

    @AfterAll
    static void close() {
        scout.close();
    }

    static List<String> names(ToolCallback[] callbacks) {
        return Arrays.stream(callbacks).map(c -> c.getToolDefinition().name()).toList();
    }

    static List<String> names(ToolCallbackProvider p) {
        return names(p.getToolCallbacks());
    }

    @Test
    void the_provider_never_offers_a_tool_the_principal_may_not_see() {
        List<String> all = catalog().stream().map(ToolSpec::fullName).toList();
        for (var e : DENIED.entrySet()) {
            Principal p = e.getKey();
            List<String> allowed =
                    all.stream().filter(n -> !e.getValue().contains(n)).toList();
            var forContext = new ToolScoutToolCallbackProvider(
                    provider.index(), provider.callbacks(), PrincipalResolver.fixed(p));
            assertThat(names(forContext)).as("getToolCallbacks for %s", p).containsExactlyInAnyOrderElementsOf(allowed);
            assertThat(names(provider.forPrincipal(p, null)))
                    .as("forPrincipal %s", p)
                    .containsExactlyInAnyOrderElementsOf(allowed);
            for (String q : QUERIES) {
                assertThat(names(provider.forMessage(p, q, 5, null)))
                        .as("forMessage %s '%s'", p, q)
                        .doesNotContainAnyElementsOf(e.getValue())
                        .isNotEmpty();
            }
        }
        // the vault is alice's: the filter goes by the principal, not by the tool alone
        assertThat(names(provider.forMessage(ALICE, QUERIES.get(0), 5, null))).contains("vault__read_secret");
    }

    @Test
    void the_search_advisor_never_finds_a_tool_the_principal_may_not_see() {
        ToolScoutSearchAdvisor advisor =
                ToolScoutSearchAdvisor.builder(provider).build();
        for (var e : DENIED.entrySet()) {
            Principal p = e.getKey();
            ScriptedChatModel model = new ScriptedChatModel();
            for (String q : QUERIES) {
                model.then(ScriptedChatModel.call(ToolScoutSearchAdvisor.SEARCH_TOOL, "{\"query\": \"" + q + "\"}"));
            }
            model.then(ScriptedChatModel.answer("done"));
            String answer = ChatClient.builder(model)
                    .build()
                    .prompt()
                    .user("I need several things done")
                    .advisors(advisor)
                    .advisors(a -> a.param(PrincipalResolver.PRINCIPAL, p))
                    .call()
                    .content();
            assertThat(answer).isEqualTo("done");
            assertThat(model.prompts).hasSize(QUERIES.size() + 1);
            List<String> offered = new ArrayList<>();
            for (int i = 0; i < model.prompts.size(); i++) {
                offered.addAll(model.toolsOf(i));
            }
            List<String> answers = searchAnswers(model.prompts.getLast().getInstructions());
            assertThat(answers).as("search answers for %s", p).hasSize(QUERIES.size());
            for (String denied : e.getValue()) {
                assertThat(offered).as("tools sent for %s", p).doesNotContain(denied);
                assertThat(answers).as("search answers for %s", p).noneMatch(a -> a.contains(denied));
            }
            assertThat(offered).as("tools sent for %s", p).contains("weather__forecast");
            if (p.equals(ALICE)) {
                assertThat(offered).contains("vault__read_secret", "payroll__run_payroll");
            }
        }
    }

    static List<String> searchAnswers(List<Message> history) {
        List<String> out = new ArrayList<>();
        for (Message m : history) {
            if (m instanceof ToolResponseMessage t) {
                t.getResponses().stream()
                        .filter(r -> r.name().equals(ToolScoutSearchAdvisor.SEARCH_TOOL))
                        .forEach(r -> out.add(r.responseData()));
            }
        }
        return out;
    }

    @Test
    void calling_a_denied_tool_reads_exactly_as_calling_a_missing_one() {
        ToolScoutToolCallbacks callbacks = provider.callbacks();
        for (var e : DENIED.entrySet()) {
            for (String denied : e.getValue()) {
                String answer = callbacks.call(e.getKey(), null, denied, "{}");
                String missing = callbacks.call(e.getKey(), null, "nosuch__tool", "{}");
                assertThat(answer.replace(denied, "NAME"))
                        .as("%s calling %s", e.getKey(), denied)
                        .isEqualTo(missing.replace("nosuch__tool", "NAME"))
                        .isEqualTo("Tool not found: NAME");
            }
        }
        RAN.clear();
        assertThat(callbacks.call(ALICE, null, "vault__read_secret", "{}")).contains("\"ran\":\"vault__read_secret\"");
        assertThat(RAN).singleElement().satisfies(c -> assertThat(c.principal()).isEqualTo(ALICE));
    }

    @Test
    void a_proposed_call_is_held_in_the_approval_queue_and_runs_once_approved() {
        ToolScoutToolCallbacks callbacks = provider.callbacks();
        RAN.clear();
        String args = "{\"path\": \"/shared/old.txt\"}";
        String held;
        try (LogCapture log = LogCapture.of(ToolRunner.class)) {
            held = callbacks.call(ALICE, "conv-1", "files__delete_file", args);
            // the operator is told how to decide it
            assertThat(log.warnings())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("spring-ai:alice asks to run files__delete_file", "toolscout approvals approve");
        }
        StoredApproval pending = scout.approvals().list().stream()
                .filter(a -> a.tool().equals("files__delete_file"))
                .findFirst()
                .orElseThrow();
        assertThat(held)
                .contains("approval request " + pending.id() + " is pending")
                .contains("same arguments");
        assertThat(pending.requester()).isEqualTo("spring-ai:alice");
        assertThat(RAN).isEmpty();

        scout.approvals().decide(pending.id(), true, Approvals.Approver.operator("ops"));
        assertThat(callbacks.call(ALICE, "conv-1", "files__delete_file", args))
                .contains("\"ran\":\"files__delete_file\"");
        assertThat(RAN)
                .singleElement()
                .satisfies(c -> assertThat(c.arguments().path("path").asText()).isEqualTo("/shared/old.txt"));
    }
}
