package dev.toolscout.server.cli;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.ToolSpec;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code toolscout describe NAME}: tool_discovery__describe from the command line. */
@Command(name = "describe", mixinStandardHelpOptions = true,
    description = "Show one tool's full definition (tool_discovery__describe).")
final class DescribeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "NAME", description = "Tool name, e.g. gmail__send_email.")
  String name;

  @Mixin PrincipalOptions who;
  @Mixin EngineOptions engine;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (ToolScout scout = EngineOptions.openForReading(engine.options(), spec.commandLine().getErr(), null)) {
      Optional<ToolSpec> tool = scout.describe(who.principal(), name);
      if (tool.isEmpty()) {
        // the discovery tool's words, the same for a denied and a missing tool
        spec.commandLine().getErr().println(spec.qualifiedName() + ": Tool not found: "
            + (name.length() > 100 ? name.substring(0, 100) + "..." : name));
        spec.commandLine().getErr().flush();
        return 1;
      }
      return Results.print(spec, Results.describe(tool.get()));
    }
  }
}
