package dev.toolscout.server.cli;

import dev.toolscout.mcp.gateway.McpGateway;
import java.util.Locale;
import picocli.CommandLine.Option;

/** {@code --approval}: how the MCP gateways ({@code mcp}, {@code serve}) approve tools that need it. */
final class ApprovalOptions {
  @Option(names = "--approval", paramLabel = "MODE", defaultValue = "elicit",
      description = "How a tool that needs approval (ai_access propose) is approved: elicit (ask the user through "
          + "the client, the default), client (the client's own confirmation counts), never.")
  String approval;

  /** @throws IllegalArgumentException naming the option and the bad value */
  McpGateway.Approval mode() {
    try {
      return McpGateway.Approval.valueOf(approval.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException x) {
      throw new IllegalArgumentException("--approval must be elicit, client or never, got: '" + approval + "'");
    }
  }
}
