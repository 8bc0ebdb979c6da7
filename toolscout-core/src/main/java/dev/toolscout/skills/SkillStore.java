package dev.toolscout.skills;

import java.util.List;

/**
 * The stored skills, opaque JSON by name. Thread-safe.
 */
public interface SkillStore {
    /** Every stored skill, in name order ({@link String#compareTo}); empty when none. */
    List<StoredSkill> loadSkills();

    /** Stores {@code skill}, replacing any with the same name (upsert), durable on return. */
    void saveSkill(StoredSkill skill);

    /**
     * Removes the skill named {@code name} (exact match), durable on return. Conversations that activated it keep
     * its name (a skill of that name added again is active for them again).
     *
     * @return true when a skill was removed, false when none had that name
     */
    boolean deleteSkill(String name);

    /**
     * One skill as stored.
     *
     * @param name the skill's unique name (the key)
     * @param json the skill, opaque to the store: the skills package owns its format ({@code skills.SkillJson}),
     *     and keeping it opaque keeps this package free of a dependency on skills (which depends on the catalog)
     */
    record StoredSkill(String name, String json) {
        public StoredSkill {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("stored skill name must not be blank, got: '" + name + "'");
            }
            if (json == null) {
                throw new IllegalArgumentException("stored skill '" + name + "': json must not be null");
            }
        }
    }
}
