package dev.toolscout.bench.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.bench.server.ReplicaBench;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolscout bench-replicas}: replicas of {@code serve} on one PostgreSQL store (docs/DEPLOYMENT.md). */
@Command(
        name = "bench-replicas",
        mixinStandardHelpOptions = true,
        description = "Run serve replicas as processes on one PostgreSQL store (a new schema, dropped at the end) and "
                + "measure: the lag from replica A's acknowledgement of a tool to replica B's first selection including it "
                + "(p50/p99), B killed with SIGKILL during writes and restarted (texts embedded, time to ready), three "
                + "replicas started at once on a store of --start-tools tools (texts embedded), and POST /v1/select load "
                + "spread over 1, 2, 3 replicas. Progress goes to stderr. See docs/BENCHMARKS.md.")
final class BenchReplicasCommand implements Callable<Integer> {
    @Option(
            names = "--database",
            paramLabel = "URL",
            defaultValue = "postgresql://postgres@127.0.0.1:5432/test",
            description = "The PostgreSQL database (default: ${DEFAULT-VALUE}); the bench works in schemas of its own.")
    String database;

    @Option(
            names = "--writes",
            paramLabel = "N",
            defaultValue = "200",
            description = "Tools written through replica A for the lag figures (default: ${DEFAULT-VALUE}).")
    int writes;

    @Option(
            names = "--start-tools",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Tools in the store three replicas start on at once; 0 skips it (default: ${DEFAULT-VALUE}).")
    int startTools;

    @Option(
            names = "--replicas",
            split = ",",
            paramLabel = "N,N,...",
            defaultValue = "1,2,3",
            description = "Replica counts of the load run (default: ${DEFAULT-VALUE}).")
    List<Integer> replicas;

    @Option(
            names = "--clients",
            paramLabel = "N",
            defaultValue = "32",
            description = "Concurrent clients of the load run (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(
            names = "--requests",
            paramLabel = "N",
            defaultValue = "2000",
            description = "Measured requests per replica count (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(
            names = "--warmup",
            paramLabel = "N",
            defaultValue = "500",
            description = "Warm-up requests per replica count (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where the replicas' data directories and logs go (default: a new temporary folder).")
    Path workDir;

    @Option(names = "--seed", defaultValue = "42", description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ReplicaBench.Options o = new ReplicaBench.Options(
                database,
                writes,
                startTools,
                replicas,
                clients,
                requests,
                warmup,
                workDir != null ? workDir : Files.createTempDirectory("toolscout-bench-replicas"),
                seed);
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench-replicas: working in " + o.workDir());
        err.flush();
        ReplicaBench.Result r = new ReplicaBench(o, err).run();
        PrintWriter out = spec.commandLine().getOut();
        out.println(Json.pretty(json(r)));
        out.flush();
        return 0;
    }

    static ObjectNode json(ReplicaBench.Result r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        ObjectNode lag = n.putObject("lag");
        lag.put("writes", r.lag().writes());
        lag.put("p50_ms", round(r.lag().p50Ms()));
        lag.put("p99_ms", round(r.lag().p99Ms()));
        lag.put("max_ms", round(r.lag().maxMs()));
        lag.put("texts_embedded_by_readers", r.lag().textsEmbeddedByReaders());
        // b's catch-up of the writes by stage (its /metrics): p50 and p99 are histogram bucket bounds
        ObjectNode stages = lag.putObject("stages");
        for (ReplicaBench.Stage st : r.lag().stages()) {
            ObjectNode o = stages.putObject(st.stage());
            o.put("changes", st.count());
            o.put("mean_ms", finite(st.meanMs()));
            o.put("p50_ms_at_most", finite(st.p50Ms()));
            o.put("p99_ms_at_most", finite(st.p99Ms()));
        }
        ObjectNode kill = n.putObject("restart_after_kill");
        kill.put("writes_while_killed", r.writesWhileKilled());
        kill.put("ready_s", round(r.restartAfterKill().readySeconds()));
        kill.put("texts_embedded", r.restartAfterKill().textsEmbedded());
        ObjectNode once = n.putObject("started_at_once");
        once.put("tools", r.startTools());
        ArrayNode starts = once.putArray("replicas");
        for (ReplicaBench.Start s : r.startedAtOnce()) {
            starts.addObject()
                    .put("replica", s.replica())
                    .put("ready_s", round(s.readySeconds()))
                    .put("texts_embedded", s.textsEmbedded());
        }
        ArrayNode load = n.putArray("load");
        for (ReplicaBench.Load l : r.load()) {
            ObjectNode o = load.addObject();
            o.put("replicas", l.replicas());
            o.put("per_s", round(l.perSecond()));
            o.put("p50_ms", round(l.p50Ms()));
            o.put("p99_ms", round(l.p99Ms()));
            ArrayNode per = o.putArray("p99_ms_per_replica");
            l.p99MsPerReplica().forEach(v -> per.add(round(v)));
        }
        return n;
    }

    /** Rounded, or null when there is no figure (no change timed) or it is past the last bucket. */
    private static Double finite(double v) {
        return Double.isFinite(v) ? round(v) : null;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
