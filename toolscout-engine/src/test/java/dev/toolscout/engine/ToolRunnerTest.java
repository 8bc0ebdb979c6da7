package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** How an application runs a tool by name: {@link ToolRunner} over the call gate, on a real data directory. */
@ResourceLock(LogCapture.LOGGERS)
class ToolRunnerTest {
    static final Principal ANN = new Principal("ann", null, null);
    static final Principal BOB = new Principal("bob", null, null);

    @TempDir
    Path dir;

    final List<ToolInvocation> ran = new CopyOnWriteArrayList<>();

    private ToolScout open() {
        AccessPolicy policy = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.TOOL,
                                "crm__delete_customer",
                                AccessRule.Subject.USER,
                                "bob"),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.TOOL,
                                "app__export",
                                AccessRule.Subject.USER,
                                "bob")));
        // the policy names the application's own tool (app__export), which the catalog does not hold: the engine says
        // at open that the rule matches no known tool
        try (LogCapture log = LogCapture.of(LocalToolScout.class)) {
            ToolScout scout = ToolScout.builder()
                    .dataDir(dir)
                    .policyOverride(policy)
                    .tools(List.of(
                            ToolSpec.builder("crm__find_customer", "Find a customer")
                                    .build(),
                            ToolSpec.builder("crm__delete_customer", "Delete a customer")
                                    .build(),
                            ToolSpec.builder("shell__run", "Run a command")
                                    .aiAccess(AiAccess.BLOCKED)
                                    .build(),
                            ToolSpec.builder("hr__list_staff", "List the staff")
                                    .sourceKind(SourceKind.OPENAPI)
                                    .build(),
                            ToolSpec.builder("wiki__search", "Search the wiki").build()))
                    .build();
            assertThat(log.warnings())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("app__export", "matches no known tool");
            return scout;
        }
    }

    private ToolRunner runner(ToolScout scout) {
        return ToolRunner.builder(scout)
                .executor("crm", call -> record("crm", call))
                .executor("shell", call -> record("shell", call))
                .executor(SourceKind.OPENAPI, call -> record("openapi", call))
                .tools(
                        List.of(ToolSpec.builder("app__export", "Export the data")
                                .build()),
                        call -> record("app", call))
                .build();
    }

    private ToolResult record(String by, ToolInvocation call) {
        ran.add(call);
        return ToolResult.of(call.arguments().put("ran_by", by));
    }

    private static ToolCalls.Outcome<ToolResult> call(ToolRunner runner, Principal p, String tool, String args)
            throws InterruptedException {
        return runner.call(new ToolCalls.Request(p, null, "test", "conv-1", tool, args, null), ToolCalls.noApprovals());
    }

    @Test
    void a_tool_runs_by_the_executor_of_its_source_else_of_its_kind() throws Exception {
        try (ToolScout scout = open()) {
            ToolRunner runner = runner(scout);
            assertThat(call(runner, ANN, "crm__find_customer", "{\"name\": \"Ada\"}"))
                    .isInstanceOfSatisfying(
                            ToolCalls.Outcome.Ran.class,
                            r -> assertThat(((ToolResult) r.result())
                                            .output()
                                            .path("ran_by")
                                            .asText())
                                    .isEqualTo("crm"));
            assertThat(call(runner, ANN, "hr__list_staff", "{}"))
                    .isInstanceOfSatisfying(
                            ToolCalls.Outcome.Ran.class,
                            r -> assertThat(((ToolResult) r.result())
                                            .output()
                                            .path("ran_by")
                                            .asText())
                                    .isEqualTo("openapi"));
            assertThat(call(runner, ANN, "app__export", "{}")).isInstanceOf(ToolCalls.Outcome.Ran.class);
            assertThat(ran).extracting(ToolInvocation::conversationId).containsOnly("conv-1");
            assertThat(ran).extracting(ToolInvocation::principal).containsOnly(ANN);
            // found, but nothing here runs it
            assertThat(runner.resolve(ANN, "wiki__search")).isPresent();
            assertThat(runner.runs(runner.resolve(ANN, "wiki__search").orElseThrow()))
                    .isFalse();
            assertThat(call(runner, ANN, "wiki__search", "{}"))
                    .isInstanceOfSatisfying(
                            ToolCalls.Outcome.Failed.class,
                            f -> assertThat(f.message()).contains("wiki__search is not executable here"));
            // ToolScout's own tools run without an executor
            assertThat(runner.runs(scout.ownTool(ANN, null, "tool_discovery__find")
                            .orElseThrow()
                            .spec()))
                    .isTrue();
            assertThat(call(runner, ANN, "tool_discovery__find", "{\"query\": \"customer\"}"))
                    .isInstanceOf(ToolCalls.Outcome.Ran.class);
        }
    }

    @Test
    void a_denied_a_blocked_and_a_missing_tool_read_alike_and_never_run() throws Exception {
        try (ToolScout scout = open()) {
            ToolRunner runner = runner(scout);
            for (String tool : List.of("crm__delete_customer", "app__export", "shell__run", "crm__nope")) {
                assertThat(runner.resolve(BOB, tool)).as(tool).isEmpty();
                assertThat(runner.target(BOB, null, tool)).as(tool).isEmpty();
                assertThat(call(runner, BOB, tool, "{\"id\": 1}"))
                        .as(tool)
                        .isEqualTo(new ToolCalls.Outcome.NotFound<ToolResult>(tool));
            }
            assertThat(ran).isEmpty();
            assertThat(runner.resolve(ANN, "crm__delete_customer")).isPresent();
            assertThat(runner.resolve(ANN, "app__export")).isPresent();
            assertThat(runner.isApplicationTool("app__export")).isTrue();
            assertThat(runner.isApplicationTool("crm__find_customer")).isFalse();
        }
    }
}
