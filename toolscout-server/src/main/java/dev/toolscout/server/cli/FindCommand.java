package dev.toolscout.server.cli;

import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.server.Engine;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code toolscout find QUERY}: tool_discovery__find from the command line. */
@Command(name = "find", mixinStandardHelpOptions = true,
    description = "Search the tools you may see (tool_discovery__find).")
final class FindCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "QUERY", description = "What the tool should do, e.g. \"send email\".")
  String query;

  @Option(names = "--limit", paramLabel = "N", description = "Most results, 1-50 (default 10).")
  Integer limit;

  @Mixin PrincipalOptions who;
  @Mixin EngineOptions engine;
  @Mixin ServersOptions servers;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    var declared = servers.declared();
    try (Engine e = Engine.open(engine.options())) {
      servers.start(e, declared, spec.commandLine().getErr(), ServersOptions.Use.ANSWER_FROM_CATALOG);
      return Results.print(spec, e.discovery().find(who.principal(), query, limit));
    }
  }
}
