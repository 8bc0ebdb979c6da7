package dev.toolscout.skills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.Fixture;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SkillToolsTest {
    private static final Principal KID = new Principal("tim", "kids", null);
    private static final Principal ADULT = new Principal("ann", "staff", null);

    private final Fixture f = new Fixture();
    private final Skills skills;
    private final SkillIndex index;
    private final SkillTools tools;

    SkillToolsTest() {
        f.catalog.sync(List.of(
                Fixture.tool(
                        "database__remove_feature", "Remove a geographic feature from the conversation by its ID."),
                Fixture.tool("database__drop_table", "Drop a whole table of features."),
                Fixture.tool("geo__distance", "Calculate the distance between two places."),
                Fixture.tool("mail__send", "Send an email.")));
        index = new SkillIndex(f.store, f.model);
        skills = Skills.load(f.store, index::onEvents);
        tools = new SkillTools(
                skills,
                index,
                f.catalog,
                f.access,
                new Conversations(f.store, Clock.systemUTC()),
                DiscoveryTools.SPECS);
        skills.upsert(Skill.of(
                "database",
                "Tools for managing geographic features stored in the conversation database.",
                "Remove with database__remove_feature; never call database__drop_table unless asked.",
                List.of("database__remove_feature", "database__drop_table")));
        skills.upsert(Skill.of("mailing", "Send emails to people.", "", List.of("mail__send")));
        skills.upsert(Skill.of("etiquette", "How to write politely.", "Be kind; see tool_discovery__find.", List.of()));
        skills.upsert(Skill.of("ghost", "Brings a tool nobody has.", "", List.of("ghost__boo")));
        // kids may not drop tables or send mail
        f.access.setPolicy(new AccessPolicy(
                Effect.ALLOW,
                Map.of(),
                List.of(
                        new AccessRule(Effect.DENY, Target.TOOL, "database__drop_table", Subject.GROUP, "kids"),
                        new AccessRule(Effect.DENY, Target.SOURCE, "mail", Subject.GROUP, "kids"))));
    }

    private static JsonNode args(String skill) {
        return JsonNodeFactory.instance.objectNode().put("skill_name", skill);
    }

    @Test
    void a_skill_whose_tools_are_all_denied_or_missing_is_invisible_and_of_a_visible_one_only_its_visible_tools_show() {
        assertThat(tools.visible(KID)).extracting(SkillTools.Visible::name).containsExactly("database", "etiquette");
        assertThat(tools.visible(ADULT))
                .extracting(SkillTools.Visible::name)
                .containsExactly("database", "etiquette", "mailing");
        assertThat(tools.visible(KID, "database").orElseThrow().tools())
                .extracting(ToolSpec::fullName)
                .containsExactly("database__remove_feature");
        assertThat(tools.visible(KID, "mailing")).isEmpty();
    }

    @Test
    void activate_enum_names_exactly_the_skills_the_principal_may_see() {
        ToolSpec spec = tools.activateTool(KID).orElseThrow();

        assertThat(spec.fullName()).isEqualTo("skills__activate");
        assertThat(spec.parameters().at("/properties/skill_name/enum").toString())
                .isEqualTo("[\"database\",\"etiquette\"]");
        assertThat(spec.description()).doesNotContain("mailing", "ghost");
    }

    @Test
    void nobody_denied_skills_activate_sees_any_skill() {
        f.access.setPolicy(new AccessPolicy(
                Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(Effect.DENY, Target.TOOL, SkillTools.ACTIVATE, Subject.USER, "tim"))));

        assertThat(tools.visible(KID)).isEmpty();
        assertThat(tools.activateTool(KID)).isEmpty();
        assertThat(tools.activate(KID, "c1", args("etiquette")))
                .isEqualTo(new SkillTools.Result.Error("Skill not found: etiquette"));
    }

    @Test
    void activation_is_recorded_and_returns_the_documentation_and_the_visible_tools_with_denied_names_blanked() {
        SkillTools.Result r = tools.activate(KID, "c1", args("database"));

        JsonNode out = ((SkillTools.Result.Ok) r).output();
        assertThat(out.get("activated").asBoolean()).isTrue();
        assertThat(out.get("documentation").asText())
                .isEqualTo("Remove with database__remove_feature; never call [unavailable tool] unless asked.");
        assertThat(out.get("tools").findValuesAsText("name")).containsExactly("database__remove_feature");
        assertThat(out.toString()).doesNotContain("database__drop_table");
        assertThat(tools.conversations().get(KID, "c1").orElseThrow().activeSkills())
                .containsExactly("database");
        assertThat(tools.activeTools(KID, tools.conversations().get(KID, "c1").orElseThrow()))
                .containsExactly(Map.entry("database__remove_feature", "database"));
        // the adult sees the whole documentation
        JsonNode adult = ((SkillTools.Result.Ok) tools.activate(ADULT, "c2", args("database"))).output();
        assertThat(adult.get("documentation").asText()).contains("database__drop_table");
        assertThat(((SkillTools.Result.Ok) tools.activate(KID, "c1", args("database")))
                        .output()
                        .get("activated")
                        .asBoolean())
                .isFalse();
    }

    @Test
    void engine_tools_the_principal_may_use_stay_named_in_a_skills_text() {
        JsonNode out = ((SkillTools.Result.Ok) tools.activate(KID, "c1", args("etiquette"))).output();

        assertThat(out.get("documentation").asText()).isEqualTo("Be kind; see tool_discovery__find.");
    }

    @Test
    void an_invisible_skill_and_a_missing_one_get_the_same_answer_and_record_nothing() {
        assertThat(tools.activate(KID, "c1", args("mailing")))
                .isEqualTo(new SkillTools.Result.Error("Skill not found: mailing"));
        assertThat(tools.activate(KID, "c1", args("nosuch")))
                .isEqualTo(new SkillTools.Result.Error("Skill not found: nosuch"));
        assertThat(tools.activate(KID, "c1", args("ghost")))
                .isEqualTo(new SkillTools.Result.Error("Skill not found: ghost"));
        assertThat(tools.conversations().get(KID, "c1")).isEmpty();
    }

    @Test
    void activation_needs_a_skill_name_and_a_conversation() {
        assertThat(tools.activate(KID, "c1", JsonNodeFactory.instance.objectNode()))
                .isEqualTo(
                        new SkillTools.Result.Error("skill_name is required: the name of a skill, e.g. \"database\""));
        assertThat(tools.activate(KID, null, args("database")))
                .isEqualTo(new SkillTools.Result.Error(
                        "skills__activate needs a conversation to remember the skill in: send "
                                + "the conversation id with the request"));
    }

    @Test
    void a_skill_removed_after_activation_brings_nothing() {
        tools.activate(KID, "c1", args("database"));
        skills.remove("database");

        assertThat(tools.activeTools(KID, tools.conversations().get(KID, "c1").orElseThrow()))
                .isEmpty();
    }

    @Test
    void the_seed_demo_messages_match_the_database_skill_clearly_only_when_they_are_about_features() {
        List<SkillTools.Ranked> m1 = tools.rank(
                KID,
                "What's the distance from SF to LA?",
                () -> f.model.embedQuery("What's the distance from SF to LA?"));
        List<SkillTools.Ranked> m2 =
                tools.rank(KID, "Remove the first feature", () -> f.model.embedQuery("Remove the first feature"));

        assertThat(m1).noneMatch(r -> r.match().clear());
        assertThat(m2.get(0).skill().name()).isEqualTo("database");
        assertThat(m2.get(0).match().clear()).isTrue();
        assertThat(m2.get(0).match().matchedWords()).containsExactly("feature");
        assertThat(m2).extracting(r -> r.skill().name()).doesNotContain("mailing", "ghost");
    }

    @Test
    void a_restart_embeds_no_skill_again() {
        AtomicInteger embedded = new AtomicInteger();
        EmbeddingModel counting = new EmbeddingModel() {
            @Override
            public String modelId() {
                return f.model.modelId();
            }

            @Override
            public int dimension() {
                return f.model.dimension();
            }

            @Override
            public float[] embedQuery(String text) {
                return f.model.embedQuery(text);
            }

            @Override
            public List<float[]> embedDocuments(List<String> texts) {
                embedded.addAndGet(texts.size());
                return f.model.embedDocuments(texts);
            }
        };
        SkillIndex again = new SkillIndex(f.store, counting);

        again.rebuild(Skills.load(f.store, b -> {}).all());

        assertThat(again.size()).isEqualTo(4);
        assertThat(embedded).hasValue(0);
    }
}
