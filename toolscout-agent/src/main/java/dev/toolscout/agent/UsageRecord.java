package dev.toolscout.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * What one request used, as stored (docs/AGENT.md, Usage records, lists the fields): the selection with its
 * scores, each tool call with where its tool came from ({@code selected}, {@code discovery}, {@code skill},
 * {@code meta}, {@code other}) and how it went, approvals and their outcome, the provider's token counts and the
 * latencies. A paused request's record is replaced when it resumes.
 *
 * @param id the run's id
 * @param at when the request last stopped (finished or paused)
 * @param json the record
 */
public record UsageRecord(String id, Instant at, ObjectNode json) {
    public UsageRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(json, "json");
    }

    /** done, awaiting_approval or failed. */
    public String status() {
        return json.path("status").asText();
    }
}
