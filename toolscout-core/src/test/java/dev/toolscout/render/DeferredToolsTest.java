package dev.toolscout.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wire forms of Claude's tool search against the shapes Anthropic defines (the tool search tool page's "Custom
 * tool search implementation", and the official Java SDK's {@code com.anthropic.models.messages.Tool}, field {@code
 * defer_loading}, and {@code ToolReferenceBlockParam}, {@code {"type": "tool_reference", "tool_name"}}): exactly
 * those fields, of those types, and nothing else.
 */
class DeferredToolsTest {
    private static ToolSpec tool(String name) {
        return ToolSpec.builder(name, "Does " + name + ".").build();
    }

    private static List<String> fields(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void loaded_tools_come_first_without_defer_loading_and_deferred_ones_carry_it_true() {
        ArrayNode tools = DeferredTools.tools(
                List.of(tool("mail__send"), tool("tool_discovery__find")),
                List.of(tool("calendar__create_event"), tool("drive__upload")),
                DeferredTools.MAX_TOOLS);

        assertThat(tools).hasSize(4);
        assertThat(tools.get(0).path("name").asText()).isEqualTo("mail__send");
        assertThat(fields(tools.get(0))).containsExactlyInAnyOrder("name", "description", "input_schema");
        assertThat(fields(tools.get(1))).containsExactlyInAnyOrder("name", "description", "input_schema");
        for (JsonNode t : List.of(tools.get(2), tools.get(3))) {
            assertThat(fields(t)).containsExactlyInAnyOrder("name", "description", "input_schema", "defer_loading");
            assertThat(t.path("defer_loading").isBoolean()).isTrue();
            assertThat(t.path("defer_loading").booleanValue()).isTrue();
            assertThat(t.path("input_schema").path("type").asText()).isEqualTo("object");
        }
        assertThat(tools.get(3).path("name").asText()).isEqualTo("drive__upload");
    }

    @Test
    void more_tools_than_the_cap_are_refused_naming_the_cap_and_the_count() {
        List<ToolSpec> deferred = List.of(tool("a__one"), tool("a__two"), tool("a__three"));

        assertThat(DeferredTools.tools(List.of(tool("a__zero")), deferred, 4)).hasSize(4);
        assertThatThrownBy(() -> DeferredTools.tools(List.of(tool("a__zero")), deferred, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("format anthropic-deferred sends every tool the principal may see, at most 3 (Claude's "
                        + "tool search catalog limit), got: 4 tools; use format anthropic, whose tool_discovery__find "
                        + "finds the rest");
        assertThat(DeferredTools.MAX_TOOLS).isEqualTo(10_000);
    }

    @Test
    void a_reference_is_exactly_type_tool_reference_and_the_tool_name() {
        ArrayNode refs = DeferredTools.references(List.of("gmail__send_email", "slack__post"), "send");

        assertThat(refs.toString())
                .isEqualTo("[{\"type\":\"tool_reference\",\"tool_name\":\"gmail__send_email\"},"
                        + "{\"type\":\"tool_reference\",\"tool_name\":\"slack__post\"}]");
    }

    @Test
    void no_match_is_one_text_block_with_the_query_cut_so_the_result_is_never_empty() {
        assertThat(DeferredTools.references(List.of(), "xqzv").toString())
                .isEqualTo("[{\"type\":\"text\",\"text\":\"No tools match 'xqzv'.\"}]");
        String text = DeferredTools.references(List.of(), "q".repeat(5000))
                .get(0)
                .path("text")
                .asText();
        assertThat(text).hasSize("No tools match ''.".length() + 103).endsWith("...'.");
    }

    @Test
    void the_prompt_note_names_the_search_tool_only_when_something_is_deferred() {
        assertThat(DeferredTools.promptNote(0, "tool_discovery__find")).isEmpty();
        assertThat(DeferredTools.promptNote(1, "tool_discovery__find"))
                .isEqualTo(
                        "\n# Deferred tools\n\n1 more tool is not loaded yet. Call tool_discovery__find with a short "
                                + "description of the task (e.g. \"send email\") to load the ones you need.\n");
        assertThat(DeferredTools.promptNote(1234, "tool_discovery__find")).contains("1,234 more tools are not loaded");
    }
}
