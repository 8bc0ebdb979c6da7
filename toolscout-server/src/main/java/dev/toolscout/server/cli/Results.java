package dev.toolscout.server.cli;

import dev.toolscout.discovery.DiscoveryResult;
import picocli.CommandLine.Model.CommandSpec;

/** Prints a discovery result: JSON on stdout, or the error on stderr with exit code 1. */
final class Results {
  private Results() {}

  static int print(CommandSpec spec, DiscoveryResult r) {
    return switch (r) {
      case DiscoveryResult.Ok ok -> {
        spec.commandLine().getOut().println(Json.pretty(ok.output()));
        spec.commandLine().getOut().flush();
        yield 0;
      }
      case DiscoveryResult.Error err -> {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + err.message());
        spec.commandLine().getErr().flush();
        yield 1;
      }
    };
  }
}
