package dev.toolscout.server.cli;

import dev.toolscout.engine.internal.Engine;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

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
    try (Engine e = EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
      return Results.print(spec, e.discovery().describe(who.principal(), name));
    }
  }
}
