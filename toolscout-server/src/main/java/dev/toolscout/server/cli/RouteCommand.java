package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.routing.RouteJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toolscout route MESSAGE}: the route a message takes before any LLM is called (docs/ROUTING.md). */
@Command(
        name = "route",
        mixinStandardHelpOptions = true,
        description = "The route MESSAGE takes before any LLM is called: DIRECT_MEMORY, SKILL_EXECUTE, SKILL_HINT, "
                + "TOOL_FILTER or LLM_REQUIRED, with the cosines it was decided on (docs/ROUTING.md).")
final class RouteCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            paramLabel = "MESSAGE",
            description = "The user's message; - reads it from standard input.")
    String message;

    @ParentCommand
    ToolScoutCli cli;

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
        String text = MessageArgument.resolve(message, cli.stdin, "MESSAGE");
        if (remote.given()) {
            RemoteApi api = remote.api(cli.env, engine, who, servers);
            return Results.print(spec, (ObjectNode)
                    api.post("/v1/route", Json.MAPPER.createObjectNode().put("message", text)));
        }
        var declared = servers.declared();
        try (McpRuntime mcp = new McpRuntime(EngineOptions.openForReading(
                engine.options().withModelPreload(),
                spec.commandLine().getErr(),
                servers.servers == null ? null : "--servers"))) {
            servers.start(mcp, declared, spec.commandLine().getErr(), ServersOptions.Use.ANSWER_FROM_CATALOG);
            return Results.print(spec, RouteJson.toJson(mcp.scout().route(who.principal(), text)));
        }
    }
}
