package dev.toolscout.runs;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The agent loop's usage records, durable (what {@code GET /v1/usage} and the console read). {@code StateStore}
 * (SQLite, PostgreSQL) implements it. Thread-safe.
 */
public interface UsageStore {
    /**
     * Stores a usage record, replacing the one with the same id (a paused request's record is replaced when it
     * resumes), durable on return.
     */
    void saveUsage(StoredUsage usage);

    /** The usage records made at or after {@code since}, oldest first (by time, then id), at most {@code limit}. */
    List<StoredUsage> loadUsage(Instant since, int limit);

    /**
     * One usage record of the agent loop.
     *
     * @param id the record's unique id (the run's)
     * @param at when the request finished or paused (kept to the millisecond)
     * @param principal the principal's key (opaque here)
     * @param conversationId the conversation
     * @param json the record, opaque to the store (the agent owns its format, docs/AGENT.md)
     */
    record StoredUsage(String id, Instant at, String principal, String conversationId, String json) {
        public StoredUsage {
            if (id == null
                    || id.isBlank()
                    || at == null
                    || principal == null
                    || conversationId == null
                    || json == null) {
                throw new IllegalArgumentException(
                        "a usage record needs an id, a time, a principal, a conversation and " + "its JSON, got: '" + id
                                + "', " + at + ", " + principal + ", " + conversationId);
            }
            at = at.truncatedTo(ChronoUnit.MILLIS);
        }
    }
}
