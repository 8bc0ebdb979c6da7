package dev.toolscout.agent;

import java.time.Duration;
import java.util.Objects;

/**
 * How far one request may go before the loop stops it with an error that names the limit (docs/AGENT.md).
 *
 * @param maxTurns model calls in one request (default 10)
 * @param maxToolCalls tool calls in one request (default 25)
 * @param maxWallTime wall time of one request, the provider's time included, waiting for an approval excluded
 *     (default 5 minutes)
 * @param maxTokens input plus output tokens the provider reports for one request (default 200000)
 */
public record AgentLimits(int maxTurns, int maxToolCalls, Duration maxWallTime, long maxTokens) {
    /** The defaults: 10 turns, 25 tool calls, 5 minutes, 200000 tokens. */
    public static final AgentLimits DEFAULTS = new AgentLimits(10, 25, Duration.ofMinutes(5), 200_000);

    public AgentLimits {
        if (maxTurns < 1 || maxTurns > 1000) {
            throw new IllegalArgumentException("maxTurns must be between 1 and 1000, got: " + maxTurns);
        }
        if (maxToolCalls < 0 || maxToolCalls > 10_000) {
            throw new IllegalArgumentException("maxToolCalls must be between 0 and 10000, got: " + maxToolCalls);
        }
        Objects.requireNonNull(maxWallTime, "maxWallTime");
        if (maxWallTime.isNegative() || maxWallTime.isZero() || maxWallTime.compareTo(Duration.ofHours(24)) > 0) {
            throw new IllegalArgumentException("maxWallTime must be above 0 and at most 24 hours, got: " + maxWallTime);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1, got: " + maxTokens);
        }
    }
}
