package dev.toolscout.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.Fixture;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import org.junit.jupiter.api.Test;

class RenderTest {
    private static final ToolSpec DELETE = ToolSpec.builder("files__delete", "Delete a file.")
            .sideEffect(SideEffect.DELETE)
            .build();

    @Test
    void anthropic_openai_and_mcp_shapes() {
        ObjectNode a = ToolRenderer.anthropic(DELETE);
        assertThat(a.get("name").asText()).isEqualTo("files__delete");
        assertThat(a.get("input_schema").get("type").asText()).isEqualTo("object");
        ObjectNode o = ToolRenderer.openai(DELETE);
        assertThat(o.get("type").asText()).isEqualTo("function");
        assertThat(o.get("function").get("parameters").get("type").asText()).isEqualTo("object");
        ObjectNode m = ToolRenderer.mcp(DELETE);
        assertThat(m.get("inputSchema").get("type").asText()).isEqualTo("object");
        assertThat(m.get("annotations").get("destructiveHint").asBoolean()).isTrue();
        assertThat(m.get("annotations").get("readOnlyHint").asBoolean()).isFalse();
    }

    @Test
    void system_prompt_names_the_tools_and_explains_discovery() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        Selection s = f.selector.select(Selector.Request.of("send an email", Principal.ANONYMOUS));
        String p = SystemPrompt.section(s);
        assertThat(p).contains("gmail__send_email", "tool_discovery__find", "24 more are available");
        // list_all and describe are not among the selected tools, so the model is not told to call them
        assertThat(p).doesNotContain("tool_discovery__describe", "tool_discovery__list_all");
    }

    @Test
    void system_prompt_marks_tools_that_need_approval_and_cuts_descriptions_at_sentence_ends_only() {
        Fixture f = new Fixture();
        f.catalog.sync(java.util.List.of(
                ToolSpec.builder(
                                "gmail__search_emails",
                                "Searches the mailbox with Gmail query syntax, e.g. 'from:alice is:unread'. Read only.")
                        .build(),
                ToolSpec.builder("gmail__send_email", "Sends an email from the user's account. Needs a connection.")
                        .aiAccess(dev.toolscout.model.AiAccess.PROPOSE)
                        .build()));
        Selection s = f.selector.select(Selector.Request.of("search and send email", Principal.ANONYMOUS));
        String p = SystemPrompt.section(s);
        assertThat(p)
                .contains("gmail__search_emails — Searches the mailbox with Gmail query syntax, e.g. "
                        + "'from:alice is:unread'. (")
                .contains("gmail__send_email — Sends an email from the user's account. (requires approval) (")
                .doesNotContain("Read only", "Needs a connection");
        assertThat(p.lines().filter(l -> l.contains("requires approval"))).hasSize(1);
    }

    @Test
    void token_counts_are_positive_and_additive() {
        TokenCounter t = new TokenCounter();
        ToolSpec other = ToolSpec.builder("files__read", "Read a file.").build();
        assertThat(t.definitionTokens(DELETE)).isPositive();
        assertThat(t.definitionTokens(java.util.List.of(DELETE, other)))
                .isEqualTo(t.definitionTokens(DELETE) + t.definitionTokens(other));
    }

    @Test
    void the_token_count_cache_keeps_at_most_its_size_and_still_counts_what_it_evicted() {
        TokenCounter t = new TokenCounter(com.knuddels.jtokkit.api.EncodingType.CL100K_BASE, 3);
        ToolSpec first = ToolSpec.builder("files__t0", "Tool number 0.").build();
        int firstCount = t.definitionTokens(first);
        for (int i = 1; i < 10; i++) {
            t.definitionTokens(
                    ToolSpec.builder("files__t" + i, "Tool number " + i + ".").build());
        }
        assertThat(t.cachedCount()).isEqualTo(3);
        assertThat(t.definitionTokens(first)).isEqualTo(firstCount);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new TokenCounter(com.knuddels.jtokkit.api.EncodingType.CL100K_BASE, 0))
                .hasMessage("token count cache size must be at least 1, got: 0");
    }
}
