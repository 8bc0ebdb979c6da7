package dev.toolscout.bench.cli;

import dev.toolscout.server.cli.ToolScoutCli;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The one runner of the product's benchmarks ({@code scripts/bench.sh}, never shipped): the commands that were
 * {@code toolscout bench*}, with the same names, options and output, and the product command line's error
 * handling (bad input exits {@link ToolScoutCli#BAD_INPUT} with one line naming the command).
 */
@Command(
        name = "scripts/bench.sh",
        mixinStandardHelpOptions = true,
        description = "Benchmarks of the product (never shipped). See docs/BENCHMARKS.md.",
        subcommands = {
            BenchCommand.class,
            BenchGatewayCommand.class,
            BenchHttpCommand.class,
            BenchReplicasCommand.class,
            BenchWritesCommand.class,
            BenchFrameworksCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Bench {
    private Bench() {}

    public static void main(String[] args) {
        // Lucene's start-up notes (vectorization) through java.util.logging, as the product's command line keeps them
        java.util.logging.Logger.getLogger("org.apache.lucene").setLevel(java.util.logging.Level.WARNING);
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line; returns the exit code (0 ok, 1 failure, 2 bad input). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return ToolScoutCli.execute(new CommandLine(new Bench()), args, out, err);
    }
}
