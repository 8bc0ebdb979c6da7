package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.model.Principal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's three-message demo (seed 004) through the Java API, on the demo catalog plus the seed's tools and its
 * database skill ({@code docs/examples/skills-demo.yaml}), with the real embedding model; ToolScout is closed and
 * opened again between messages 2 and 3.
 */
class SkillsDemoTest {
    static final Path DEMO_FILE = Path.of("../docs/examples/skills-demo.yaml");
    static final String M1 = "What's the distance from SF to LA?";
    static final String M2 = "Remove the first feature";
    static final String M3 = "Add a marker in Chicago";

    @TempDir
    Path dir;

    private ToolScout open(boolean withFile) {
        ToolScout.Builder b = ToolScout.builder().dataDir(dir);
        return (withFile ? b.catalogFiles(List.of(DEMO_FILE)) : b).build();
    }

    private static List<String> names(SelectResult r) {
        return r.selected().stream().map(SelectResult.SelectedTool::name).toList();
    }

    @Test
    void the_seed_demo_activates_the_database_skill_once_and_keeps_its_tool_across_a_restart() {
        Principal ann = new Principal("ann", null, null);
        String conversation = "seed-demo-1";
        open(false).close(); // a new data directory starts with the demo catalog; the seed's file adds to it
        SelectResult m1;
        SelectResult m2;
        try (ToolScout scout = open(true)) {
            // message 1: no skill active; the database tool is not sent, the meta-tool is
            m1 = scout.select(new SelectRequest(M1, ann, null, null, conversation));
            assertThat(names(m1))
                    .contains("geo__calculate_distance", "skills__activate")
                    .doesNotContain("database__remove_feature");
            assertThat(m1.activeSkills()).isEmpty();
            assertThat(m1.suggestedSkill()).isNull();

            // message 2: the skill clearly matches, so the system prompt suggests it; the model activates it
            m2 = scout.select(new SelectRequest(M2, ann, null, null, conversation));
            assertThat(m2.suggestedSkill().name()).isEqualTo("database");
            assertThat(scout.render(m2, RenderFormat.ANTHROPIC).get("system").asText())
                    .contains("Call skills__activate with skill_name \"database\"");
            ToolCallResult activated = scout.callMetaTool(
                    ann,
                    conversation,
                    "skills__activate",
                    JsonNodeFactory.instance.objectNode().put("skill_name", "database"));
            assertThat(activated.isError()).isFalse();
            JsonNode out = activated.output();
            assertThat(out.get("activated").asBoolean()).isTrue();
            assertThat(out.get("documentation").asText()).contains("database__remove_feature");
            assertThat(out.get("tools").findValuesAsText("name")).containsExactly("database__remove_feature");
            // the model's next request in this turn (after the tool result) carries the skill's tool: it can call it
            SelectResult m2after = scout.select(new SelectRequest(M2, ann, null, null, conversation));
            assertThat(names(m2after)).contains("database__remove_feature").doesNotContain("skills__activate");
        }
        // a restart between messages 2 and 3 changes nothing
        try (ToolScout scout = open(false)) {
            SelectResult m3 = scout.select(new SelectRequest(M3, ann, null, null, conversation));
            assertThat(names(m3)).contains("database__remove_feature");
            assertThat(m3.selected().stream()
                            .filter(t -> t.name().equals("database__remove_feature"))
                            .findFirst()
                            .orElseThrow()
                            .reason())
                    .startsWith("tool of active skill 'database'");
            assertThat(m3.activeSkills()).containsExactly("database");
            assertThat(scout.render(m3, RenderFormat.ANTHROPIC).get("system").asText())
                    .contains("Active in this conversation: database");
            // the skill's tool is counted: the same message outside the conversation sends fewer tokens of it
            SelectResult alone = scout.select(new SelectRequest(M3, ann, null, null, null));
            assertThat(names(alone)).doesNotContain("database__remove_feature");
            assertThat(scout.conversation(ann, conversation).orElseThrow().activeSkills())
                    .containsExactly("database");
            // another principal with the same id has a conversation of its own
            assertThat(scout.conversation(new Principal("bob", null, null), conversation))
                    .isEmpty();
            assertThat(names(scout.select(
                            new SelectRequest(M3, new Principal("bob", null, null), null, null, conversation))))
                    .doesNotContain("database__remove_feature");
            System.out.printf(
                    "seed demo tokens: message 1 %d, message 2 %d, message 3 %d (of %d)%n",
                    m1.tokens().selected(),
                    m2.tokens().selected(),
                    m3.tokens().selected(),
                    m3.tokens().all());
        }
    }
}
