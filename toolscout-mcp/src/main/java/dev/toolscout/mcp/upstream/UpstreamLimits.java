package dev.toolscout.mcp.upstream;

import java.time.Duration;

/**
 * The limits of the upstream manager, each with a documented default.
 *
 * @param maxResponseBytes the largest message an upstream may send (default 8 MiB); a larger one is dropped
 *     and its call fails with a clear error
 * @param backoffInitial the wait before the first reconnect after a failure (default 500 ms); it doubles
 *     with each failure in a row
 * @param backoffMax the longest wait between reconnects (default 30 s)
 * @param resyncInterval how often every ready server's tools are listed again, the safety net behind
 *     {@code notifications/tools/list_changed} (default 5 minutes)
 */
public record UpstreamLimits(int maxResponseBytes, Duration backoffInitial, Duration backoffMax, Duration resyncInterval) {
  public static final UpstreamLimits DEFAULT =
      new UpstreamLimits(8 * 1024 * 1024, Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofMinutes(5));

  public UpstreamLimits {
    if (maxResponseBytes < 1024) {
      throw new IllegalArgumentException("mcp.max-response-bytes must be at least 1024, got: " + maxResponseBytes);
    }
    if (backoffInitial == null || backoffInitial.isNegative() || backoffInitial.isZero()) {
      throw new IllegalArgumentException("mcp.backoff-initial must be positive, got: " + backoffInitial);
    }
    if (backoffMax == null || backoffMax.compareTo(backoffInitial) < 0) {
      throw new IllegalArgumentException(
          "mcp.backoff-max must be at least mcp.backoff-initial (" + backoffInitial + "), got: " + backoffMax);
    }
    if (resyncInterval == null || resyncInterval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("mcp.resync-interval must be at least 1 s, got: " + resyncInterval);
    }
  }

  /** The wait before reconnect number {@code failures} (1-based): initial * 2^(failures-1), at most the max. */
  public Duration backoff(int failures) {
    long ms = backoffInitial.toMillis() << Math.min(20, Math.max(0, failures - 1));
    return Duration.ofMillis(Math.min(ms, backoffMax.toMillis()));
  }
}
