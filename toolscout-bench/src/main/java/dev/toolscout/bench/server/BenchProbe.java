package dev.toolscout.bench.server;

import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolScout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Runs in a fresh JVM, started by {@link SelectBench}: opens a data directory, makes one selection as a caller
 * makes it ({@code ToolScout.select}: the route, reasons and token counts included), then {@code queries} more,
 * and prints one JSON line: how long the open and the first selection took, how
 * many tools were embedded (0 expected), and the process's resident memory after a GC. A separate process,
 * so the cold start includes JVM start, class loading and the model load, as a user's first call does.
 * Arguments: the data directory, the selections after the first, and (from {@link SelectBench}) the epoch
 * milliseconds at which the process was started.
 */
public final class BenchProbe {
    private BenchProbe() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int queries = Integer.parseInt(args[1]);
        long t0 = System.nanoTime();
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).preloadModel(true).build()) {
            long t1 = System.nanoTime();
            SelectResult s = scout.select(SelectRequest.of("Schedule a meeting with the team"));
            long t2 = System.nanoTime();
            long sinceStart = System.currentTimeMillis() - started(args);
            for (String q : SyntheticCatalog.queries(queries, 99)) {
                scout.select(SelectRequest.of(q));
            }
            System.gc();
            Thread.sleep(200);
            System.gc();
            Runtime rt = Runtime.getRuntime();
            System.out.printf(
                    Locale.ROOT,
                    "{\"process_start_to_first_select_ms\":%d,\"open_ms\":%.1f,\"first_select_ms\":%.1f,\"selected\":%d,\"tools\":%d,\"reembedded\":%d,"
                            + "\"rss_kb\":%d,\"heap_used_kb\":%d}%n",
                    sinceStart,
                    (t1 - t0) / 1e6,
                    (t2 - t1) / 1e6,
                    s.selected().size(),
                    scout.size(),
                    scout.maintenance().embeddedCount(),
                    rssKb(),
                    (rt.totalMemory() - rt.freeMemory()) / 1024);
        }
    }

    /**
     * When this process was started, epoch milliseconds: the third argument, the time its parent read just before
     * starting it (fork, exec and the JVM's boot included). Without it, the OS's process start time, which is not
     * to be trusted below a second on Linux: the JDK adds the process's start in clock ticks since boot to the
     * boot time of /proc/stat, which is whole seconds, so every start read that way is early by the same fraction
     * of a second (0.35 s on the machine of docs/BENCHMARKS.md, "Cold start"), and a start looks that much slower.
     */
    static long started(String[] args) {
        return args.length > 2
                ? Long.parseLong(args[2])
                : ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
    }

    /** VmRSS from /proc (Linux); -1 elsewhere. */
    static long rssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }
}
