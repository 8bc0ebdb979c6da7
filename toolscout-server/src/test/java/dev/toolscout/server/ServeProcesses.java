package dev.toolscout.server;

import dev.toolscout.server.cli.ToolScoutCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code toolscout} as a child process of a test: the command line, a start with its output to a file, a wait. */
public final class ServeProcesses {
    private ServeProcesses() {}

    /** This JVM's java running the CLI with {@code args}, as the launcher runs it (native access, vector API). */
    public static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules",
                "jdk.incubator.vector",
                "-cp",
                System.getProperty("java.class.path"),
                ToolScoutCli.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Starts {@code cmd} with its standard output and error, together, written to {@code log}. */
    public static Process start(Path log, List<String> cmd) throws Exception {
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Waits (at most 180 s) until {@code log} holds {@code text}; fails with the log if the child exits first. */
    public static void awaitOutput(Process child, Path log, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!Files.exists(log) || !Files.readString(log).contains(text)) {
            if (!child.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the child did not print " + text + "; its output: "
                        + (Files.exists(log) ? Files.readString(log) : "none"));
            }
            Thread.sleep(100);
        }
    }
}
