package dev.toolscout.bench.server;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Measures whether a large upstream listing holds up other writers: one source's {@code bulkTools} new tools are
 * written as an MCP upstream's sync writes them (one {@code Catalog.sync}, not waited for), and meanwhile other
 * sources register a few tools each, as another server's registration does: one every {@code intervalMs}, each
 * on its own thread whether or not the previous one returned (arrivals do not wait for each other, so a write that
 * arrives during the large change's store writes is measured as it would be met), until the large change is
 * durable or searchable ({@code until}). For each of those small writes: the time until it is durable
 * (acknowledged) and until it is searchable. The same small writes one after another with no large change running
 * are the baseline.
 */
public final class WriteBench {
    /**
     * @param bulkTools the large listing's size
     * @param smallTools tools per small write
     * @param baseline small writes measured with nothing else running
     */
    public record Options(
            int bulkTools,
            int smallTools,
            int baseline,
            Path workDir,
            long seed,
            String store,
            int intervalMs,
            Until until) {}

    /** When small writes stop arriving: once the large change is durable (its store writes), or searchable. */
    public enum Until {
        durable,
        searchable
    }

    /** Latencies in milliseconds. */
    public record Stats(int n, double p50, double p90, double p99, double max) {
        static Stats of(List<Double> ms) {
            double[] v = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            if (v.length == 0) {
                return new Stats(0, 0, 0, 0, 0);
            }
            return new Stats(v.length, pct(v, 0.5), pct(v, 0.9), pct(v, 0.99), v[v.length - 1]);
        }

        private static double pct(double[] sorted, double q) {
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
        }
    }

    /**
     * @param bulkDurableMs the large change's time to durable (its store transaction)
     * @param bulkIndexedMs its time until searchable (NaN when not waited for): what every other writer waited
     *     before the indexing queue
     * @param embedded texts embedded by the run
     */
    public record Result(
            int bulkTools,
            double bulkDurableMs,
            double bulkIndexedMs,
            long embedded,
            Stats baselineDurable,
            Stats baselineSearchable,
            Stats duringDurable,
            Stats duringSearchable) {}

    private final Options o;
    private final PrintWriter progress;

    public WriteBench(Options o, PrintWriter progress) {
        this.o = o;
        this.progress = progress;
    }

    public Result run() throws Exception {
        List<ToolSpec> bulk = new ArrayList<>();
        for (ToolSpec t : SyntheticCatalog.tools(o.bulkTools(), o.seed())) {
            bulk.add(ToolSpec.builder("bulk__" + t.name().action(), t.description())
                    .parameters(t.parameters())
                    .category(t.category())
                    .build());
        }
        ToolScout.Builder eo = ToolScout.builder().dataDir(o.workDir().resolve("data"));
        if (o.store() != null) {
            eo.store(o.store());
        }
        try (ToolScout e = eo.build()) {
            e.rankingParts().model().embedQuery("warm up the model");
            List<Double> baseD = new ArrayList<>();
            List<Double> baseS = new ArrayList<>();
            int next = 0;
            for (int i = 0; i < o.baseline(); i++) {
                double[] t = small(e, next++);
                baseD.add(t[0]);
                baseS.add(t[1]);
            }
            progress.printf(
                    Locale.ROOT,
                    "bench-writes: baseline of %d small writes done; writing %,d tools of one source%n",
                    o.baseline(),
                    o.bulkTools());
            long embeddedBefore = e.maintenance().embeddedCount();
            // the small writes start arriving first, so one waiting on the large change's first store write is measured
            AtomicBoolean stop = new AtomicBoolean();
            List<Double> durD = Collections.synchronizedList(new ArrayList<>());
            List<Double> durS = Collections.synchronizedList(new ArrayList<>());
            List<Thread> inFlight = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger failed = new AtomicInteger();
            int first = next;
            Thread arrivals = Thread.ofPlatform().name("bench-small-arrivals").start(() -> {
                int n = first;
                while (!stop.get()) {
                    int id = n++;
                    inFlight.add(Thread.ofPlatform().name("bench-small-" + id).start(() -> {
                        try {
                            double[] t = small(e, id);
                            durD.add(t[0]);
                            durS.add(t[1]);
                        } catch (RuntimeException ex) {
                            failed.incrementAndGet();
                            progress.println("bench-writes: small write " + id + " failed: " + ex);
                        }
                    }));
                    try {
                        Thread.sleep(o.intervalMs());
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            });
            Thread.sleep(300);
            long t0 = System.nanoTime();
            Predicate<CatalogEntry> bulkSource = c -> c.spec().name().source().equals("bulk");
            Catalog.Change big = e.rankingParts().catalog().sync(bulk, bulkSource);
            double bulkDurable = ms(t0);
            double bulkIndexed = Double.NaN;
            if (o.until() == Until.searchable) {
                e.rankingParts().catalog().awaitSearchable(big);
                bulkIndexed = ms(t0);
            }
            stop.set(true);
            arrivals.join();
            for (Thread t : List.copyOf(inFlight)) {
                t.join();
            }
            if (failed.get() > 0) {
                throw new IllegalStateException(failed.get() + " small writes failed (see above)");
            }
            progress.printf(
                    Locale.ROOT,
                    "bench-writes: %,d tools %s after %.1f s; %d small writes meanwhile%n",
                    o.bulkTools(),
                    o.until(),
                    (o.until() == Until.durable ? bulkDurable : bulkIndexed) / 1000,
                    durD.size());
            return new Result(
                    o.bulkTools(),
                    bulkDurable,
                    bulkIndexed,
                    e.maintenance().embeddedCount() - embeddedBefore,
                    Stats.of(baseD),
                    Stats.of(baseS),
                    Stats.of(durD),
                    Stats.of(durS));
        }
    }

    /** One small write, as a server registration: a new source's tools; {durable ms, searchable ms}. */
    private double[] small(ToolScout e, int n) {
        List<ToolSpec> tools = new ArrayList<>();
        for (int i = 0; i < o.smallTools(); i++) {
            tools.add(ToolSpec.builder(
                            "server" + n + "__action" + i,
                            "Action " + i + " of server " + n + ": looks up weather station " + (n * 31 + i)
                                    + " readings.")
                    .sourceKind(SourceKind.MCP)
                    .build());
        }
        long t0 = System.nanoTime();
        Catalog.Change c = e.rankingParts()
                .catalog()
                .sync(tools, x -> x.spec().name().source().equals("server" + n));
        double durable = ms(t0);
        e.rankingParts().catalog().awaitSearchable(c);
        return new double[] {durable, ms(t0)};
    }

    private static double ms(long from) {
        return (System.nanoTime() - from) / 1e6;
    }

    public static String row(String label, Stats s) {
        return String.format(
                Locale.ROOT, "%-34s %5d %9.1f %9.1f %9.1f %9.1f", label, s.n(), s.p50(), s.p90(), s.p99(), s.max());
    }
}
