package dev.toolscout.runs;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The agent loop's runs, durable: a finished one is its conversation's history, a paused one resumes after a
 * restart. {@code StateStore} (SQLite, PostgreSQL) implements it. Thread-safe.
 */
public interface RunStore {
    /** Stores {@code run}, replacing the one with the same id (upsert), durable on return. */
    void saveRun(StoredRun run);

    /** The run with this id (exact match), if one is stored. */
    Optional<StoredRun> loadRun(String id);

    /** Every stored run in {@code status}, oldest first (by creation time, then id). */
    List<StoredRun> loadRunsByStatus(String status);

    /** The runs of one conversation of one principal, oldest first (by creation time, then id). */
    List<StoredRun> loadRuns(String principal, String conversationId);

    /**
     * Removes one run, durable on return.
     *
     * @return true when it was stored
     */
    boolean deleteRun(String id);

    /**
     * One request of the agent loop as stored: a finished one is the conversation's history for its next request;
     * a paused one ({@code awaiting_approval}) holds what the loop needs to resume, also after a restart.
     *
     * @param id the run's unique id
     * @param principal the key of the principal it runs for (opaque here, as for conversations)
     * @param conversationId the conversation it belongs to
     * @param status {@code running}, {@code awaiting_approval}, {@code done} or {@code failed} (the agent owns
     *     the values)
     * @param approvalId the approval request a paused run waits for, or {@code null}
     * @param stateJson the loop's state, opaque to the store (the agent owns its format)
     * @param createdAt when it started (kept to the millisecond)
     * @param updatedAt when it was last saved (kept to the millisecond)
     */
    record StoredRun(
            String id,
            String principal,
            String conversationId,
            String status,
            String approvalId,
            String stateJson,
            Instant createdAt,
            Instant updatedAt) {
        public StoredRun {
            for (String[] f : new String[][] {
                {"id", id}, {"principal", principal}, {"conversationId", conversationId}, {"status", status}
            }) {
                if (f[1] == null || f[1].isBlank()) {
                    throw new IllegalArgumentException(
                            "stored run '" + id + "': " + f[0] + " must not be blank, got: '" + f[1] + "'");
                }
            }
            if (stateJson == null || createdAt == null || updatedAt == null) {
                throw new IllegalArgumentException(
                        "stored run '" + id + "': stateJson, createdAt and updatedAt are " + "required, got: "
                                + (stateJson == null ? null : "(json)") + ", " + createdAt + ", " + updatedAt);
            }
            createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
            updatedAt = updatedAt.truncatedTo(ChronoUnit.MILLIS);
        }

        /** Leaves the state out: it holds the conversation's messages. */
        @Override
        public String toString() {
            return "StoredRun[id=" + id + ", conversationId=" + conversationId + ", status=" + status + ", approvalId="
                    + approvalId + "]";
        }
    }
}
