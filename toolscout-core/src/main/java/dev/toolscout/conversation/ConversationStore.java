package dev.toolscout.conversation;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The stored conversations, keyed by principal and id. Thread-safe.
 */
public interface ConversationStore {
    /**
     * The conversation {@code id} of {@code principal}, if one is stored. Conversations are keyed by both: the
     * same id under another principal is another conversation, so one principal can never read or resume
     * another's.
     */
    Optional<StoredConversation> loadConversation(String principal, String id);

    /** Stores {@code conversation}, replacing the one with the same principal and id (upsert), durable on return. */
    void saveConversation(StoredConversation conversation);

    /**
     * Removes one conversation, durable on return.
     *
     * @return true when it was stored
     */
    boolean deleteConversation(String principal, String id);

    /**
     * Removes every conversation last used before {@code cutoff} (idle expiry), durable on return.
     *
     * @return how many were removed
     */
    int deleteConversationsUsedBefore(Instant cutoff);

    /** The ids of {@code principal}'s conversations, least recently used first (then by id). */
    List<String> conversationIds(String principal);

    /** How many conversations are stored, of every principal. */
    int conversationCount();

    /**
     * One conversation as stored.
     *
     * @param principal the key of the principal it belongs to (opaque here; {@code conversation.Conversations}
     *     makes it), part of the key
     * @param id the conversation's id as its caller gave it, the other part of the key
     * @param activeSkills the names of the skills activated in it, in activation order
     * @param disclosedTools the names of the tools discovery disclosed to it, in order
     * @param createdAt when it started (kept to the millisecond, as stored)
     * @param lastUsedAt when it was last used (kept to the millisecond); idle expiry counts from here
     */
    record StoredConversation(
            String principal,
            String id,
            List<String> activeSkills,
            List<String> disclosedTools,
            Instant createdAt,
            Instant lastUsedAt) {
        public StoredConversation {
            if (principal == null || id == null || id.isBlank()) {
                throw new IllegalArgumentException(
                        "stored conversation needs a principal and an id, got: " + principal + ", '" + id + "'");
            }
            if (createdAt == null || lastUsedAt == null) {
                throw new IllegalArgumentException("stored conversation '" + id + "': createdAt and lastUsedAt are "
                        + "required, got: " + createdAt + ", " + lastUsedAt);
            }
            activeSkills = List.copyOf(activeSkills == null ? List.of() : activeSkills);
            disclosedTools = List.copyOf(disclosedTools == null ? List.of() : disclosedTools);
            createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
            lastUsedAt = lastUsedAt.truncatedTo(ChronoUnit.MILLIS);
        }
    }
}
