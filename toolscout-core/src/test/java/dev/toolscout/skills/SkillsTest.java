package dev.toolscout.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.skills.SkillStore.StoredSkill;
import dev.toolscout.state.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkillsTest {
    private final InMemoryStateStore store = new InMemoryStateStore();
    private final List<String> events = new ArrayList<>();
    private final Skills skills = Skills.load(store, b -> b.forEach(e -> events.add(e.type() + " " + e.name())));

    private static Skill db(String description) {
        return Skill.of("database", description, "", List.of("database__remove_feature"));
    }

    @Test
    void changes_are_stored_before_they_go_out_as_skill_events_with_the_seed_names() {
        skills.upsert(db("Edits features."));
        skills.upsert(db("Edits features."));
        skills.upsert(db("Edits and removes features."));
        skills.remove("database");
        skills.remove("database");

        assertThat(events)
                .containsExactly("skill.created database", "skill.updated database", "skill.deleted database");
        assertThat(store.loadSkills()).isEmpty();
    }

    @Test
    void skills_survive_a_reload_from_the_store() {
        skills.upsert(db("Edits features."));

        Skills again = Skills.load(store, b -> {});

        assertThat(again.get("database")).contains(db("Edits features."));
    }

    @Test
    void an_unreadable_stored_skill_is_an_error_naming_it() {
        store.saveSkill(new StoredSkill("broken", "{\"name\":\"broken\"}"));

        assertThatThrownBy(() -> Skills.load(store, b -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the stored skill 'broken' cannot be read")
                .hasMessageContaining("description is required");
    }

    @Test
    void past_the_cap_a_change_is_refused_and_nothing_is_stored() {
        List<Skill> many = new ArrayList<>();
        for (int i = 0; i <= Skills.MAX_SKILLS; i++) {
            many.add(Skill.of("s" + i, "d", "", List.of()));
        }

        assertThatThrownBy(() -> skills.apply(many, List.of()))
                .hasMessageContaining("at most 1000 skills; this change would make 1001");
        assertThat(store.loadSkills()).isEmpty();
        assertThat(skills.size()).isZero();
    }
}
