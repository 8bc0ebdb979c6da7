package dev.toolscout.agent;

import java.util.Locale;
import java.util.Objects;

/**
 * How one request (or one resumption of a paused one) ended.
 *
 * @param runId the run's id: {@link Agent#resume} takes it
 * @param conversationId the conversation
 * @param status done, awaiting_approval or failed
 * @param text the model's final text (done), or what it said before it stopped
 * @param approvalId the approval request the run waits for (awaiting_approval), else {@code null}
 * @param tool the tool that waits for it, else {@code null}
 * @param error what stopped a failed run (a limit, the provider), else {@code null}
 * @param usage the run's usage record
 */
public record AgentResult(
        String runId,
        String conversationId,
        Status status,
        String text,
        String approvalId,
        String tool,
        String error,
        UsageRecord usage) {
    /** How a run stands. */
    public enum Status {
        DONE,
        AWAITING_APPROVAL,
        FAILED;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Status parse(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    public AgentResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        text = text == null ? "" : text;
    }
}
