package dev.toolscout.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.Fixture;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.model.Principal;
import dev.toolscout.render.SystemPrompt;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.skills.Skill;
import dev.toolscout.skills.SkillIndex;
import dev.toolscout.skills.SkillTools;
import dev.toolscout.skills.Skills;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** find, list_all and describe answering with skills beside tools; the system prompt suggesting one. */
class DiscoverySkillsTest {
    private static final Principal KID = new Principal("tim", "kids", null);

    private final Fixture f = new Fixture();
    private final SkillTools skillTools;
    private final DiscoveryTools discovery;

    DiscoverySkillsTest() {
        f.catalog.sync(Fixture.assistantCatalog());
        SkillIndex index = new SkillIndex(f.store, f.model);
        Skills skills = Skills.load(f.store, index::onEvents);
        skillTools = new SkillTools(
                skills,
                index,
                f.catalog,
                f.access,
                new Conversations(f.store, Clock.systemUTC()),
                DiscoveryTools.SPECS);
        discovery = f.discovery.withSkills(skillTools);
        skills.upsert(Skill.of(
                "scheduling",
                "Plan meetings and calendar events with the team.",
                "",
                List.of("calendar__create_event", "calendar__list_events")));
        skills.upsert(Skill.of("mailing", "Send email newsletters.", "", List.of("gmail__send_email")));
        f.access.setPolicy(new AccessPolicy(
                Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.GROUP, "kids"))));
    }

    private static JsonNode ok(DiscoveryResult r) {
        assertThat(r).isInstanceOf(DiscoveryResult.Ok.class);
        return ((DiscoveryResult.Ok) r).output();
    }

    @Test
    void find_returns_a_matching_skill_beside_the_tools_each_with_its_kind() {
        JsonNode out = ok(discovery.find(Principal.ANONYMOUS, "schedule a meeting", 5));

        assertThat(out.get("tools").findValuesAsText("kind")).containsOnly("tool");
        assertThat(out.get("skills")).hasSize(1);
        JsonNode skill = out.get("skills").get(0);
        assertThat(skill.get("name").asText()).isEqualTo("scheduling");
        assertThat(skill.get("kind").asText()).isEqualTo("skill");
        assertThat(skill.get("tools").toString()).isEqualTo("[\"calendar__create_event\",\"calendar__list_events\"]");
        assertThat(skill.get("hint").asText()).contains("skills__activate");
    }

    @Test
    void a_skill_whose_tools_are_denied_is_never_found_listed_or_described() {
        JsonNode found = ok(discovery.find(KID, "send email newsletters", 10));
        JsonNode listed = ok(discovery.listAll(KID, null));

        assertThat(found.toString()).doesNotContain("mailing");
        assertThat(listed.get("skills").findValuesAsText("name")).containsExactly("scheduling");
        assertThat(listed.get("skills_total").asInt()).isEqualTo(1);
        assertThat(discovery.describe(KID, "mailing")).isEqualTo(new DiscoveryResult.Error("Tool not found: mailing"));
        assertThat(ok(discovery.describe(Principal.ANONYMOUS, "mailing"))
                        .get("kind")
                        .asText())
                .isEqualTo("skill");
    }

    @Test
    void list_all_of_one_category_lists_skills_only_for_the_skills_category() {
        assertThat(ok(discovery.listAll(Principal.ANONYMOUS, "planning")).has("skills"))
                .isFalse();
        assertThat(ok(discovery.listAll(Principal.ANONYMOUS, "skills")).get("skills"))
                .hasSize(2);
    }

    @Test
    void the_system_prompt_suggests_a_clearly_matching_skill_only_when_it_can_be_activated() {
        String message = "schedule a meeting with the team";
        SkillTools.Ranked best = skillTools
                .rank(Principal.ANONYMOUS, message, () -> f.model.embedQuery(message))
                .get(0);
        assertThat(best.match().clear()).isTrue();
        SystemPrompt.SkillSuggestion suggestion = new SystemPrompt.SkillSuggestion(
                best.skill().name(),
                best.skill().skill().description(),
                "matches " + best.match().matchedWords());
        Selection with = f.selector.select(new Selector.Request(
                message,
                Principal.ANONYMOUS,
                10,
                null,
                Map.of(),
                List.of(skillTools.activateTool(Principal.ANONYMOUS).orElseThrow())));
        Selection without = f.selector.select(new Selector.Request(message, Principal.ANONYMOUS, 10, null));

        assertThat(SystemPrompt.section(with, List.of(), suggestion))
                .contains("The skill 'scheduling' matches this message")
                .contains("Call skills__activate with skill_name \"scheduling\"");
        assertThat(SystemPrompt.section(without, List.of(), suggestion)).doesNotContain("scheduling");
    }
}
