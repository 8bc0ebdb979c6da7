package dev.toolscout.mcp.gateway;

import java.time.Duration;
import java.util.Locale;

/**
 * How long an MCP session over Streamable HTTP may sit idle and how many may be open at once
 * (docs/SECURITY.md, "Limits").
 *
 * @param idleTimeout a session that has sent no request for this long is closed and its resources freed
 *     (default 30 minutes; checked every quarter of it, so closed at most 25% later). A client that comes
 *     back gets HTTP 404 for the old session id, which the MCP specification tells it to answer by starting
 *     a new session
 * @param maxSessions the most sessions open at once (default 1,000); a new one beyond it is refused with HTTP
 *     503 and a JSON-RPC error naming the limit
 */
public record SessionLimits(Duration idleTimeout, int maxSessions) {
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(30);
  public static final int DEFAULT_MAX_SESSIONS = 1_000;
  public static final SessionLimits DEFAULT = new SessionLimits(DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS);

  public SessionLimits {
    if (idleTimeout == null || idleTimeout.toMillis() < 1 || idleTimeout.compareTo(Duration.ofDays(7)) > 0) {
      throw new IllegalArgumentException(
          "--session-idle-timeout must be between 1 ms and 7 days, got: " + show(idleTimeout));
    }
    if (maxSessions < 1 || maxSessions > 1_000_000) {
      throw new IllegalArgumentException("--max-sessions must be between 1 and 1000000, got: " + maxSessions);
    }
  }

  /**
   * A duration as users write it: a whole number and a unit, {@code ms}, {@code s}, {@code m} or {@code h}
   * ({@code 30m}, {@code 90s}).
   */
  public static Duration parseDuration(String option, String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m|h)").matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException(option + " must be a whole number and a unit (ms, s, m or h), e.g. 30m, "
          + "got: '" + text + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }

  private static String show(Duration d) {
    return d == null ? "none" : d.toMillis() + " ms";
  }
}
