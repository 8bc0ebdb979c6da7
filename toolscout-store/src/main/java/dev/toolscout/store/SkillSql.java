package dev.toolscout.store;

import dev.toolscout.skills.SkillStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** The skills' SQL ({@link SkillStore}). Thread-safe as the store it belongs to. */
interface SkillSql extends SkillStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default List<StoredSkill> loadSkills() {
        List<String[]> rows = db().query(
                        "load the skills",
                        h -> h.createQuery("SELECT name, skill_json FROM skills ORDER BY name")
                                .map(SqlDialect.PAIR)
                                .list());
        List<StoredSkill> skills = new ArrayList<>(rows.size());
        for (String[] r : rows) {
            try {
                skills.add(new StoredSkill(r[0], r[1]));
            } catch (IllegalArgumentException e) {
                // only a row edited by hand gets here: the columns are NOT NULL and saveSkill validates
                throw db().invalidRow(db().rowOf() + "skill", r[0], e);
            }
        }
        // name order as Java compares strings, whatever collation the database sorted by
        skills.sort(Comparator.comparing(StoredSkill::name));
        return List.copyOf(skills);
    }

    @Override
    default void saveSkill(StoredSkill skill) {
        Objects.requireNonNull(skill, "skill");
        db().write("save skill '" + skill.name() + "'", h -> {
            h.createUpdate("INSERT INTO skills (name, skill_json) VALUES (?, ?) "
                            + "ON CONFLICT (name) DO UPDATE SET skill_json = excluded.skill_json")
                    .bind(0, skill.name())
                    .bind(1, skill.json())
                    .execute();
            db().changed(h, Area.SKILLS);
            return null;
        });
    }

    @Override
    default boolean deleteSkill(String name) {
        Objects.requireNonNull(name, "name");
        return db().write(
                        "delete skill '" + name + "'",
                        h -> db().changedIf(
                                                h,
                                                SqlDialect.update(h, "DELETE FROM skills WHERE name = ?", name),
                                                Area.SKILLS)
                                > 0);
    }
}
