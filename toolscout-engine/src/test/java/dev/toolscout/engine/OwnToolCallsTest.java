package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ToolScout's own tools through the one call gate ({@link ToolCalls#call} with {@link ToolScout#ownTool}), as the
 * agent loop, the HTTP API and {@link ToolScout#callMetaTool} call them, on a real data directory.
 */
class OwnToolCallsTest {
    static final Principal ANN = new Principal("ann", "eng", "team-a");
    static final Principal BOB = new Principal("bob", "eng", "team-b");

    @TempDir
    Path dir;

    private static ObjectNode args(String field, String value) {
        return JsonNodeFactory.instance.objectNode().put(field, value);
    }

    private static ToolCalls.Outcome<ToolCallResult> call(
            ToolScout scout, Principal p, Role role, String tool, String raw) throws InterruptedException {
        return ToolCalls.call(
                new ToolCalls.Request(p, role, null, null, tool, raw, null),
                (who, name) -> scout.ownTool(who, null, name),
                ToolCalls.noApprovals());
    }

    @Test
    void a_denied_memory_tool_and_a_missing_name_are_the_same_not_found_before_the_arguments_are_read()
            throws Exception {
        AccessPolicy deny = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "memory", AccessRule.Subject.USER, "bob")));
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(deny).build()) {
            assertThat(scout.ownTool(BOB, null, "memory__store")).isEmpty();
            assertThat(scout.ownTool(BOB, null, "gmail__send_email")).isEmpty();
            assertThat(call(scout, BOB, null, "memory__store", "not json"))
                    .isEqualTo(new ToolCalls.Outcome.NotFound<ToolCallResult>("memory__store"));
            assertThat(call(scout, BOB, null, "memory__nope", "not json"))
                    .isEqualTo(new ToolCalls.Outcome.NotFound<ToolCallResult>("memory__nope"));
            assertThat(scout.ownTool(ANN, null, "memory__store")).isPresent();
        }
    }

    @Test
    void a_memory_tool_goes_by_the_catalogs_definition_for_access_and_the_built_in_one_for_the_role() throws Exception {
        // a catalog entry of the memory tool's name that says BLOCKED: the tool reads as missing, as in a listing
        ToolSpec blocked = ToolSpec.builder("memory__search", "Search memories.")
                .aiAccess(AiAccess.BLOCKED)
                .build();
        ToolSpec described = ToolSpec.builder("memory__recall", "Recall a memory.")
                .sideEffect(SideEffect.WRITE)
                .build();
        try (ToolScout scout = ToolScout.builder()
                .dataDir(dir)
                .tools(List.of(blocked, described))
                .build()) {
            assertThat(call(scout, ANN, null, "memory__search", "{\"query\": \"x\"}"))
                    .isEqualTo(new ToolCalls.Outcome.NotFound<ToolCallResult>("memory__search"));
            assertThat(scout.callMetaTool(ANN, null, "memory__search", args("query", "x"))
                            .error())
                    .isEqualTo("Tool not found: memory__search");

            // the role goes by the built-in memory__recall (reads), not the catalog's description of it
            Optional<ToolCalls.Target<ToolCallResult>> recall = scout.ownTool(ANN, null, "memory__recall");
            assertThat(recall.orElseThrow().spec())
                    .isEqualTo(scout.describe(ANN, "memory__recall").orElseThrow());
            assertThat(recall.orElseThrow().governs().sideEffect()).isEqualTo(SideEffect.READ);
            assertThat(call(scout, ANN, Role.READER, "memory__recall", "{\"memory_id\": \"mem_0\"}"))
                    .isInstanceOf(ToolCalls.Outcome.Ran.class);
            // a reader never writes
            assertThat(call(scout, ANN, Role.READER, "memory__store", "{\"content\": \"x\"}"))
                    .isInstanceOf(ToolCalls.Outcome.Refused.class);
        }
    }

    @Test
    void call_meta_tool_answers_through_the_gate_and_throws_what_the_tool_throws() throws Exception {
        try (ToolScout holder = ToolScout.builder().dataDir(dir).build()) {
            ToolCallResult stored =
                    holder.callMetaTool(ANN, "conv-1", "memory__store", args("content", "The gate is one."));
            assertThat(stored.isError()).isFalse();
            // arguments that are no JSON object get the gate's answer, as on every other edge
            assertThat(holder.callMetaTool(
                                    ANN,
                                    null,
                                    "memory__search",
                                    JsonNodeFactory.instance.arrayNode().add(1))
                            .error())
                    .isEqualTo("memory__search: the arguments must be a JSON object, got: [1]");
            assertThatThrownBy(
                            () -> holder.callMetaTool(ANN, "no spaces allowed", "memory__search", args("query", "x")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("conversation");
            assertThatThrownBy(() -> holder.callMetaTool(ANN, null, "gmail__send_email", args("to", "x")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not one of ToolScout's own tools");
        }
        try (ToolScout reader = ToolScout.builder().dataDir(dir).readOnly(true).build()) {
            assertThatThrownBy(() -> reader.callMetaTool(ANN, null, "memory__store", args("content", "x")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot run memory__store: ");
            // through the gate of another edge, the same refusal is a failed call naming the tool
            ToolCalls.Outcome<ToolCallResult> o = call(reader, ANN, null, "memory__store", "{\"content\": \"x\"}");
            assertThat(o)
                    .isInstanceOfSatisfying(
                            ToolCalls.Outcome.Failed.class,
                            f -> assertThat(f.message())
                                    .startsWith("memory__store failed: cannot run memory__store: "));
            assertThat(reader.callMetaTool(ANN, null, "memory__search", args("query", "gate"))
                            .isError())
                    .isFalse();
        }
    }

    @Test
    void whether_a_memory_tool_writes_goes_by_the_built_in_definition_whatever_the_catalog_says() throws Exception {
        // the catalog calls the write a read: a read-only instance still refuses it, as the role does (the built-in
        // definition is what runs)
        ToolSpec storeAsRead = ToolSpec.builder("memory__store", "Note something.")
                .sideEffect(SideEffect.READ)
                .build();
        try (ToolScout holder =
                ToolScout.builder().dataDir(dir).tools(List.of(storeAsRead)).build()) {
            assertThat(holder.describe(ANN, "memory__store").orElseThrow().sideEffect())
                    .isEqualTo(SideEffect.READ);
            assertThat(call(holder, ANN, Role.READER, "memory__store", "{\"content\": \"x\"}"))
                    .isInstanceOf(ToolCalls.Outcome.Refused.class);
        }
        try (ToolScout reader = ToolScout.builder().dataDir(dir).readOnly(true).build()) {
            assertThat(reader.describe(ANN, "memory__store").orElseThrow().sideEffect())
                    .isEqualTo(SideEffect.READ);
            assertThatThrownBy(() -> reader.callMetaTool(ANN, null, "memory__store", args("content", "x")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot run memory__store: ");
        }
        try (ToolScout holder = ToolScout.builder().dataDir(dir).build()) {
            assertThat(holder.maintenance().store().loadMemories()).isEmpty();
        }
    }
}
