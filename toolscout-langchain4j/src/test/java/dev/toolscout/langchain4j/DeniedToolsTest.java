package dev.toolscout.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.AiServiceTool;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.langchain4j.service.tool.search.ToolSearchRequest;
import dev.langchain4j.service.tool.search.ToolSearchResult;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 1 through LangChain4j's hooks: a tool a principal may not see (denied by a tool, source or group rule, or
 * {@code BLOCKED}) is never found by the search strategy, never provided by the provider, and a call of it reads
 * exactly as a call of a missing tool, for several principals and queries (the real embedding model, ToolScout's own
 * store and index).
 */
class DeniedToolsTest {
    static final Principal ALICE = new Principal("alice", null, null);
    static final Principal BOB = new Principal("bob", null, null);
    static final Principal CAROL = new Principal("carol", "guests", null);

    /** Each principal's tools it may not see. */
    static final Map<Principal, Set<String>> DENIED = Map.of(
            ALICE,
            Set.of("shell__run_command"),
            BOB,
            Set.of("shell__run_command", "files__delete_file"),
            CAROL,
            Set.of("shell__run_command", "crm__find_customer", "crm__update_customer"),
            Principal.ANONYMOUS,
            Set.of("shell__run_command"));

    static final List<String> QUERIES = List.of(
            "delete a file from the shared drive",
            "run a shell command on the server",
            "look up a customer record",
            "change a customer's address",
            "send an email to the team",
            "what is the weather tomorrow",
            "book a meeting on my calendar");

    @TempDir
    static Path tmp;

    static ToolScout scout;
    static ToolRunner runner;
    static final List<String> ran = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void open() {
        List<ToolSpec> tools = List.of(
                ToolSpec.builder("files__delete_file", "Delete a file from the shared drive")
                        .build(),
                ToolSpec.builder("files__read_file", "Read a file from the shared drive")
                        .build(),
                ToolSpec.builder("crm__find_customer", "Look up a customer record by name")
                        .build(),
                ToolSpec.builder("crm__update_customer", "Change a customer's address or phone number")
                        .build(),
                ToolSpec.builder("mail__send_email", "Send an email to people").build(),
                ToolSpec.builder("weather__get_forecast", "Get the weather forecast for a city")
                        .build(),
                ToolSpec.builder("calendar__create_event", "Book a meeting on the calendar")
                        .build(),
                ToolSpec.builder("shell__run_command", "Run a shell command on the server")
                        .aiAccess(AiAccess.BLOCKED)
                        .build());
        AccessPolicy policy = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.TOOL,
                                "files__delete_file",
                                AccessRule.Subject.USER,
                                "bob"),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "crm",
                                AccessRule.Subject.GROUP,
                                "guests")));
        scout = ToolScout.builder()
                .dataDir(tmp.resolve("data"))
                .tools(tools)
                .policyOverride(policy)
                .build();
        ToolRunner.Builder b = ToolRunner.builder(scout);
        for (String source : List.of("files", "crm", "mail", "weather", "calendar", "shell")) {
            b.executor(source, call -> {
                ran.add(call.tool().fullName());
                return ToolResult.of(call.arguments());
            });
        }
        runner = b.build();
    }

    @AfterAll
    static void close() {
        scout.close();
    }

    static InvocationContext invocation(Principal p) {
        return InvocationContext.builder().chatMemoryId("conv-" + p.user()).build();
    }

    static Function<InvocationContext, Principal> as(Principal p) {
        return c -> p;
    }

    @Test
    void a_denied_tool_is_never_found_nor_provided_nor_run() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<Principal> principals = new ArrayList<>(DENIED.keySet());
        for (int round = 0; round < 20; round++) {
            Principal p = principals.get(random.nextInt(principals.size()));
            String query = QUERIES.get(random.nextInt(QUERIES.size()));
            String why = "seed " + seed + ", round " + round + ": " + p + " asking '" + query + "'";
            Set<String> denied = DENIED.get(p);
            ToolScoutToolProvider searchable = ToolScoutToolProvider.builder(runner)
                    .principal(as(p))
                    .searchable(true)
                    .k(3)
                    .build();
            ToolScoutToolProvider dynamic =
                    ToolScoutToolProvider.builder(runner).principal(as(p)).build();
            ToolProviderRequest request = ToolProviderRequest.builder()
                    .invocationContext(invocation(p))
                    .userMessage(UserMessage.from(query))
                    .build();
            ToolProviderResult provided = searchable.provideTools(request);
            Set<String> names =
                    provided.aiServiceTools().stream().map(AiServiceTool::name).collect(Collectors.toSet());
            assertThat(names).as(why).isNotEmpty().doesNotContainAnyElementsOf(denied);
            assertThat(dynamic.provideTools(request).aiServiceTools())
                    .as(why)
                    .extracting(AiServiceTool::name)
                    .doesNotContainAnyElementsOf(denied);
            // the strategy searches what the AI Service has: give it every tool's name, the denied ones too
            List<ToolSpecification> all = new ArrayList<>();
            provided.aiServiceTools().forEach(t -> all.add(t.toolSpecification()));
            denied.forEach(d -> all.add(ToolSpecification.builder().name(d).build()));
            ToolSearchResult found = ToolScoutToolSearchStrategy.builder(scout)
                    .principal(as(p))
                    .limit(10)
                    .build()
                    .search(ToolSearchRequest.builder()
                            .toolExecutionRequest(ToolExecutionRequest.builder()
                                    .id("s1")
                                    .name(ToolScoutToolSearchStrategy.TOOL_NAME)
                                    .arguments("{\"query\": \"" + query + "\"}")
                                    .build())
                            .searchableTools(all)
                            .invocationContext(invocation(p))
                            .build());
            assertThat(found.foundToolNames()).as(why).doesNotContainAnyElementsOf(denied);
            for (String d : denied) {
                assertThat(found.toolResultMessageText()).as(why).doesNotContain(d);
            }
        }
    }

    @Test
    void a_call_of_a_denied_tool_reads_as_a_call_of_a_missing_one() {
        // the default principal: the chat memory id as the user id
        ToolScoutToolProvider provider =
                ToolScoutToolProvider.builder(runner).searchable(true).build();
        InvocationContext bob = InvocationContext.builder().chatMemoryId("bob").build();
        InvocationContext alice =
                InvocationContext.builder().chatMemoryId("alice").build();
        ToolProviderResult provided = provider.provideTools(ToolProviderRequest.builder()
                .invocationContext(bob)
                .userMessage(UserMessage.from("read a file"))
                .build());
        // every tool shares one executor: call the denied, the blocked and a missing tool through it
        ToolExecutor executor = provided.aiServiceTools().get(0).toolExecutor();
        Map<String, ToolExecutionResult> results = new HashMap<>();
        for (String name : List.of("files__delete_file", "shell__run_command", "files__no_such_tool")) {
            results.put(
                    name,
                    executor.executeWithContext(
                            ToolExecutionRequest.builder()
                                    .id("c1")
                                    .name(name)
                                    .arguments("{\"path\": \"/etc/passwd\"}")
                                    .build(),
                            bob));
        }
        results.forEach((name, r) -> {
            assertThat(r.isError()).as(name).isTrue();
            assertThat(r.resultText()).as(name).isEqualTo("Tool not found: " + name);
        });
        assertThat(ran).doesNotContain("files__delete_file", "shell__run_command");
        // and alice, who may, runs it
        ToolExecutionResult alices = executor.executeWithContext(
                ToolExecutionRequest.builder()
                        .id("c2")
                        .name("files__delete_file")
                        .arguments("{\"path\": \"notes.txt\"}")
                        .build(),
                alice);
        assertThat(alices.isError()).isFalse();
        assertThat(alices.resultText()).isEqualTo("{\"path\":\"notes.txt\"}");
        assertThat(ran).containsExactly("files__delete_file");
    }
}
