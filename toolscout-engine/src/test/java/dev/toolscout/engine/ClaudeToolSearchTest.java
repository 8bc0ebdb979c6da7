package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.model.Principal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claude's tool search through the Java API, on the demo catalog with the real model: {@link
 * RenderFormat#ANTHROPIC_DEFERRED} and {@link FindResult#toolReferences()} against the shapes Anthropic defines.
 *
 * <p>The shapes, as read in Anthropic's documentation (platform.claude.com/docs/en/agents-and-tools/tool-use/
 * tool-search-tool, "Custom tool search implementation": tools sent with {@code "defer_loading": true}, and a search
 * tool of the client's own whose {@code tool_result} content is {@code tool_reference} blocks) and in the official
 * Java SDK (anthropics/anthropic-sdk-java): {@code com.anthropic.models.messages.Tool} is {@code name} and {@code
 * input_schema} (required, {@code type: "object"}), {@code description}, and the optional {@code defer_loading}
 * (boolean); {@code ToolReferenceBlockParam} is {@code type} (the constant {@code "tool_reference"}) and {@code
 * tool_name} (string), beside an optional {@code cache_control}. The SDK is not a dependency of this project (the
 * agent talks to providers through LangChain4j, whose Anthropic classes have neither field), so the fields are
 * checked here by name and type instead of parsed with its classes. Tool names must match {@code
 * ^[a-zA-Z0-9_-]{1,64}$}.
 */
class ClaudeToolSearchTest {
    private static final Pattern WIRE_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    private static final Set<String> TOOL_FIELDS = Set.of("name", "description", "input_schema", "defer_loading");
    private static final Principal EVE = new Principal("eve", null, null);
    private static final AccessPolicy DENY_EVE_GMAIL = new AccessPolicy(
            AccessRule.Effect.ALLOW,
            Map.of(),
            List.of(new AccessRule(
                    AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "gmail", AccessRule.Subject.USER, "eve")));

    @TempDir
    Path dir;

    /** Each tool checked against the documented shape; the names of the loaded and of the deferred, in order. */
    private static void split(JsonNode tools, List<String> loaded, List<String> deferred) {
        for (JsonNode t : tools) {
            List<String> fields = new ArrayList<>();
            t.fieldNames().forEachRemaining(fields::add);
            assertThat(TOOL_FIELDS).as(t.toString()).containsAll(fields);
            assertThat(t.path("name").isTextual()).isTrue();
            assertThat(t.path("name").asText()).matches(WIRE_NAME);
            assertThat(t.path("description").isTextual()).isTrue();
            assertThat(t.path("input_schema").path("type").asText()).isEqualTo("object");
            if (t.has("defer_loading")) {
                assertThat(t.path("defer_loading").isBoolean()).isTrue();
                assertThat(t.path("defer_loading").booleanValue()).isTrue();
                deferred.add(t.path("name").asText());
            } else {
                assertThat(deferred)
                        .as("loaded tools come before the deferred ones")
                        .isEmpty();
                loaded.add(t.path("name").asText());
            }
        }
    }

    @Test
    void deferred_rendering_loads_the_selection_and_the_search_tool_and_defers_every_other_visible_tool() {
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(DENY_EVE_GMAIL).build()) {
            SelectResult r =
                    scout.select(new SelectRequest("Schedule a meeting with the team tomorrow", EVE, 5, null, null));
            JsonNode out = scout.render(r, RenderFormat.ANTHROPIC_DEFERRED, EVE);

            List<String> fields = new ArrayList<>();
            out.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactly("system", "tools");
            List<String> loaded = new ArrayList<>();
            List<String> deferred = new ArrayList<>();
            split(out.path("tools"), loaded, deferred);
            List<String> selected = new ArrayList<>(
                    r.selected().stream().map(SelectResult.SelectedTool::name).toList());
            if (!selected.contains("tool_discovery__find")) {
                selected.add("tool_discovery__find");
            }
            assertThat(loaded).isEqualTo(selected);
            List<String> visible = scout.list(EVE, null, 0, ToolPage.MAX_LIMIT).tools().stream()
                    .map(ToolPage.ToolSummary::name)
                    .toList();
            assertThat(deferred)
                    .isEqualTo(visible.stream().filter(n -> !loaded.contains(n)).toList())
                    .isSortedAccordingTo(String::compareTo)
                    .doesNotContain("tool_discovery__find");
            List<String> all = new ArrayList<>(loaded);
            all.addAll(deferred);
            assertThat(all).doesNotHaveDuplicates().containsAll(visible);
            // access first: the denied source is no tool of the list, nor named by the prompt (other tools'
            // descriptions may quote it as an example: "e.g. 'gmail__search_emails'")
            assertThat(all).noneMatch(n -> n.startsWith("gmail__"));
            assertThat(out.path("system").asText()).doesNotContain("gmail__");
            assertThat(out.path("system").asText())
                    .contains("# Deferred tools\n\n" + deferred.size() + " more tools are not loaded yet. Call "
                            + "tool_discovery__find");
            // the anonymous principal may see gmail: it is deferred for them
            SelectResult anon = scout.select(SelectRequest.of("Schedule a meeting with the team tomorrow"));
            List<String> anonDeferred = new ArrayList<>();
            split(
                    scout.render(anon, RenderFormat.ANTHROPIC_DEFERRED, null).path("tools"),
                    new ArrayList<>(),
                    anonDeferred);
            assertThat(anonDeferred).contains("gmail__send_email");
        }
    }

    @Test
    void tool_references_name_only_tools_the_deferred_list_sends_and_never_a_denied_one() {
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(DENY_EVE_GMAIL).build()) {
            SelectResult r = scout.select(new SelectRequest("What is on my calendar today?", EVE, 3, null, null));
            List<String> loaded = new ArrayList<>();
            List<String> deferred = new ArrayList<>();
            split(scout.render(r, RenderFormat.ANTHROPIC_DEFERRED, EVE).path("tools"), loaded, deferred);

            JsonNode refs = scout.find(EVE, "send an email to a colleague", 10).toolReferences();

            assertThat(refs).isNotEmpty();
            List<String> named = new ArrayList<>();
            for (JsonNode b : refs) {
                List<String> fields = new ArrayList<>();
                b.fieldNames().forEachRemaining(fields::add);
                assertThat(fields).containsExactly("type", "tool_name");
                assertThat(b.path("type").asText()).isEqualTo("tool_reference");
                assertThat(b.path("tool_name").isTextual()).isTrue();
                named.add(b.path("tool_name").asText());
            }
            assertThat(named)
                    .allMatch(n -> deferred.contains(n) || loaded.contains(n))
                    .noneMatch(n -> n.startsWith("gmail__"))
                    .doesNotContain("tool_discovery__find");
            assertThat(named.stream().filter(deferred::contains)).isNotEmpty();
            // the anonymous principal finds gmail, as a reference its own deferred list resolves
            assertThat(scout.find(null, "send an email to a colleague", 10)
                            .toolReferences()
                            .toString())
                    .contains("{\"type\":\"tool_reference\",\"tool_name\":\"gmail__send_email\"}");
        }
    }

    @Test
    void a_selection_is_rendered_deferred_only_for_a_principal_who_may_see_all_of_it() {
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(DENY_EVE_GMAIL).build()) {
            SelectResult forAnyone = scout.select(SelectRequest.of("send an email to Ann"));
            assertThat(forAnyone.selected()).anyMatch(t -> t.name().equals("gmail__send_email"));

            assertThatThrownBy(() -> scout.render(forAnyone, RenderFormat.ANTHROPIC_DEFERRED, EVE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("renders a selection for the principal it was selected for")
                    .hasMessageNotContaining("gmail");
            assertThatThrownBy(() -> scout.render(forAnyone, RenderFormat.ANTHROPIC_DEFERRED))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("render(result, format, principal)");
            assertThat(scout.render(forAnyone, RenderFormat.ANTHROPIC, EVE))
                    .isEqualTo(scout.render(forAnyone, RenderFormat.ANTHROPIC));
        }
    }

    @Test
    void without_a_search_tool_the_principal_may_use_nothing_is_deferred() {
        AccessPolicy noDiscovery = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY,
                        AccessRule.Target.SOURCE,
                        "tool_discovery",
                        AccessRule.Subject.EVERYONE,
                        null)));
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(noDiscovery).build()) {
            SelectResult r = scout.select(SelectRequest.of("Schedule a meeting with the team tomorrow"));
            JsonNode out = scout.render(r, RenderFormat.ANTHROPIC_DEFERRED, null);

            List<String> loaded = new ArrayList<>();
            List<String> deferred = new ArrayList<>();
            split(out.path("tools"), loaded, deferred);
            assertThat(deferred).isEmpty();
            assertThat(loaded)
                    .isEqualTo(r.selected().stream()
                            .map(SelectResult.SelectedTool::name)
                            .toList());
            assertThat(out.toString()).doesNotContain("tool_discovery__");
        }
    }
}
