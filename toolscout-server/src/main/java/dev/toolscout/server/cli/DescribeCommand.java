package dev.toolscout.server.cli;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.ToolSpec;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toolscout describe NAME}: tool_discovery__describe from the command line. */
@Command(
        name = "describe",
        mixinStandardHelpOptions = true,
        description = "Show one tool's full definition (tool_discovery__describe).")
final class DescribeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "Tool name, e.g. gmail__send_email.")
    String name;

    @ParentCommand
    ToolScoutCli cli;

    @Mixin
    PrincipalOptions who;

    @Mixin
    EngineOptions engine;

    @Mixin
    RemoteOptions remote;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (remote.given()) {
            // the server answers the tool in the catalog format, its dependencies already cut to what the key may see
            Optional<com.fasterxml.jackson.databind.JsonNode> json = remote.api(cli.env, engine, who, null)
                    .getIfFound("/v1/tools/"
                            + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8)
                                    .replace("+", "%20"));
            Optional<ToolSpec> tool = json.map(j -> dev.toolscout.model.ToolSpecJson.fromJson(j, null));
            java.util.List<String> groups = new java.util.ArrayList<>();
            json.ifPresent(j -> j.path("available_in_groups").forEach(g -> groups.add(g.asText())));
            return print(tool, groups);
        }
        try (ToolScout scout = EngineOptions.openForReading(
                engine.options(), spec.commandLine().getErr(), null)) {
            Optional<ToolSpec> tool = scout.describe(who.principal(), name);
            return print(
                    tool,
                    tool.isEmpty()
                            ? java.util.List.of()
                            : scout.availableInGroups(who.principal(), name).orElse(java.util.List.of()));
        }
    }

    private int print(Optional<ToolSpec> tool, java.util.List<String> groups) {
        if (tool.isEmpty()) {
            // the discovery tool's words, the same for a denied and a missing tool
            spec.commandLine()
                    .getErr()
                    .println(spec.qualifiedName() + ": Tool not found: "
                            + (name.length() > 100 ? name.substring(0, 100) + "..." : name));
            spec.commandLine().getErr().flush();
            return 1;
        }
        com.fasterxml.jackson.databind.node.ObjectNode out = Results.describe(tool.get());
        com.fasterxml.jackson.databind.node.ArrayNode g = out.putArray("available_in_groups");
        groups.forEach(g::add);
        return Results.print(spec, out);
    }
}
