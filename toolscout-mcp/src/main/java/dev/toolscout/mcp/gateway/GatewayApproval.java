package dev.toolscout.mcp.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.approval.Approvals;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.model.ToolSpec;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's approval step for {@code PROPOSE} calls, as its {@link McpGateway.Approval} mode says: the approval
 * queue (someone else decides), an MCP elicitation to the calling client, the client's own confirmation, or never.
 * Stateless.
 */
final class GatewayApproval {
    private static final Logger LOG = LoggerFactory.getLogger(McpGateway.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private GatewayApproval() {}

    /** How a PROPOSE call from {@code exchange}'s client is approved in {@code mode}, with {@code queue}'s requests. */
    static ToolCalls.ApprovalStep step(McpGateway.Approval mode, Approvals queue, McpSyncServerExchange exchange) {
        return (request, spec, args) -> {
            Approvals q = queue;
            return switch (mode) {
                case NEVER ->
                    new ToolCalls.Decision.Proceed(false, null); // McpActions answers that it needs an approval
                case CLIENT -> new ToolCalls.Decision.Proceed(true, null);
                case ELICIT -> new ToolCalls.Decision.Proceed(elicit(exchange, spec, args), null);
                // no queue to hold it in: it does not run, and McpActions says so
                case QUEUE ->
                    q == null
                            ? new ToolCalls.Decision.Proceed(false, null)
                            : ToolCalls.queue(q, Approvals.Channel.GATEWAY, null)
                                    .decide(request, spec, args);
            };
        };
    }

    /** Asks the user through an MCP elicitation to the calling client (single-user modes only). */
    private static boolean elicit(McpSyncServerExchange exchange, ToolSpec spec, Object args) {
        McpSchema.ClientCapabilities caps = exchange.getClientCapabilities();
        if (caps == null || caps.elicitation() == null) {
            return false;
        }
        String shown = JSON.valueToTree(args).toString();
        McpSchema.ElicitFormRequest ask = McpSchema.ElicitFormRequest.builder(
                        "Allow " + spec.fullName() + " ("
                                + spec.sideEffect().name().toLowerCase(java.util.Locale.ROOT) + ") to run with "
                                + (shown.length() > 500 ? shown.substring(0, 500) + "..." : shown) + "?",
                        Map.of(
                                "type",
                                "object",
                                "properties",
                                Map.of("approve", Map.of("type", "boolean", "title", "Allow this call")),
                                "required",
                                List.of("approve")))
                .build();
        try {
            McpSchema.ElicitResult r = exchange.createElicitation(ask);
            return r != null
                    && r.action() == McpSchema.ElicitResult.Action.ACCEPT
                    && r.content() != null
                    && Boolean.TRUE.equals(r.content().get("approve"));
        } catch (RuntimeException e) {
            LOG.info("approval request for {} failed: {}", spec.fullName(), e.toString());
            return false;
        }
    }
}
