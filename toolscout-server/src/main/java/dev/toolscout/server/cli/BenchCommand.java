package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.server.bench.SelectBench;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code toolscout bench}: selection latency, indexing throughput, cold start and memory, in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Measure select latency (with the embedding-only latency beside it) at several catalog sizes, "
        + "indexing throughput, cold start and memory per 10k tools. Progress goes to stderr.")
final class BenchCommand implements Callable<Integer> {
  enum Format { table, json }

  @Option(names = "--sizes", split = ",", paramLabel = "N,N,...", defaultValue = "1000,10000,100000",
      description = "Catalog sizes (default: ${DEFAULT-VALUE}).")
  List<Integer> sizes;

  @Option(names = "--queries", defaultValue = "300", description = "Measured queries per size (default: ${DEFAULT-VALUE}).")
  int queries;

  @Option(names = "--warmup", defaultValue = "300", description = "Warm-up queries per size (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--embed-limit", defaultValue = "10000",
      description = "Sizes up to this are embedded for real; larger ones reuse perturbed real vectors "
          + "(default: ${DEFAULT-VALUE}).")
  int embedLimit;

  @Option(names = "--work-dir", paramLabel = "DIR", description = "Where to build the data directories "
      + "(default: a new temporary folder).")
  Path workDir;

  @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
  Format format;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Path dir = workDir != null ? workDir : Files.createTempDirectory("toolscout-bench");
    PrintWriter err = spec.commandLine().getErr();
    err.println("bench: working in " + dir);
    SelectBench.Result r =
        new SelectBench(new SelectBench.Options(sizes, queries, warmup, embedLimit, dir, seed), err).run();
    PrintWriter out = spec.commandLine().getOut();
    if (format == Format.json) {
      out.println(Json.pretty(json(r)));
    } else {
      out.printf(Locale.ROOT, "%10s %14s %14s %13s %13s %10s %10s %16s %16s%n", "tools", "select p50 ms",
          "select p99 ms", "embed p50 ms", "embed p99 ms", "p50 ratio", "p99 ratio", "2-step p50 ms",
          "2-step p99 ms");
      for (SelectBench.SizeResult s : r.sizes()) {
        out.printf(Locale.ROOT, "%,10d %14.2f %14.2f %13.2f %13.2f %10.2f %10.2f %16.2f %16.2f%n", s.tools(),
            s.selectP50(), s.selectP99(), s.embedP50(), s.embedP99(), s.p50Ratio(), s.p99Ratio(), s.multiP50(),
            s.multiP99());
      }
      out.printf(Locale.ROOT, "indexing: %.0f tools/s (%,d tools, embedded, stored and indexed)%n",
          r.indexToolsPerS(), r.indexedForThroughput());
      out.printf(Locale.ROOT, "cold start at %,d tools: %.2f s from process start to first selection "
          + "(open %.0f ms, first select %.0f ms); the start before it %.2f s; re-embedded on restart: %d%n",
          r.coldStartTools(), r.coldStartS(), r.coldOpenMs(), r.coldFirstSelectMs(), r.firstStartS(),
          r.reembeddedOnRestart());
      out.printf(Locale.ROOT, "memory: %.1f MB RSS per 10k tools (measured at %,d)%n", r.rssMbPer10k(),
          r.memoryTools());
    }
    out.flush();
    return 0;
  }

  static ObjectNode json(SelectBench.Result r) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    ArrayNode sizes = n.putArray("sizes");
    for (SelectBench.SizeResult s : r.sizes()) {
      ObjectNode o = sizes.addObject();
      o.put("tools", s.tools());
      o.put("select_p50_ms", s.selectP50());
      o.put("select_p99_ms", s.selectP99());
      o.put("embed_p50_ms", s.embedP50());
      o.put("embed_p99_ms", s.embedP99());
      o.put("two_step_select_p50_ms", s.multiP50());
      o.put("two_step_select_p99_ms", s.multiP99());
    }
    n.put("index_tools_per_s", Math.round(r.indexToolsPerS() * 10) / 10.0);
    n.put("cold_start_s", r.coldStartS());
    n.put("cold_start_previous_s", r.firstStartS());
    n.put("reembedded_on_restart", r.reembeddedOnRestart());
    n.put("rss_mb_per_10k", Math.round(r.rssMbPer10k() * 10) / 10.0);
    return n;
  }
}
