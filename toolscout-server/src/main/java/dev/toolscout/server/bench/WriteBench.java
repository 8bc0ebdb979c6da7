package dev.toolscout.server.bench;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.engine.internal.Engine;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Measures whether a large upstream listing holds up other writers: one source's {@code bulkTools} new tools are
 * written as an MCP upstream's sync writes them (one catalog change, not waited for), and meanwhile other sources
 * register a few tools each, as another server's registration does, one after another until the large change is
 * searchable. For each of those small writes: the time until it is durable (acknowledged) and until it is
 * searchable. The same small writes with no large change running are the baseline.
 */
public final class WriteBench {
  /**
   * @param bulkTools the large listing's size
   * @param smallTools tools per small write
   * @param baseline small writes measured with nothing else running
   */
  public record Options(int bulkTools, int smallTools, int baseline, Path workDir, long seed) {}

  /** Latencies in milliseconds. */
  public record Stats(int n, double p50, double p90, double max) {
    static Stats of(List<Double> ms) {
      double[] v = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      if (v.length == 0) {
        return new Stats(0, 0, 0, 0);
      }
      return new Stats(v.length, pct(v, 0.5), pct(v, 0.9), v[v.length - 1]);
    }

    private static double pct(double[] sorted, double q) {
      return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }
  }

  /**
   * @param bulkDurableMs the large change's time to durable (its store transaction)
   * @param bulkIndexedMs its time until searchable: what every other writer waited before the indexing queue
   * @param embedded texts embedded by the run
   */
  public record Result(int bulkTools, double bulkDurableMs, double bulkIndexedMs, long embedded,
      Stats baselineDurable, Stats baselineSearchable, Stats duringDurable, Stats duringSearchable) {}

  private final Options o;
  private final PrintWriter progress;

  public WriteBench(Options o, PrintWriter progress) {
    this.o = o;
    this.progress = progress;
  }

  public Result run() throws Exception {
    List<ToolSpec> bulk = new ArrayList<>();
    for (ToolSpec t : SyntheticCatalog.tools(o.bulkTools(), o.seed())) {
      bulk.add(ToolSpec.builder("bulk__" + t.name().action(), t.description()).parameters(t.parameters())
          .category(t.category()).build());
    }
    try (Engine e = Engine.open(Engine.Options.of(o.workDir().resolve("data")).withModelPreload())) {
      e.model().embedQuery("warm up the model");
      List<Double> baseD = new ArrayList<>();
      List<Double> baseS = new ArrayList<>();
      int next = 0;
      for (int i = 0; i < o.baseline(); i++) {
        double[] t = small(e, next++);
        baseD.add(t[0]);
        baseS.add(t[1]);
      }
      progress.printf(Locale.ROOT, "bench-writes: baseline of %d small writes done; writing %,d tools of one source%n",
          o.baseline(), o.bulkTools());
      long embeddedBefore = e.embeddedCount();
      // the small writers start first, so a write waiting on the large change's store transaction is measured too
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicLong bulkSearchableAt =
          new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
      List<Double> durD = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Double> durS = java.util.Collections.synchronizedList(new ArrayList<>());
      int first = next;
      Thread writers = Thread.ofPlatform().name("bench-small-writes").start(() -> {
        int n = first;
        while (!stop.get()) {
          long started = System.nanoTime();
          double[] t = small(e, n++);
          if (started < bulkSearchableAt.get()) {
            durD.add(t[0]);
            durS.add(t[1]);
          }
          try {
            Thread.sleep(100);
          } catch (InterruptedException ie) {
            return;
          }
        }
      });
      Thread.sleep(300);
      long t0 = System.nanoTime();
      Predicate<CatalogEntry> bulkSource = c -> c.spec().name().source().equals("bulk");
      Catalog.Change big = e.catalog().sync(bulk, bulkSource);
      double bulkDurable = ms(t0);
      CompletableFuture<Double> indexed = CompletableFuture.supplyAsync(() -> {
        e.indexed(big);
        bulkSearchableAt.set(System.nanoTime());
        return ms(t0);
      }, r -> Thread.ofPlatform().name("bench-bulk-wait").start(r));
      indexed.join();
      stop.set(true);
      writers.join();
      double bulkIndexed = indexed.join();
      progress.printf(Locale.ROOT, "bench-writes: %,d tools searchable after %.1f s; %d small writes meanwhile%n",
          o.bulkTools(), bulkIndexed / 1000, durD.size());
      return new Result(o.bulkTools(), bulkDurable, bulkIndexed, e.embeddedCount() - embeddedBefore,
          Stats.of(baseD), Stats.of(baseS), Stats.of(durD), Stats.of(durS));
    }
  }

  /** One small write, as a server registration: a new source's tools; {durable ms, searchable ms}. */
  private double[] small(Engine e, int n) {
    List<ToolSpec> tools = new ArrayList<>();
    for (int i = 0; i < o.smallTools(); i++) {
      tools.add(ToolSpec.builder("server" + n + "__action" + i,
          "Action " + i + " of server " + n + ": looks up weather station " + (n * 31 + i) + " readings.")
          .sourceKind(SourceKind.MCP).build());
    }
    long t0 = System.nanoTime();
    Catalog.Change c = e.catalog().sync(tools, x -> x.spec().name().source().equals("server" + n));
    double durable = ms(t0);
    e.indexed(c);
    return new double[] {durable, ms(t0)};
  }

  private static double ms(long from) {
    return (System.nanoTime() - from) / 1e6;
  }

  public static String row(String label, Stats s) {
    return String.format(Locale.ROOT, "%-34s %5d %9.1f %9.1f %9.1f", label, s.n(), s.p50(), s.p90(), s.max());
  }
}
