package dev.toolscout.server.cli;

import dev.toolscout.engine.DataDirectoryInUseException;
import dev.toolscout.engine.Maintenance;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.engine.files.CatalogFiles;
import dev.toolscout.model.Hashing;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
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
            description =
                    "Catalog files (JSON or YAML, see docs/CATALOG_FORMAT.md) to use instead of the demo catalog; "
                            + "their tools are added to the data directory, whose other tools are kept.")
    List<Path> catalogs;

    @Option(
            names = "--policy",
            paramLabel = "FILE",
            description = "Access policy file (see docs/ACCESS_POLICY.md) "
                    + "for this run only; the stored policy is unchanged (store one with 'policy set').")
    Path policy;

    @Option(
            names = "--model",
            paramLabel = "ID",
            description = "Embedding model id: all-minilm-l6-v2-q (the default), bge-small-en-v1.5-q or "
                    + "bge-small-en-v1.5-q-instruct.")
    String model;

    @Option(
            names = "--store",
            paramLabel = "URL",
            description = "A PostgreSQL store shared by several replicas "
                    + "(postgresql://[user[:password]@]host[:port]/database[?schema=name]; see docs/DEPLOYMENT.md) instead of the "
                    + "data directory's own SQLite file; the data directory then holds only this process's search index. "
                    + "Default: $TOOLSCOUT_STORE, else none.")
    String store;

    /** How these options open the data directory: the model loaded lazily unless a command asks otherwise. */
    Opening options() {
        return new Opening(resolveDataDir(), absolute(catalogs), policy, model, resolveStore(), false, null, null);
    }

    /**
     * What a command opens the data directory with: these options, refined by the command (the model preloaded,
     * progress shown, without --policy). A value, so a command can ask for the same opening read-only.
     */
    record Opening(
            Path dataDir,
            List<Path> catalogs,
            Path policyFile,
            String model,
            String store,
            boolean preloadModel,
            java.util.function.IntConsumer progress,
            Duration indexResync) {
        Opening withModelPreload() {
            return new Opening(dataDir, catalogs, policyFile, model, store, true, progress, indexResync);
        }

        Opening withProgress(java.util.function.IntConsumer p) {
            return new Opening(dataDir, catalogs, policyFile, model, store, preloadModel, p, indexResync);
        }

        Opening withIndexResync(Duration period) {
            return new Opening(dataDir, catalogs, policyFile, model, store, preloadModel, progress, period);
        }

        /** Without --policy (the stored policy applies). */
        Opening withoutPolicy() {
            return new Opening(dataDir, catalogs, null, model, store, preloadModel, progress, indexResync);
        }

        /** A builder for this opening (each call a new one). */
        ToolScout.Builder builder() {
            ToolScout.Builder b = ToolScout.builder()
                    .dataDir(dataDir)
                    .preloadModel(preloadModel)
                    .store(store);
            if (catalogs != null) {
                b.catalogFiles(catalogs);
            }
            if (policyFile != null) {
                b.policyFile(policyFile);
            }
            if (model != null) {
                b.model(model);
            }
            if (progress != null) {
                b.progress(progress);
            }
            if (indexResync != null) {
                b.indexResync(indexResync);
            }
            return b;
        }
    }

    /** --store, else $TOOLSCOUT_STORE, else null (the data directory's own store); checked here, naming the option. */
    String resolveStore() {
        String s = store;
        String from = "--store";
        if (s == null) {
            s = System.getenv("TOOLSCOUT_STORE");
            from = "$TOOLSCOUT_STORE";
        }
        if (s == null || s.isBlank()) {
            return null;
        }
        try {
            dev.toolscout.store.PostgresUrl.parse(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(from + ": " + e.getMessage(), e);
        }
        return s;
    }

    /**
     * Opens the data directory and says on {@code err} when it holds tools besides the --catalog files' (they
     * are kept, and ranked with them), so mixing catalogs in one directory is never a surprise.
     */
    static ToolScout open(Opening o, PrintWriter err) throws IOException {
        return open(o.builder(), err);
    }

    /** As {@link #open(Opening, PrintWriter)}, with a builder for {@code o} the caller has refined. */
    static ToolScout open(ToolScout.Builder b, PrintWriter err) throws IOException {
        ToolScout scout = b.build();
        Maintenance e = scout.maintenance();
        int others = e.toolsBesidesCatalogFiles();
        if (others > 0) {
            err.println("toolscout: data directory " + e.dataDir() + " also holds " + others + " tool"
                    + (others == 1 ? "" : "s") + " the --catalog files do not name; kept and ranked too "
                    + "(`toolscout index --replace FILE...` keeps only the files' tools)");
            err.flush();
        }
        return scout;
    }

    /**
     * Opens the data directory for a command that only reads it (select, find, list, describe, policy show and
     * check). When another process holds it (a running {@code serve}), opens it read-only instead, writing
     * nothing there, and says so in one line on {@code err}: what the command shows is the store as of now.
     *
     * @param writingOption an option the command was given that would write to the directory (select's and
     *     find's --servers, whose tools join the catalog), or null; with one, a directory in use is an error
     *     naming it. --catalog files are accepted read-only when the directory holds all their tools as they are.
     */
    static ToolScout openForReading(Opening o, PrintWriter err, String writingOption) throws IOException {
        try {
            return open(o, err);
        } catch (DataDirectoryInUseException inUse) {
            if (writingOption != null) {
                throw new IllegalArgumentException(
                        writingOption + " would add tools to data directory " + inUse.dataDir()
                                + ", which is in use by " + inUse.holder() + "; without " + writingOption
                                + " this command reads "
                                + "the directory as it is (read-only)",
                        inUse);
            }
            ToolScout scout = new Opening(
                            o.dataDir(),
                            null,
                            o.policyFile(),
                            o.model(),
                            o.store(),
                            o.preloadModel(),
                            o.progress(),
                            o.indexResync())
                    .builder()
                    .readOnly(true)
                    .build();
            if (o.catalogs() != null) {
                // checked here rather than by the engine, so the error names the option
                List<String> absent = scout.maintenance().notStoredAsGiven(CatalogFiles.loadAll(o.catalogs()));
                if (!absent.isEmpty()) {
                    scout.close();
                    throw new IllegalArgumentException(
                            "--catalog: " + absent.size() + " of the files' tools are not in data "
                                    + "directory " + inUse.dataDir() + " as the files have them ('"
                                    + String.join("', '", absent.subList(0, Math.min(5, absent.size()))) + "'"
                                    + (absent.size() > 5 ? ", ..." : "")
                                    + "); it is in use by " + inUse.holder()
                                    + ", so this command can only read it: add them "
                                    + "through that process, or stop it first",
                            inUse);
                }
            }
            err.println("toolscout: data directory " + inUse.dataDir() + " is in use by " + inUse.holder()
                    + "; reading it read-only: results reflect its store as of now");
            err.flush();
            return scout;
        }
    }

    Path resolveDataDir() {
        if (dataDir != null) {
            return dataDir;
        }
        String env = System.getenv("TOOLSCOUT_DATA_DIR");
        Path base =
                env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".toolscout");
        if (catalogs == null || catalogs.isEmpty()) {
            return base;
        }
        // one data directory per catalog set, so switching catalogs never re-embeds the demo or another set
        List<String> names = new ArrayList<>();
        for (Path p : absolute(catalogs)) {
            names.add(p.toString());
        }
        names.sort(null);
        return base.resolve("catalogs")
                .resolve(Hashing.sha256Hex(String.join("\n", names)).substring(0, 16));
    }

    private static List<Path> absolute(List<Path> files) {
        return files == null
                ? null
                : files.stream().map(p -> p.toAbsolutePath().normalize()).toList();
    }
}
