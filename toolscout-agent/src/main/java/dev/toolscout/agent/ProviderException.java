package dev.toolscout.agent;

/**
 * The LLM provider failed: after the retries for a retriable failure (429, 5xx, a timeout), at once for one that
 * is not (401, 400). The message names the provider, the HTTP status when there is one, and what it said; never
 * the key.
 */
public final class ProviderException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean retriable;
    private final int status;

    public ProviderException(String message, boolean retriable, int status, Throwable cause) {
        super(message, cause);
        this.retriable = retriable;
        this.status = status;
    }

    /** Whether trying again later may succeed (it was a rate limit, a server error or a timeout). */
    public boolean retriable() {
        return retriable;
    }

    /** The provider's HTTP status, or 0 when there was no answer. */
    public int status() {
        return status;
    }
}
