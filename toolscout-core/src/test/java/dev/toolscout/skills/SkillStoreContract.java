package dev.toolscout.skills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.skills.SkillStore.StoredSkill;
import dev.toolscout.state.StoreContract;
import org.junit.jupiter.api.Test;

/** What every {@link SkillStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class SkillStoreContract extends StoreContract {
    // --- skills ---

    @Test
    void skills_round_trip_exactly_in_name_order_and_survive_reopen() {
        StoredSkill db = new StoredSkill("database", "{\"name\":\"database\",\"description\":\"Edits ✓ features\"}");
        StoredSkill maps = new StoredSkill("maps", "{\"name\":\"maps\"}");

        store.saveSkill(maps);
        store.saveSkill(db);

        assertThat(store.loadSkills()).containsExactly(db, maps);
        assertThat(reopened().loadSkills()).containsExactly(db, maps);
    }

    @Test
    void saving_a_skill_again_replaces_it_and_delete_reports_whether_one_was_removed() {
        store.saveSkill(new StoredSkill("database", "{\"v\":1}"));
        store.saveSkill(new StoredSkill("database", "{\"v\":2}"));

        assertThat(store.loadSkills()).containsExactly(new StoredSkill("database", "{\"v\":2}"));
        assertThat(store.deleteSkill("database")).isTrue();
        assertThat(store.deleteSkill("database")).isFalse();
        assertThat(reopened().loadSkills()).isEmpty();
    }

    @Test
    void skills_are_kept_apart_from_the_catalog_and_the_servers() {
        store.saveSkill(new StoredSkill("database", "{}"));

        assertThat(store.loadCatalog().tools()).isEmpty();
        assertThat(store.catalogVersion()).isZero();
        assertThat(store.loadServers()).isEmpty();
    }
}
