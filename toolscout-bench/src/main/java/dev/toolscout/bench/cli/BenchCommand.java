package dev.toolscout.bench.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.bench.eval.MessageBench;
import dev.toolscout.bench.server.SelectBench;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.engine.RankingParts;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.eval.EvalRunner;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout bench}: selection latency, indexing throughput, cold start and memory, in one run; or, with
 * {@code --queries-from}, selection latency on a dataset's own messages beside the peers'.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Measure select latency (with the embedding-only latency beside it) at several catalog sizes, "
                + "indexing throughput, cold start and memory per 10k tools. With --queries-from: select latency on a "
                + "dataset's own messages, interleaved with LangChain4j's VectorToolSearchStrategy configuration, the dense "
                + "list alone and one query embedding. Progress goes to stderr.")
final class BenchCommand implements Callable<Integer> {
    enum Format {
        table,
        json
    }

    @Option(
            names = "--sizes",
            split = ",",
            paramLabel = "N,N,...",
            defaultValue = "1000,10000,100000",
            description = "Catalog sizes (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(
            names = "--queries",
            paramLabel = "N",
            description =
                    "Measured queries per size (default: 300), or messages per variant with --queries-from (default:"
                            + " 1000, the set's messages taken in turn).")
    Integer queries;

    @Option(
            names = "--warmup",
            paramLabel = "N",
            description = "Warm-up queries per size (default: 300), or rounds with --queries-from (default: 200).")
    Integer warmup;

    @Option(
            names = "--queries-from",
            paramLabel = "DIR",
            description = "Replay the messages of a dataset in the normalized layout (tools.jsonl, queries.jsonl, "
                    + "qrels*.tsv; its folder or the normalized folder) against its own tools, instead of the generated "
                    + "catalogs.")
    Path queriesFrom;

    @Option(
            names = "--qrels",
            paramLabel = "FILE",
            description = "With --queries-from: the qrels file whose queries are replayed (default: the only one, else "
                    + "qrels.test.tsv).")
    String qrels;

    @Option(
            names = "--embed-limit",
            defaultValue = "10000",
            description = "Sizes up to this are embedded for real; larger ones reuse perturbed real vectors "
                    + "(default: ${DEFAULT-VALUE}).")
    int embedLimit;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where to build the data directories "
                    + "(default: a new temporary folder; with --queries-from, <data dir>/eval, shared with eval).")
    Path workDir;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (queriesFrom != null) {
            return messages();
        }
        if (qrels != null) {
            throw new IllegalArgumentException("--qrels needs --queries-from, got: --qrels " + qrels);
        }
        Path dir = workDir != null ? workDir : Files.createTempDirectory("toolscout-bench");
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench: working in " + dir);
        SelectBench.Result r = new SelectBench(
                        new SelectBench.Options(
                                sizes,
                                queries == null ? 300 : queries,
                                warmup == null ? 300 : warmup,
                                embedLimit,
                                dir,
                                seed),
                        err)
                .run();
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) {
            out.println(Json.pretty(json(r)));
        } else {
            out.printf(
                    Locale.ROOT,
                    "%10s %14s %14s %13s %13s %10s %10s %16s %16s%n",
                    "tools",
                    "select p50 ms",
                    "select p99 ms",
                    "embed p50 ms",
                    "embed p99 ms",
                    "p50 ratio",
                    "p99 ratio",
                    "2-step p50 ms",
                    "2-step p99 ms");
            for (SelectBench.SizeResult s : r.sizes()) {
                out.printf(
                        Locale.ROOT,
                        "%,10d %14.2f %14.2f %13.2f %13.2f %10.2f %10.2f %16.2f %16.2f%n",
                        s.tools(),
                        s.selectP50(),
                        s.selectP99(),
                        s.embedP50(),
                        s.embedP99(),
                        s.p50Ratio(),
                        s.p99Ratio(),
                        s.multiP50(),
                        s.multiP99());
            }
            out.printf(
                    Locale.ROOT,
                    "indexing: %.0f tools/s (%,d tools, embedded, stored and indexed)%n",
                    r.indexToolsPerS(),
                    r.indexedForThroughput());
            out.printf(
                    Locale.ROOT,
                    "cold start at %,d tools: %.2f s from process start to first selection, started as "
                            + "`toolscout select` is (open %.0f ms, first select %.0f ms); the start before it %.2f s; started as a "
                            + "server: %.2f s; re-embedded on restart: %d%n",
                    r.coldStartTools(),
                    r.coldStartS(),
                    r.coldOpenMs(),
                    r.coldFirstSelectMs(),
                    r.firstStartS(),
                    r.serverColdStartS(),
                    r.reembeddedOnRestart());
            out.printf(
                    Locale.ROOT,
                    "memory: %.1f MB RSS per 10k tools, %.1f MB heap per 100k tools (measured at %,d)%n",
                    r.rssMbPer10k(),
                    r.heapMbPer100k(),
                    r.memoryTools());
            for (SelectBench.Build b : r.builds()) {
                out.printf(
                        Locale.ROOT,
                        "built %,d tools (vectors given) in %.1f s: %.0f tools/s%n",
                        b.tools(),
                        b.seconds(),
                        b.toolsPerS());
            }
            for (SelectBench.ColdStart c : r.coldStarts()) {
                out.printf(
                        Locale.ROOT,
                        "cold start at %,d tools: %.2f s (open %.0f ms, first select %.0f ms), then %.0f MB RSS, %.0f MB"
                                + " heap%n",
                        c.tools(),
                        c.seconds(),
                        c.openMs(),
                        c.firstSelectMs(),
                        c.rssMb(),
                        c.heapMb());
            }
        }
        out.flush();
        return 0;
    }

    /** {@code --queries-from}: the dataset's messages through the product and its peers, interleaved. */
    private int messages() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        MessageBench.Options mo =
                new MessageBench.Options(queries == null ? 1000 : queries, warmup == null ? 200 : warmup);
        Path work = workDir != null ? workDir : defaultDataDir().resolve("eval");
        // the dataset is read and its engine opened as eval does (the same data directory: its tools embedded once)
        EvalRunner runner = new EvalRunner(
                new EvalRunner.Options(
                        queriesFrom,
                        qrels,
                        List.of(10),
                        EvalRunner.Retriever.hybrid,
                        false,
                        LocalEmbeddingModels.DEFAULT_ID,
                        work,
                        null),
                err);
        EvalRunner.Plan plan = runner.plan();
        MessageBench.Result r;
        // the select variant is the product's whole selection as a caller makes it: ToolScout.select, route included
        try (ToolScout scout = ToolScout.builder()
                .preloadModel(false)
                .dataDir(plan.dataDir())
                .tools(plan.tools())
                .model(plan.modelId())
                .selector(plan.selector())
                .build()) {
            RankingParts e = scout.rankingParts();
            // the index as a running engine keeps it once idle (a fresh directory is written in batches)
            scout.maintenance().compactIndex();
            r = new MessageBench(mo, err)
                    .run(
                            plan,
                            new EvalRunner.Product(e.catalog(), e.selector(), e.index(), e.access(), e.tokens()),
                            e.model(),
                            m -> scout.select(SelectRequest.of(m)));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.json) {
            out.println(Json.pretty(json(r)));
        } else {
            out.printf(
                    Locale.ROOT,
                    "%s (%s): %,d tools, %,d messages (%.1f%% of several clauses, %.1f words on average), "
                            + "%,d measured per variant%n",
                    r.dataset(),
                    r.qrels(),
                    r.tools(),
                    r.messages(),
                    r.multiClause(),
                    r.meanWords(),
                    r.measured());
            out.printf(
                    Locale.ROOT,
                    "%-12s %9s %9s %9s %9s %12s %12s%n",
                    "variant",
                    "p50 ms",
                    "p90 ms",
                    "p99 ms",
                    "mean ms",
                    "p50 / embed",
                    "p99 / embed");
            for (MessageBench.Latency l : r.latency()) {
                out.printf(
                        Locale.ROOT,
                        "%-12s %9.2f %9.2f %9.2f %9.2f %12.2f %12.2f%n",
                        l.variant(),
                        l.p50(),
                        l.p90(),
                        l.p99(),
                        l.mean(),
                        r.ratio(l.variant(), "embed", 50),
                        r.ratio(l.variant(), "embed", 99));
            }
            out.printf(
                    Locale.ROOT,
                    "select / langchain4j: p50 %.2f, p99 %.2f%n",
                    r.ratio("select", "langchain4j", 50),
                    r.ratio("select", "langchain4j", 99));
        }
        out.flush();
        return 0;
    }

    /** The product's data directory when no catalog is named ({@code toolscout eval}'s): what eval shares. */
    private static Path defaultDataDir() {
        String env = System.getenv("TOOLSCOUT_DATA_DIR");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".toolscout");
    }

    static ObjectNode json(MessageBench.Result r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("dataset", r.dataset());
        n.put("qrels", r.qrels());
        n.put("tools", r.tools());
        n.put("messages", r.messages());
        n.put("multi_clause_pct", r.multiClause());
        n.put("mean_words", r.meanWords());
        n.put("measured", r.measured());
        for (MessageBench.Latency l : r.latency()) {
            n.put(l.variant() + "_p50_ms", l.p50());
            n.put(l.variant() + "_p90_ms", l.p90());
            n.put(l.variant() + "_p99_ms", l.p99());
            n.put(l.variant() + "_mean_ms", l.mean());
        }
        for (int p : new int[] {50, 99}) {
            n.put("select_to_langchain4j_p" + p, r.ratio("select", "langchain4j", p));
            n.put("select_to_embed_p" + p, r.ratio("select", "embed", p));
            n.put("langchain4j_to_embed_p" + p, r.ratio("langchain4j", "embed", p));
            n.put("dense_to_embed_p" + p, r.ratio("dense", "embed", p));
        }
        return n;
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
        n.put("cold_start_server_s", r.serverColdStartS());
        n.put("reembedded_on_restart", r.reembeddedOnRestart());
        n.put("rss_mb_per_10k", Math.round(r.rssMbPer10k() * 10) / 10.0);
        n.put("heap_mb_per_100k", Math.round(r.heapMbPer100k() * 10) / 10.0);
        ArrayNode builds = n.putArray("builds");
        for (SelectBench.Build b : r.builds()) {
            builds.addObject()
                    .put("tools", b.tools())
                    .put("seconds", Math.round(b.seconds() * 10) / 10.0)
                    .put("tools_per_s", Math.round(b.toolsPerS()));
        }
        ArrayNode colds = n.putArray("cold_starts");
        for (SelectBench.ColdStart c : r.coldStarts()) {
            colds.addObject()
                    .put("tools", c.tools())
                    .put("cold_start_s", c.seconds())
                    .put("open_ms", c.openMs())
                    .put("first_select_ms", c.firstSelectMs())
                    .put("rss_mb", Math.round(c.rssMb()))
                    .put("heap_mb", Math.round(c.heapMb()));
        }
        return n;
    }
}
