package dev.toolscout.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.agent.AgentResult;

/** One JSON form of an agent run's result, for the CLI and the HTTP API ({@code AgentRun} in the OpenAPI document). */
public final class AgentJson {
    private AgentJson() {}

    public static ObjectNode result(AgentResult r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("run_id", r.runId());
        n.put("conversation_id", r.conversationId());
        n.put("status", r.status().id());
        n.put("text", r.text());
        if (r.approvalId() != null) {
            n.putObject("approval").put("id", r.approvalId()).put("tool", r.tool());
        }
        if (r.error() != null) {
            n.put("error", r.error());
        }
        n.set("usage", r.usage().json());
        return n;
    }
}
