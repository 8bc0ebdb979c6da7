package dev.toolscout.mcp.upstream;

import java.time.Duration;

/**
 * The limits of the upstream manager, each with a documented default (docs/SECURITY.md, "Limits").
 *
 * @param maxResponseBytes the largest message an upstream may send (default 8 MiB); a larger one is dropped
 *     and its call fails with a clear error
 * @param backoffInitial the wait before the first reconnect after a failure (default 500 ms); it doubles
 *     with each failure in a row
 * @param backoffMax the longest wait between reconnects (default 30 s)
 * @param resyncInterval how often every ready server's tools are listed again, the safety net behind
 *     {@code notifications/tools/list_changed} (default 5 minutes)
 * @param startTimeout how long a server may take to start and answer {@code initialize} (default 60 s, and
 *     never less than the server's own request timeout): starting a process (Node, Python, a JVM) takes as
 *     long as the machine is busy, which says nothing about how fast the server answers once up, so the
 *     server's request timeout counts only from then on
 * @param maxConcurrentCalls the most tool calls in progress on one server at a time (default 16); one more
 *     fails at once as retriable ({@link UpstreamException.Kind#BUSY}) instead of waiting, so a server that
 *     hangs holds at most this many of the gateway's request threads, not all of them
 * @param maxTotalCalls the most tool calls in progress on all servers together (default 48, three quarters of
 *     the gateway's 64 request threads); one more fails at once as retriable, so several hanging servers
 *     together still leave request threads for everything else (find, select, other sessions). One principal
 *     holds at most {@link #maxCallsPerPrincipal()} of a server's slots, so another always finds one
 */
public record UpstreamLimits(
        int maxResponseBytes,
        Duration backoffInitial,
        Duration backoffMax,
        Duration resyncInterval,
        Duration startTimeout,
        int maxConcurrentCalls,
        int maxTotalCalls) {
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_MAX_CONCURRENT_CALLS = 16;
    public static final int DEFAULT_MAX_TOTAL_CALLS = 48;
    public static final UpstreamLimits DEFAULT =
            new UpstreamLimits(8 * 1024 * 1024, Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofMinutes(5));

    public UpstreamLimits {
        if (maxResponseBytes < 1024) {
            throw new IllegalArgumentException(
                    "mcp.max-response-bytes must be at least 1024, got: " + maxResponseBytes);
        }
        if (backoffInitial == null || backoffInitial.isNegative() || backoffInitial.isZero()) {
            throw new IllegalArgumentException("mcp.backoff-initial must be positive, got: " + backoffInitial);
        }
        if (backoffMax == null || backoffMax.compareTo(backoffInitial) < 0) {
            throw new IllegalArgumentException("mcp.backoff-max must be at least mcp.backoff-initial (" + backoffInitial
                    + "), got: " + backoffMax);
        }
        if (resyncInterval == null || resyncInterval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("mcp.resync-interval must be at least 1 s, got: " + resyncInterval);
        }
        if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("mcp.start-timeout must be positive, got: " + startTimeout);
        }
        if (maxConcurrentCalls < 1 || maxConcurrentCalls > 10_000) {
            throw new IllegalArgumentException(
                    "--max-upstream-calls must be between 1 and 10000, got: " + maxConcurrentCalls);
        }
        if (maxTotalCalls < 1 || maxTotalCalls > 10_000) {
            throw new IllegalArgumentException(
                    "--max-upstream-calls-total must be between 1 and 10000, got: " + maxTotalCalls);
        }
    }

    /** The limits with the default start timeout and concurrent-call caps. */
    public UpstreamLimits(int maxResponseBytes, Duration backoffInitial, Duration backoffMax, Duration resyncInterval) {
        this(
                maxResponseBytes,
                backoffInitial,
                backoffMax,
                resyncInterval,
                DEFAULT_START_TIMEOUT,
                DEFAULT_MAX_CONCURRENT_CALLS,
                DEFAULT_MAX_TOTAL_CALLS);
    }

    /** These limits with another cap on concurrent calls per server. */
    public UpstreamLimits withMaxConcurrentCalls(int max) {
        return new UpstreamLimits(
                maxResponseBytes, backoffInitial, backoffMax, resyncInterval, startTimeout, max, maxTotalCalls);
    }

    /** These limits with another cap on concurrent calls over all servers together. */
    public UpstreamLimits withMaxTotalCalls(int max) {
        return new UpstreamLimits(
                maxResponseBytes, backoffInitial, backoffMax, resyncInterval, startTimeout, maxConcurrentCalls, max);
    }

    /**
     * The most calls one principal may have in progress on one server: half of {@link #maxConcurrentCalls}, rounded
     * up (8 of the default 16; 1 of 1), so that while one principal (any number of its sessions or runs) holds all
     * it may, another still finds a free slot. One more of the same principal fails at once as busy.
     */
    public int maxCallsPerPrincipal() {
        return (maxConcurrentCalls + 1) / 2;
    }

    /** The wait before reconnect number {@code failures} (1-based): initial * 2^(failures-1), at most the max. */
    public Duration backoff(int failures) {
        long ms = backoffInitial.toMillis() << Math.min(20, Math.max(0, failures - 1));
        return Duration.ofMillis(Math.min(ms, backoffMax.toMillis()));
    }
}
