package dev.toolscout.access;

import java.util.Objects;

/**
 * One rule: allow or deny a tool, a whole source, or a category, for everyone or for one user, group or
 * space (and the spaces below it).
 */
public record AccessRule(Effect effect, Target target, String targetValue, Subject subject, String subjectValue) {
    public enum Effect {
        ALLOW,
        DENY
    }

    /** What a rule matches, most specific first. */
    public enum Target {
        TOOL,
        SOURCE,
        CATEGORY
    }

    /** Whom a rule applies to. */
    public enum Subject {
        USER,
        GROUP,
        SPACE,
        EVERYONE
    }

    public AccessRule {
        Objects.requireNonNull(effect, "effect");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(subject, "subject");
        if (targetValue == null || targetValue.isBlank()) {
            throw new IllegalArgumentException("access rule " + target.name().toLowerCase(java.util.Locale.ROOT)
                    + " must not be blank, got: '" + targetValue + "'");
        }
        if (subject == Subject.EVERYONE) {
            subjectValue = null;
        } else if (subjectValue == null || subjectValue.isBlank()) {
            throw new IllegalArgumentException("access rule " + subject.name().toLowerCase(java.util.Locale.ROOT)
                    + " must not be blank, got: '" + subjectValue + "'");
        }
    }
}
