package dev.toolscout.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.ApprovalStore.StoredApproval;

/**
 * An approval request as JSON, the same for the CLI and the HTTP endpoints: arguments as stored (secrets masked,
 * each mask telling its value apart from others), {@code channel} ({@code gateway}, {@code agent}; null for a
 * request stored before channels were recorded) and {@code scope} (the agent run; null when none).
 */
public final class ApprovalJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ApprovalJson() {}

    public static ObjectNode of(StoredApproval a) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", a.id());
        o.put("status", a.status().id());
        o.put("requester", a.requester());
        o.put("tool", a.tool());
        o.put("channel", a.channel());
        o.put("scope", a.scope());
        try {
            o.set("arguments", JSON.readTree(a.argumentsJson()));
        } catch (java.io.IOException e) {
            o.put("arguments", a.argumentsJson()); // written by another writer, not JSON: shown as it is
        }
        o.put("created_at", a.createdAt().toString());
        o.put("decided_by", a.decidedBy());
        o.put("decided_at", a.decidedAt() == null ? null : a.decidedAt().toString());
        return o;
    }
}
