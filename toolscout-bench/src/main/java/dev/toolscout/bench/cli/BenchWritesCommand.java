package dev.toolscout.bench.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.bench.server.WriteBench;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolscout bench-writes}: other writers' latency while one source writes thousands of tools. */
@Command(
        name = "bench-writes",
        mixinStandardHelpOptions = true,
        description = "Write N tools of one source as an MCP upstream's sync does, and meanwhile register a small "
                + "source every --interval ms (each on its own thread, not waiting for the previous one): each small "
                + "write's time until durable and until searchable, against the same writes one after another with nothing "
                + "else running. Progress goes to stderr. See docs/BENCHMARKS.md.")
final class BenchWritesCommand implements Callable<Integer> {
    enum Format {
        table,
        json
    }

    @Option(
            names = "--bulk",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Tools of the large listing (default: ${DEFAULT-VALUE}).")
    int bulk;

    @Option(
            names = "--small",
            paramLabel = "N",
            defaultValue = "5",
            description = "Tools per small write (default: ${DEFAULT-VALUE}).")
    int small;

    @Option(
            names = "--baseline",
            paramLabel = "N",
            defaultValue = "20",
            description = "Small writes measured before the large one (default: ${DEFAULT-VALUE}).")
    int baseline;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Where the data directory goes (default: a new temporary folder; a reused one embeds nothing).")
    Path workDir;

    @Option(
            names = "--interval",
            paramLabel = "MS",
            defaultValue = "100",
            description =
                    "Milliseconds between two small writes' arrivals during the large one (default: ${DEFAULT-VALUE}).")
    int interval;

    @Option(
            names = "--until",
            defaultValue = "searchable",
            paramLabel = "durable|searchable",
            description =
                    "Small writes arrive until the large change is durable or searchable (default: ${DEFAULT-VALUE}; "
                            + "durable skips waiting for its embedding).")
    WriteBench.Until until;

    @Option(
            names = "--store",
            paramLabel = "ADDRESS",
            description =
                    "A PostgreSQL store (postgresql://host:port/database?schema=name) instead of the data directory's "
                            + "SQLite file; use a fresh schema.")
    String store;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        for (String[] v : new String[][] {
            {"--bulk", "" + bulk}, {"--small", "" + small}, {"--baseline", "" + baseline}, {"--interval", "" + interval}
        }) {
            int n = Integer.parseInt(v[1]);
            if (n < 1 || n > 1_000_000) {
                throw new picocli.CommandLine.ParameterException(
                        spec.commandLine(), v[0] + " must be between 1 and 1000000, got: " + n);
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        Path dir = workDir != null ? workDir : Files.createTempDirectory("toolscout-bench-writes");
        err.println("bench-writes: working in " + dir);
        WriteBench.Result r = new WriteBench(
                        new WriteBench.Options(bulk, small, baseline, dir, seed, store, interval, until), err)
                .run();
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) {
            ObjectNode n = JsonNodeFactory.instance.objectNode();
            n.put("bulk_tools", r.bulkTools());
            n.put("bulk_durable_ms", Math.round(r.bulkDurableMs()));
            if (!Double.isNaN(r.bulkIndexedMs())) {
                n.put("bulk_searchable_ms", Math.round(r.bulkIndexedMs()));
            }
            n.put("embedded", r.embedded());
            put(n, "baseline_durable", r.baselineDurable());
            put(n, "baseline_searchable", r.baselineSearchable());
            put(n, "during_durable", r.duringDurable());
            put(n, "during_searchable", r.duringSearchable());
            out.println(Json.pretty(n));
        } else {
            out.printf(
                    Locale.ROOT,
                    "%,d tools of one source: durable after %.0f ms, %s (%,d texts embedded)%n",
                    r.bulkTools(),
                    r.bulkDurableMs(),
                    Double.isNaN(r.bulkIndexedMs())
                            ? "searchable not waited for"
                            : String.format(Locale.ROOT, "searchable after %.1f s", r.bulkIndexedMs() / 1000),
                    r.embedded());
            out.printf(
                    Locale.ROOT,
                    "%-34s %5s %9s %9s %9s %9s%n",
                    "small write (" + small + " tools), ms",
                    "n",
                    "p50",
                    "p90",
                    "p99",
                    "max");
            out.println(WriteBench.row("alone: durable", r.baselineDurable()));
            out.println(WriteBench.row("alone: searchable", r.baselineSearchable()));
            out.println(WriteBench.row("during the large one: durable", r.duringDurable()));
            out.println(WriteBench.row("during the large one: searchable", r.duringSearchable()));
        }
        out.flush();
        return 0;
    }

    private static void put(ObjectNode n, String key, WriteBench.Stats s) {
        ObjectNode o = n.putObject(key);
        o.put("n", s.n());
        o.put("p50_ms", Math.round(s.p50() * 10) / 10.0);
        o.put("p90_ms", Math.round(s.p90() * 10) / 10.0);
        o.put("p99_ms", Math.round(s.p99() * 10) / 10.0);
        o.put("max_ms", Math.round(s.max() * 10) / 10.0);
    }
}
