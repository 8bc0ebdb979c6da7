package dev.toolscout.server.cli;

import dev.toolscout.engine.DataDirectoryInUseException;
import dev.toolscout.model.InvalidSpecException;
import dev.toolscout.store.StoreException;
import java.io.InputStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code toolscout} command line. */
@Command(
        name = "toolscout",
        mixinStandardHelpOptions = true,
        version = "toolscout 0.1.0",
        description = "Selects the few tools an LLM agent should see for each message, out of thousands.",
        subcommands = {
            SelectCommand.class,
            RouteCommand.class,
            FindCommand.class,
            DescribeCommand.class,
            ListCommand.class,
            IndexCommand.class,
            RemoveCommand.class,
            SkillsCommand.class,
            MemoryCommand.class,
            ReindexCommand.class,
            GitSearchCommand.class,
            EvalCommand.class,
            CalibrateCommand.class,
            LearnCommand.class,
            McpCommand.class,
            ApprovalsCommand.class,
            ChatCommand.class,
            UsageCommand.class,
            PolicyCommand.class,
            VerbsCommand.class,
            ServeCommand.class,
            CommandLine.HelpCommand.class
        })
public final class ToolScoutCli {
    /**
     * Lucene logs through java.util.logging; its start-up notes (vectorization) are not for CLI users. Held in a
     * field because JUL keeps loggers only weakly: a level set on an unreferenced logger is lost at the next GC.
     */
    private static final java.util.logging.Logger LUCENE_LOG = java.util.logging.Logger.getLogger("org.apache.lucene");

    private static final java.util.logging.Logger LUCENE_VECTOR_LOG =
            java.util.logging.Logger.getLogger("org.apache.lucene.internal.vectorization");

    /**
     * Set (true) by the launcher beside the client-compiler flag of a one-shot command (toolscout-bench's
     * SelectBench.ONE_SHOT_JVM).
     */
    static final String ONE_SHOT_PROPERTY = "toolscout.one-shot";

    /** Exit code for bad input (options, files, values): every usage error, whichever command finds it. */
    public static final int BAD_INPUT = 2;

    /** What {@code -} in place of a message or query reads (standard input, unless a test gives another). */
    final InputStream stdin;

    /** The environment the commands read ({@code TOOLSCOUT_API_KEY}): the process's, unless a test gives another. */
    final java.util.Map<String, String> env;

    ToolScoutCli(InputStream stdin, java.util.Map<String, String> env) {
        this.stdin = stdin;
        this.env = env;
    }

    public static void main(String[] args) {
        LUCENE_LOG.setLevel(java.util.logging.Level.WARNING);
        if (Boolean.getBoolean(ONE_SHOT_PROPERTY)) {
            // the launcher starts a one-shot command with the client compiler only, on purpose: Lucene's warning that
            // its vector API needs the server compiler says nothing a user can act on there (a one-shot selection
            // makes a handful of vector comparisons). A property the launcher sets, not the JVM's arguments read
            // through JMX, which would load the management classes at every start
            LUCENE_VECTOR_LOG.setLevel(java.util.logging.Level.SEVERE);
        }
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line; returns the exit code (0 ok, 1 failure, 2 bad input). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, System.in, out, err);
    }

    /** Runs a command line with {@code in} as its standard input; see {@link #run(String[], PrintWriter, PrintWriter)}. */
    public static int run(String[] args, InputStream in, PrintWriter out, PrintWriter err) {
        return run(args, in, out, err, System.getenv());
    }

    /** Runs a command line with {@code in} and {@code env} as its standard input and environment. */
    public static int run(
            String[] args, InputStream in, PrintWriter out, PrintWriter err, java.util.Map<String, String> env) {
        return execute(new CommandLine(new ToolScoutCli(in, env)), args, out, err);
    }

    /**
     * Runs {@code args} on {@code cl} with this command line's error handling (a usage error is one line naming the
     * command and exits {@link #BAD_INPUT}): also what the never-shipped bench runner (toolscout-bench) runs with.
     */
    public static int execute(CommandLine cl, String[] args, PrintWriter out, PrintWriter err) {
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            Throwable t = e;
            if (t instanceof java.io.UncheckedIOException u && u.getCause() != null) {
                t = u.getCause();
            }
            // InvalidSkillException is an IllegalArgumentException too; a data directory another process holds is the
            // caller's --data-dir to change (the message says so), so it is a usage error as docs/USAGE.md states
            boolean badInput = t instanceof IllegalArgumentException
                    || t instanceof InvalidSpecException
                    || t instanceof java.nio.file.NoSuchFileException
                    || t instanceof DataDirectoryInUseException;
            // a known condition is one line; anything else keeps its stack trace, which is what a bug report needs. A
            // store whose server cannot be reached or refuses the connection (wrong address, SSL, password) is known:
            // the message names the store (without a password), the operation and the driver's reason
            boolean known = badInput
                    || t instanceof RemoteApi.RemoteException
                    || (t instanceof StoreException s && s.connectionFailed());
            // the whole command path ("toolscout mcp add"), so a message says which command refused
            cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": error: " + t.getMessage());
            if (!known) {
                t.printStackTrace(cmd.getErr());
            }
            cmd.getErr().flush();
            return badInput ? BAD_INPUT : 1;
        });
        return cl.execute(args);
    }
}
