package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.git.GitIndexer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code toolscout git-search QUERY --git-repo PATH}: what changed in a repository, by meaning. */
@Command(
        name = "git-search",
        mixinStandardHelpOptions = true,
        description = "Search a git repository's recent commits (message and changed paths) and the text files of its "
                + "HEAD by meaning, best first, as JSON. Vectors are kept in the data directory's store, so a later run "
                + "embeds only what changed since. See docs/INDEXING.md.")
final class GitSearchCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "QUERY", description = "What to look for, e.g. \"when are invoices sent\".")
    String query;

    @Option(names = "--git-repo", paramLabel = "PATH", required = true, description = "The repository (its work tree).")
    Path repo;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "5",
            description = "Results, 1-50 (default: ${DEFAULT-VALUE}).")
    int limit;

    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (limit < 1 || limit > 50) {
            throw new IllegalArgumentException("--limit must be between 1 and 50, got: " + limit);
        }
        try (ToolScout scout =
                EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
            try (GitIndexer git = GitIndexer.open(
                    repo, scout.maintenance().store(), scout.rankingParts().model(), GitIndexer.Limits.DEFAULT)) {
                ObjectNode out = git.searchJson(query, limit);
                PrintWriter w = spec.commandLine().getOut();
                w.println(Json.pretty(out));
                w.flush();
            }
        }
        return 0;
    }
}
