package dev.toolscout.server.cli;

import dev.toolscout.engine.Maintenance;
import dev.toolscout.engine.ToolScout;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code toolscout reindex}: rebuilds the data directory's search index from the store. */
@Command(
        name = "reindex",
        mixinStandardHelpOptions = true,
        description = "Rebuild the search index of the data directory from the store (the catalog and its stored "
                + "vectors): the manual rebuild beside the events and the periodic re-sync. Embeds only tools with no stored "
                + "vector for the model. See docs/INDEXING.md.")
final class ReindexCommand implements Callable<Integer> {
    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try (ToolScout scout =
                EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
            long t0 = System.nanoTime();
            Maintenance.Reindexed r = scout.maintenance().reindex();
            PrintWriter out = spec.commandLine().getOut();
            out.printf(
                    Locale.ROOT,
                    "Rebuilt the search index from the store: %d tools at catalog version %d, %d embedded, "
                            + "in %.1f s.%n",
                    r.tools(),
                    r.version(),
                    r.embedded(),
                    (System.nanoTime() - t0) / 1e9);
            out.flush();
        }
        return 0;
    }
}
