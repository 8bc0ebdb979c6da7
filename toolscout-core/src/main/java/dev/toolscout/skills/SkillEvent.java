package dev.toolscout.skills;

/**
 * A change to the skills, emitted after it is durable in the store; the skill index subscribes to these as the
 * tool index does to catalog events. {@link #type()} keeps the names of the design (seed 003's {@code
 * skill.created}).
 */
public sealed interface SkillEvent {
    /** The event name, e.g. {@code skill.created}. */
    String type();

    /** The skill's name. */
    String name();

    /** A skill was added. */
    record Created(Skill skill) implements SkillEvent {
        @Override
        public String type() {
            return "skill.created";
        }

        @Override
        public String name() {
            return skill.name();
        }
    }

    /** A skill changed (any field). */
    record Updated(Skill before, Skill after) implements SkillEvent {
        @Override
        public String type() {
            return "skill.updated";
        }

        @Override
        public String name() {
            return after.name();
        }
    }

    /** A skill was removed. */
    record Deleted(Skill skill) implements SkillEvent {
        @Override
        public String type() {
            return "skill.deleted";
        }

        @Override
        public String name() {
            return skill.name();
        }
    }
}
