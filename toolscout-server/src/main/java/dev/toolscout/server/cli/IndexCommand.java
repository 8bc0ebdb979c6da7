package dev.toolscout.server.cli;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.server.Engine;
import dev.toolscout.server.catalog.CatalogFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code toolscout index FILE...}: adds or updates catalog files' tools in the data directory. */
@Command(name = "index", mixinStandardHelpOptions = true,
    description = "Add or update the tools of catalog FILEs in the data directory, embedding only what changed.")
final class IndexCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Catalog files (JSON or YAML).")
  List<Path> files;

  @Mixin EngineOptions engine;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    // validate every file before touching the store: a bad file changes nothing
    CatalogFiles.Loaded loaded = CatalogFiles.readAll(files);
    List<ToolSpec> tools = loaded.tools();
    PrintWriter err = spec.commandLine().getErr();
    if (loaded.warning() != null) {
      err.println(loaded.warning());
      err.flush();
    }
    ProgressBar bar = new ProgressBar(err, tools.size());
    long start = System.nanoTime();
    try (Engine e = Engine.open(engine.options().withProgress(bar::update))) {
      long before = e.embeddedCount();
      Catalog.Change c = e.index(tools);
      bar.finish();
      double secs = (System.nanoTime() - start) / 1e9;
      PrintWriter out = spec.commandLine().getOut();
      out.printf(Locale.ROOT,
          "Indexed %d tools from %d file(s): %d added, %d updated, %d unchanged; embedded %d in %.1f s. "
              + "Catalog now holds %d tools (version %d).%n",
          tools.size(), files.size(), c.added(), c.updated(), tools.size() - c.added() - c.updated(),
          e.embeddedCount() - before, secs, e.catalog().size(), e.catalog().version());
      out.flush();
    }
    return 0;
  }
}
