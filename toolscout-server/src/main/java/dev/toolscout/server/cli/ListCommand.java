package dev.toolscout.server.cli;

import dev.toolscout.engine.ToolPage;
import dev.toolscout.engine.ToolScout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
    try (ToolScout scout = EngineOptions.openForReading(engine.options(), spec.commandLine().getErr(), null)) {
      // every page: the command lists all the principal may see, as tool_discovery__list_all does
      ToolPage first = scout.list(who.principal(), category, 0, ToolPage.MAX_LIMIT);
      List<ToolPage.ToolSummary> all = new ArrayList<>(first.tools());
      ToolPage page = first;
      while (all.size() < page.total() && !page.tools().isEmpty()) {
        page = scout.list(who.principal(), category, all.size(), ToolPage.MAX_LIMIT);
        all.addAll(page.tools());
      }
      return Results.print(spec, Results.list(new ToolPage(all, all.size(), 0, first.categories()), category));
    }
  }
}
