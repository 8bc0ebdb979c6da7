package dev.toolscout.mcp.gateway;

import java.time.Duration;
import java.util.Locale;

/**
 * How long an MCP session over Streamable HTTP may sit idle, how many may be open at once, and how many one API
 * key may hold (docs/SECURITY.md, "Limits").
 *
 * @param idleTimeout a session that has sent no request for this long is closed and its resources freed
 *     (default 30 minutes; checked every quarter of it, so closed at most 25% later). A client that comes
 *     back gets HTTP 404 for the old session id, which the MCP specification tells it to answer by starting
 *     a new session
 * @param maxSessions the most sessions open at once (default 1,000); a new one beyond it is refused with HTTP
 *     503 and a JSON-RPC error naming the limit
 * @param maxSessionsPerKey the most sessions one API key's caller (its user) may hold open at once (default 100,
 *     or {@code maxSessions} when that is less); one more is refused with HTTP 429. Without API keys there is one
 *     caller, held only by {@code maxSessions}
 * @param adminReserve of {@code maxSessions}, how many only keys with the role admin may take (default 50, or a
 *     twentieth of {@code maxSessions} when that is less), so that an operator can always reach a gateway that
 *     other keys have filled; a key without the admin role past {@code maxSessions - adminReserve} gets HTTP 503
 */
public record SessionLimits(Duration idleTimeout, int maxSessions, int maxSessionsPerKey, int adminReserve) {
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(30);
    public static final int DEFAULT_MAX_SESSIONS = 1_000;
    public static final int DEFAULT_MAX_SESSIONS_PER_KEY = 100;
    public static final int DEFAULT_ADMIN_RESERVE = 50;
    public static final SessionLimits DEFAULT = new SessionLimits(DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS);

    public SessionLimits {
        if (idleTimeout == null || idleTimeout.toMillis() < 1 || idleTimeout.compareTo(Duration.ofDays(7)) > 0) {
            throw new IllegalArgumentException(
                    "--session-idle-timeout must be between 1 ms and 7 days, got: " + show(idleTimeout));
        }
        if (maxSessions < 1 || maxSessions > 1_000_000) {
            throw new IllegalArgumentException("--max-sessions must be between 1 and 1000000, got: " + maxSessions);
        }
        if (maxSessionsPerKey < 1 || maxSessionsPerKey > maxSessions) {
            throw new IllegalArgumentException("--max-sessions-per-key must be between 1 and --max-sessions ("
                    + maxSessions + "), got: " + maxSessionsPerKey);
        }
        if (adminReserve < 0 || adminReserve >= maxSessions) {
            throw new IllegalArgumentException("--admin-session-reserve must be between 0 and --max-sessions less one ("
                    + (maxSessions - 1) + "), got: " + adminReserve);
        }
    }

    /** The limits with the default share per key and admin reserve for {@code maxSessions}. */
    public SessionLimits(Duration idleTimeout, int maxSessions) {
        this(idleTimeout, maxSessions, defaultPerKey(maxSessions), defaultAdminReserve(maxSessions));
    }

    /** {@value #DEFAULT_MAX_SESSIONS_PER_KEY}, or {@code maxSessions} when that is less. */
    public static int defaultPerKey(int maxSessions) {
        return Math.max(1, Math.min(DEFAULT_MAX_SESSIONS_PER_KEY, maxSessions));
    }

    /** {@value #DEFAULT_ADMIN_RESERVE}, or a twentieth of {@code maxSessions} when that is less. */
    public static int defaultAdminReserve(int maxSessions) {
        return Math.max(0, Math.min(DEFAULT_ADMIN_RESERVE, maxSessions / 20));
    }

    /**
     * A duration as users write it: a whole number and a unit, {@code ms}, {@code s}, {@code m} or {@code h}
     * ({@code 30m}, {@code 90s}).
     */
    public static Duration parseDuration(String option, String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m|h)").matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    option + " must be a whole number and a unit (ms, s, m or h), e.g. 30m, " + "got: '" + text + "'");
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
