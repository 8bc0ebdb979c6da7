package dev.toolscout.learning;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;

/**
 * What selection learned from use ({@code learning.UsageMemory}): (message, tool) pairs. Thread-safe.
 */
public interface LearnedStore {
    /**
     * Stores learned pairs, replacing those with the same tool and message hash (upsert), in one transaction,
     * durable on return.
     */
    void saveLearned(List<StoredLearned> pairs);

    /** Every learned pair, by tool then message hash ({@link String#compareTo}); empty when none. */
    List<StoredLearned> loadLearned();

    /**
     * Removes the learned pairs of {@code tools} (exact names), or every learned pair when {@code tools} is null, in
     * one transaction, durable on return.
     *
     * @return how many pairs were removed
     */
    int deleteLearned(Collection<String> tools);

    /**
     * One (message, tool) pair selection learned from: the tool was used for the message.
     *
     * @param tool the tool's full name (part of the key)
     * @param messageHash the SHA-256 of the message (the other part of the key)
     * @param toolHash the tool's content hash when it was learned: a tool changed since has its pairs dropped
     * @param principal who sent the message, or null
     * @param conversationId its conversation, or null
     * @param at when it was used (kept to the millisecond)
     */
    record StoredLearned(
            String tool,
            String messageHash,
            String message,
            String toolHash,
            String principal,
            String conversationId,
            Instant at) {
        public StoredLearned {
            if (tool == null
                    || tool.isBlank()
                    || messageHash == null
                    || messageHash.isBlank()
                    || message == null
                    || toolHash == null
                    || at == null) {
                throw new IllegalArgumentException(
                        "a learned pair needs a tool, a message and its hash, the tool's hash " + "and a time, got: '"
                                + tool + "', '" + messageHash + "', '" + toolHash + "', " + at);
            }
            at = at.truncatedTo(ChronoUnit.MILLIS);
        }
    }
}
