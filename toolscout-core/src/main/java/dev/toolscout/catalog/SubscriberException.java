package dev.toolscout.catalog;

/**
 * One or more subscribers to a stored change failed (an indexer, say); the change that caused the events is already
 * durable. Thrown by the event bus when a subscriber fails, and by the tool indexer when a change a writer waits for
 * could not be indexed (the index catches up from the store).
 */
public final class SubscriberException extends RuntimeException {
    public SubscriberException(String message, Throwable cause) {
        super(message, cause);
    }
}
