package dev.toolscout.server.cli;

import dev.toolscout.engine.internal.Engine;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code toolscout list}: tool_discovery__list_all from the command line. */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = "List the tools you may see, optionally of one category (tool_discovery__list_all).")
final class ListCommand implements Callable<Integer> {
  @Option(names = "--category", paramLabel = "C", description = "Only this category.")
  String category;

  @Mixin PrincipalOptions who;
  @Mixin EngineOptions engine;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (Engine e = EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
      return Results.print(spec, e.discovery().listAll(who.principal(), category));
    }
  }
}
