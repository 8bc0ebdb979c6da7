package dev.toolscout.conversation;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a conversation lives idle and how much it and the store may hold.
 *
 * @param idle how long a conversation lives after its last use (24 hours by default: a working day's
 *     conversation is still there the next morning, a forgotten one does not pile up)
 * @param maxConversations the most conversations stored, of all principals (100,000); a new one past it is
 *     refused once the expired ones are gone
 * @param maxPerPrincipal the most conversations of one principal (1,000); a new one past it forgets that
 *     principal's least recently used one, so a client that never reuses ids only hurts itself
 * @param maxActiveSkills the most skills active in one conversation (16); one more is refused with an error the
 *     model reads
 * @param maxDisclosedTools the most tools discovery discloses to one conversation (256); past it the oldest
 *     disclosure is forgotten (the model can find it again)
 */
public record ConversationLimits(
        Duration idle, int maxConversations, int maxPerPrincipal, int maxActiveSkills, int maxDisclosedTools) {
    public static final ConversationLimits DEFAULT =
            new ConversationLimits(Duration.ofHours(24), 100_000, 1_000, 16, 256);

    public ConversationLimits {
        Objects.requireNonNull(idle, "idle");
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("conversation idle time must be positive, got: " + idle);
        }
        positive("maxConversations", maxConversations);
        positive("maxPerPrincipal", maxPerPrincipal);
        positive("maxActiveSkills", maxActiveSkills);
        positive("maxDisclosedTools", maxDisclosedTools);
    }

    /** These limits with another idle time. */
    public ConversationLimits withIdle(Duration d) {
        return new ConversationLimits(d, maxConversations, maxPerPrincipal, maxActiveSkills, maxDisclosedTools);
    }

    private static void positive(String name, int v) {
        if (v < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got: " + v);
        }
    }
}
