package dev.toolscout.server.cli;

import dev.toolscout.engine.ToolScout;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code toolscout remove NAME... | --source S}: takes tools out of the data directory's catalog. */
@Command(
        name = "remove",
        mixinStandardHelpOptions = true,
        description = "Remove tools from the data directory's catalog, by name or every tool of one source. "
                + "All or nothing: an unknown name removes none. MCP servers' tools go with `mcp remove`.")
final class RemoveCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "NAME", description = "Tool names, e.g. weather__forecast.")
    List<String> names;

    @Option(names = "--source", paramLabel = "S", description = "Every tool of this source (S__...).")
    String source;

    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        boolean byName = names != null && !names.isEmpty();
        if (byName == (source != null)) {
            throw new IllegalArgumentException("give tool NAMEs or --source S, "
                    + (byName ? "not both" : "got neither") + ", e.g. `toolscout remove weather__forecast` or "
                    + "`toolscout remove --source weather`");
        }
        try (ToolScout scout =
                EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
            // by source is the engine's (not in the API): the names of one source, checked against MCP servers
            int removed = byName
                    ? scout.remove(names).removed()
                    : scout.maintenance().removeSource(source).removed();
            // an imported API's configuration (its credential too) goes with its last tools
            boolean api = !byName && scout.maintenance().store().deleteOpenApiSource(source);
            PrintWriter out = spec.commandLine().getOut();
            out.printf(
                    Locale.ROOT,
                    "Removed %d tool%s%s. Catalog now holds %d tools (version %d).%n",
                    removed,
                    removed == 1 ? "" : "s",
                    api ? " and the stored configuration of the imported API '" + source + "'" : "",
                    scout.size(),
                    scout.maintenance().catalogVersion());
            out.flush();
        }
        return 0;
    }
}
