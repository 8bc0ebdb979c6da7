package dev.toolscout.memory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One remembered thing.
 *
 * @param id its unique id ({@code mem_} and 20 hex digits), what recall and forget name
 * @param scope who it belongs to
 * @param owner the user, group or space of {@code scope}; the empty string for the private scope of principals
 *     with no user
 * @param type what kind of thing it is
 * @param content the text, at most {@value Memories#MAX_CONTENT_CHARS} characters
 * @param createdBy the user who stored it, or {@code null} for a principal with no user
 * @param conversationId the conversation it was stored in, or {@code null}
 * @param createdAt when it was stored (to the millisecond)
 * @param updatedAt when it was last corrected (to the millisecond; {@code createdAt} when never)
 */
public record Memory(
        String id,
        MemoryScope scope,
        String owner,
        MemoryType type,
        String content,
        String createdBy,
        String conversationId,
        Instant createdAt,
        Instant updatedAt) {
    public Memory {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(content, "content");
        createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
        updatedAt = Objects.requireNonNull(updatedAt, "updatedAt").truncatedTo(ChronoUnit.MILLIS);
    }

    /** The key of the scope it is in: {@code user:alice}, {@code group:eng}, {@code space:team-a}. */
    public String scopeKey() {
        return scopeKey(scope, owner);
    }

    static String scopeKey(MemoryScope scope, String owner) {
        return scope.id() + ":" + owner;
    }

    /** This memory with other content and type, corrected at {@code at}. */
    public Memory corrected(String newContent, MemoryType newType, Instant at) {
        return new Memory(id, scope, owner, newType, newContent, createdBy, conversationId, createdAt, at);
    }
}
