package dev.toolscout.server.cli;

import dev.toolscout.mcp.gateway.McpGateway;
import java.util.Locale;
import picocli.CommandLine.Option;

/** {@code --approval}: how the MCP gateways ({@code mcp}, {@code serve}) approve tools that need it. */
final class ApprovalOptions {
    @Option(
            names = "--approval",
            paramLabel = "MODE",
            defaultValue = "queue",
            description = "How a tool that needs approval (ai_access propose) is approved: queue (the default: held "
                    + "until someone else approves it with `toolscout approvals approve ID`), never, or, single-user only "
                    + "and refused with --api-keys, elicit (the client that asks is asked) or client (the client's own "
                    + "confirmation counts).")
    String approval;

    /** @throws IllegalArgumentException naming the option and the bad value */
    McpGateway.Approval mode() {
        try {
            return McpGateway.Approval.valueOf(approval.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException(
                    "--approval must be queue, never, elicit or client, got: '" + approval + "'");
        }
    }

    /**
     * The mode for a gateway with API keys: elicit and client let the caller that asks approve its own call,
     * which only one user may be trusted with.
     *
     * @throws IllegalArgumentException naming the mode and why
     */
    McpGateway.Approval modeWithKeys() {
        McpGateway.Approval m = mode();
        if (m == McpGateway.Approval.ELICIT || m == McpGateway.Approval.CLIENT) {
            throw new IllegalArgumentException(
                    "--approval " + approval + " cannot be used with --api-keys: it lets the "
                            + "client that asks approve its own call, which is for a single user only; use --approval queue (the "
                            + "default) and approve with `toolscout approvals approve ID`");
        }
        return m;
    }
}
