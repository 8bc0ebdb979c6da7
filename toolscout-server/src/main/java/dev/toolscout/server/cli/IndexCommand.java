package dev.toolscout.server.cli;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.engine.CatalogChange;
import dev.toolscout.engine.catalog.CatalogFiles;
import dev.toolscout.skills.Skill;
import dev.toolscout.engine.internal.Engine;
import dev.toolscout.engine.internal.LocalToolScout;
import dev.toolscout.model.ToolSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code toolscout index FILE...}: adds or updates catalog files' tools in the data directory. */
@Command(name = "index", mixinStandardHelpOptions = true,
    description = "Add or update the tools of catalog FILEs in the data directory, embedding only what changed. "
        + "Stored tools the files do not name are kept unless --replace is given.")
final class IndexCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Catalog files (JSON or YAML).")
  List<Path> files;

  @Option(names = "--replace",
      description = "Make the catalog hold exactly these files' tools: remove every other stored tool (MCP "
          + "servers' tools excepted). Without it nothing stored is removed.")
  boolean replace;

  @Option(names = "--source", paramLabel = "NAME",
      description = "The FILEs are saved MCP tools/list responses; their tools are named NAME__<tool> and "
          + "their annotations kept (see docs/CATALOG_FORMAT.md).")
  String source;

  @Mixin EngineOptions engine;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    // validate every file before touching the store: a bad file changes nothing
    CatalogFiles.Loaded loaded = source == null ? CatalogFiles.readAll(files) : null;
    List<ToolSpec> tools = source == null ? loaded.tools() : CatalogFiles.loadToolsLists(files, source);
    List<Skill> skills = source == null ? CatalogFiles.loadSkills(files) : List.of();
    PrintWriter err = spec.commandLine().getErr();
    if (loaded != null && loaded.warning() != null) {
      err.println(loaded.warning());
      err.flush();
    }
    ProgressBar bar = new ProgressBar(err, tools.size());
    long start = System.nanoTime();
    try (LocalToolScout scout = EngineOptions.open(engine.options().withProgress(bar::update), err)) {
      // how many were embedded, and --replace (drop every other stored tool), are the engine's, not the API's
      Engine e = scout.engine();
      long before = e.embeddedCount();
      CatalogChange c = replace ? change(e.replaceCatalogTools(tools)) : scout.upsert(tools);
      skills.forEach(scout::putSkill);
      bar.finish();
      double secs = (System.nanoTime() - start) / 1e9;
      PrintWriter out = spec.commandLine().getOut();
      out.printf(Locale.ROOT,
          "Indexed %d tools from %d file(s): %d added, %d updated, %d unchanged%s; embedded %d in %.1f s. "
              + "Catalog now holds %d tools (version %d).%n",
          tools.size(), files.size(), c.added(), c.updated(), tools.size() - c.added() - c.updated(),
          replace ? ", " + c.removed() + " removed" : "", e.embeddedCount() - before, secs, scout.size(),
          c.version());
      if (!skills.isEmpty()) {
        out.printf(Locale.ROOT, "Skills: %s (`toolscout skills list`).%n",
            String.join(", ", skills.stream().map(Skill::name).toList()));
      }
      out.flush();
    }
    return 0;
  }

  private static CatalogChange change(Catalog.Change c) {
    return new CatalogChange(c.version(), c.added(), c.updated(), c.removed());
  }
}
