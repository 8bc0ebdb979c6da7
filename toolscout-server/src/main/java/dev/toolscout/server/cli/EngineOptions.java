package dev.toolscout.server.cli;

import dev.toolscout.engine.internal.Engine;
import dev.toolscout.engine.internal.LocalToolScout;
import dev.toolscout.model.Hashing;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options every engine-backed command shares: where the data lives and what catalog and policy to use. */
final class EngineOptions {
  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Data directory (catalog, vectors, index). Default: $TOOLSCOUT_DATA_DIR, else ~/.toolscout; "
          + "with --catalog, a folder per catalog set under it.")
  Path dataDir;

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      arity = "1..*",
      description = "Catalog files (JSON or YAML, see docs/CATALOG_FORMAT.md) to use instead of the demo catalog; "
          + "their tools are added to the data directory, whose other tools are kept.")
  List<Path> catalogs;

  @Option(names = "--policy", paramLabel = "FILE", description = "Access policy file (see docs/ACCESS_POLICY.md) "
      + "for this run only; the stored policy is unchanged (store one with 'policy set').")
  Path policy;

  @Option(names = "--model", paramLabel = "ID", description = "Embedding model id: all-minilm-l6-v2-q (the default), bge-small-en-v1.5-q or "
      + "bge-small-en-v1.5-q-instruct.")
  String model;

  Engine.Options options() {
    return new Engine.Options(resolveDataDir(), absolute(catalogs), null, policy, model, null, null, false);
  }

  /**
   * Opens the data directory and says on {@code err} when it holds tools besides the --catalog files' (they
   * are kept, and ranked with them), so mixing catalogs in one directory is never a surprise.
   */
  static LocalToolScout open(Engine.Options o, PrintWriter err) throws IOException {
    LocalToolScout scout = LocalToolScout.open(o);
    Engine e = scout.engine();
    int others = e.toolsBesidesCatalogFiles();
    if (others > 0) {
      err.println("toolscout: data directory " + e.dataDir() + " also holds " + others + " tool"
          + (others == 1 ? "" : "s") + " the --catalog files do not name; kept and ranked too "
          + "(`toolscout index --replace FILE...` keeps only the files' tools)");
      err.flush();
    }
    return scout;
  }

  Path resolveDataDir() {
    if (dataDir != null) {
      return dataDir;
    }
    String env = System.getenv("TOOLSCOUT_DATA_DIR");
    Path base = env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".toolscout");
    if (catalogs == null || catalogs.isEmpty()) {
      return base;
    }
    // one data directory per catalog set, so switching catalogs never re-embeds the demo or another set
    List<String> names = new ArrayList<>();
    for (Path p : absolute(catalogs)) {
      names.add(p.toString());
    }
    names.sort(null);
    return base.resolve("catalogs").resolve(Hashing.sha256Hex(String.join("\n", names)).substring(0, 16));
  }

  private static List<Path> absolute(List<Path> files) {
    return files == null ? null : files.stream().map(p -> p.toAbsolutePath().normalize()).toList();
  }
}
