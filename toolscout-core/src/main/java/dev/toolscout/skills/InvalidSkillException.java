package dev.toolscout.skills;

/**
 * A skill broke a rule. The message names the file (when the skill came from one), the skill, the field, the
 * rule and the bad value: {@code skills/Data/SKILL.md: skill 'Data': name must match ^[a-z0-9-]{1,64}$ ...}.
 * Not retriable: the input has to change.
 */
public final class InvalidSkillException extends IllegalArgumentException {
    private final String file;
    private final String skill;
    private final String field;

    /**
     * @param file where the skill was read from, or {@code null} (the Java or HTTP API)
     * @param skill the skill's name as given (possibly invalid itself, or {@code "?"} when absent)
     * @param field the offending field, e.g. {@code name}, {@code description}, {@code allowed-tools}
     * @param message the rule and the bad value
     */
    public InvalidSkillException(String file, String skill, String field, String message) {
        super((file == null ? "" : file + ": ") + "skill '" + skill + "': " + field + " " + message);
        this.file = file;
        this.skill = skill;
        this.field = field;
    }

    /** The same problem, now naming the file it was found in. */
    public InvalidSkillException inFile(String where) {
        InvalidSkillException e = new InvalidSkillException(where, skill, field, rule());
        e.initCause(this);
        return e;
    }

    /** The file the skill came from, or {@code null}. */
    public String file() {
        return file;
    }

    /** The skill's name as given. */
    public String skill() {
        return skill;
    }

    /** The offending field. */
    public String field() {
        return field;
    }

    /** The rule and the bad value, without the file, skill and field. */
    public String rule() {
        String m = getMessage();
        String head = (file == null ? "" : file + ": ") + "skill '" + skill + "': " + field + " ";
        return m.startsWith(head) ? m.substring(head.length()) : m;
    }
}
