package dev.toolscout.server.cli;

import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.server.DiscoveryJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toolscout find QUERY}: tool_discovery__find from the command line. */
@Command(
        name = "find",
        mixinStandardHelpOptions = true,
        description = "Search the tools you may see (tool_discovery__find).")
final class FindCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            paramLabel = "QUERY",
            description = "What the tool should do, e.g. \"send email\"; - reads it from standard input.")
    String query;

    @ParentCommand
    ToolScoutCli cli;

    @Option(names = "--limit", paramLabel = "N", description = "Most results, 1-50 (default 10).")
    Integer limit;

    @Mixin
    PrincipalOptions who;

    @Mixin
    EngineOptions engine;

    @Mixin
    ServersOptions servers;

    @Mixin
    RemoteOptions remote;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        // a usage error (exit 2), checked before anything opens, like select's --k
        if (limit != null && (limit < 1 || limit > DiscoveryTools.MAX_LIMIT)) {
            throw new IllegalArgumentException(
                    "--limit must be between 1 and " + DiscoveryTools.MAX_LIMIT + ", got: " + limit);
        }
        if (remote.given()) {
            RemoteApi api = remote.api(cli.env, engine, who, servers);
            com.fasterxml.jackson.databind.node.ObjectNode body =
                    Json.MAPPER.createObjectNode().put("query", MessageArgument.resolve(query, cli.stdin, "QUERY"));
            if (limit != null) {
                body.put("limit", limit);
            }
            // the server answers what DiscoveryJson.find prints
            return Results.print(
                    spec, (com.fasterxml.jackson.databind.node.ObjectNode) api.post("/v1/tools/search", body));
        }
        String text = MessageArgument.resolve(query, cli.stdin, "QUERY");
        var declared = servers.declared();
        try (McpRuntime mcp = new McpRuntime(EngineOptions.openForReading(
                engine.options().withModelPreload(),
                spec.commandLine().getErr(),
                servers.servers == null ? null : "--servers"))) {
            servers.start(mcp, declared, spec.commandLine().getErr(), ServersOptions.Use.ANSWER_FROM_CATALOG);
            return Results.print(spec, DiscoveryJson.find(mcp.scout().find(who.principal(), text, limit)));
        }
    }
}
