package dev.toolscout.mcp.upstream;

import java.time.Instant;

/**
 * What one upstream server is doing, as list commands and {@code mcp__list_servers} show it. Holds no
 * secret: the endpoint is the command line or URL, never headers, keys or environment values.
 *
 * @param state where the connection is
 * @param tools how many of its tools are in the catalog
 * @param lastError the last failure, or {@code null} while nothing has failed since it was last ready
 * @param restarts how many times it was reconnected or restarted after a failure
 * @param since when the state last changed
 * @param nextRetry when the next reconnect is due while it is down, else {@code null}
 */
public record ServerStatus(
        String name,
        String prefix,
        String transport,
        String endpoint,
        State state,
        int tools,
        String lastError,
        int restarts,
        Instant since,
        Instant nextRetry) {

    /** The life of a connection. */
    public enum State {
        /** Starting, initializing and listing tools. */
        CONNECTING,
        /** Initialized; its tools are in the catalog and calls go through. */
        READY,
        /** Connected, but its last call timed out or it broke the protocol; calls still go through. */
        DEGRADED,
        /** Not reachable or its process ended; a reconnect is scheduled with backoff. */
        DOWN,
        /** Removed or shut down. */
        STOPPED
    }
}
