package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.UsageRecord;
import dev.toolscout.agent.UsageReport;
import dev.toolscout.mcp.gateway.SessionLimits;
import dev.toolscout.state.StateStore;
import dev.toolscout.store.PostgresStateStore;
import dev.toolscout.store.SqliteStateStore;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout usage}: the agent loop's success metrics over its usage records, and their export as (message,
 * tools used) pairs. Opens only the store (the data directory's, read-only, so it works beside a running {@code
 * serve}; or the shared PostgreSQL store of {@code --store}, which every replica writes its records to).
 */
@Command(
        name = "usage",
        mixinStandardHelpOptions = true,
        description = "Show what the agent loop used: share of called tools that were pre-selected, discovery rate, "
                + "approvals, tokens (see docs/AGENT.md).")
final class UsageCommand implements Callable<Integer> {
    @Option(
            names = "--since",
            paramLabel = "WHEN",
            defaultValue = "7d",
            description = "Records from this time on: an ISO-8601 instant (2026-11-26T00:00:00Z) or an age, a whole "
                    + "number and ms, s, m, h or d (default ${DEFAULT-VALUE}).")
    String since;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "100000",
            description = "The most records read, oldest first (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--records", description = "With --format json: every record too, not only the summary.")
    boolean records;

    @Option(
            names = "--export-pairs",
            paramLabel = "FILE",
            description =
                    "Write one JSON line per finished request, "
                            + "{\"message\", \"tools\", \"principal\", \"conversation\", \"at\"}, for `toolscout learn --pairs FILE`.")
    Path pairs;

    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    static Instant since(String text, Instant now) {
        String t = text == null ? "" : text.strip();
        if (t.matches("\\d+d")) {
            return now.minus(java.time.Duration.ofDays(Long.parseLong(t.substring(0, t.length() - 1))));
        }
        if (t.matches("\\d+(ms|s|m|h)")) {
            return now.minus(SessionLimits.parseDuration("--since", t));
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--since must be an ISO-8601 instant (2026-11-26T00:00:00Z) or an age "
                    + "such as 24h or 7d, got: '" + text + "'");
        }
    }

    /** The shared PostgreSQL store (--store, $TOOLSCOUT_STORE) the replicas write, else the data directory's own. */
    private StateStore openStore() {
        String shared = engine.resolveStore();
        if (shared != null) {
            return PostgresStateStore.open(shared);
        }
        Path db = engine.resolveDataDir().resolve("state.db");
        if (!Files.isRegularFile(db)) {
            throw new IllegalArgumentException("no ToolScout data directory at " + db.getParent() + " (it holds no "
                    + "state.db); give --data-dir the directory the agent ran on, or --store the shared store it used");
        }
        return SqliteStateStore.openReadOnly(db);
    }

    @Override
    public Integer call() throws Exception {
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("--format must be text or json, got: '" + format + "'");
        }
        Instant from = since(since, Instant.now());
        List<UsageRecord> list;
        try (StateStore store = openStore()) {
            list = Agent.usage(store, from, limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (pairs != null) {
            StringBuilder b = new StringBuilder();
            for (ObjectNode p : UsageReport.pairs(list)) {
                b.append(p).append('\n');
            }
            Files.writeString(
                    pairs,
                    b.toString(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
            spec.commandLine()
                    .getErr()
                    .println("toolscout: wrote " + UsageReport.pairs(list).size() + " pairs to " + pairs);
        }
        ObjectNode summary = UsageReport.summary(list);
        summary.put("since", from.toString());
        if (format.equals("json")) {
            if (records) {
                var arr = summary.putArray("records");
                list.forEach(r -> arr.add(r.json()));
            }
            out.println(Json.pretty(summary));
        } else {
            JsonNode s = summary;
            out.printf(
                    "requests            %d (done %d, awaiting approval %d, failed %d) since %s%n",
                    s.path("requests").asLong(),
                    s.path("by_status").path("done").asLong(),
                    s.path("by_status").path("awaiting_approval").asLong(),
                    s.path("by_status").path("failed").asLong(),
                    from);
            out.printf(
                    "tool calls          %d (selected %d, discovery %d, skill %d, other %d; meta-tools %d)%n",
                    s.path("tool_calls").asLong(),
                    s.path("by_origin").path("selected").asLong(),
                    s.path("by_origin").path("discovery").asLong(),
                    s.path("by_origin").path("skill").asLong(),
                    s.path("by_origin").path("other").asLong(),
                    s.path("by_origin").path("meta").asLong());
            out.printf(
                    "recall              %.1f%% of the tools used were in the first selection (%d of %d; memory tools"
                            + " counted)%n",
                    100 * s.path("recall").asDouble(),
                    s.path("used_tools").asLong()
                            - s.path("selection_by_origin")
                                    .path("not_selected")
                                    .path("used")
                                    .asLong(),
                    s.path("used_tools").asLong());
            out.printf(
                    "precision           %.1f%% of the tools selected were used (%d of %d)%n",
                    100 * s.path("precision").asDouble(),
                    s.path("used_selected").asLong(),
                    s.path("selected_tools").asLong());
            List<String> origins = new java.util.ArrayList<>();
            s.path("selection_by_origin").properties().forEach(e -> {
                JsonNode o = e.getValue();
                if (e.getKey().equals("not_selected")) {
                    origins.add("not selected: " + o.path("used").asLong() + " used");
                } else if (o.path("selected").asLong() > 0 || o.path("used").asLong() > 0) {
                    origins.add(e.getKey() + " " + o.path("used").asLong() + "/"
                            + o.path("selected").asLong());
                }
            });
            out.printf("  by origin         used/selected: %s%n", String.join(", ", origins));
            out.printf(
                    "pre-selected share  %.1f%% of the catalog tools called were in the first selection (own tools"
                            + " apart)%n",
                    100 * s.path("preselected_share").asDouble());
            out.printf(
                    "discovery rate      %.1f%% of requests called tool_discovery__find (%d calls, %d found nothing)%n",
                    100 * s.path("discovery_rate").asDouble(),
                    s.path("discovery_calls").asLong(),
                    s.path("discovery_empty").asLong());
            out.printf(
                    "approvals           %d requested (%d approved, %d denied, %d pending)%n",
                    s.path("approvals").path("requested").asLong(),
                    s.path("approvals").path("approved").asLong(),
                    s.path("approvals").path("denied").asLong(),
                    s.path("approvals").path("pending").asLong());
            out.printf(
                    "tokens              %d in, %d out; %d saved by selecting%n",
                    s.path("tokens").path("input").asLong(),
                    s.path("tokens").path("output").asLong(),
                    s.path("tokens").path("saved").asLong());
            out.printf(
                    "refused             %d calls answered 'Tool not found', %d tool errors%n",
                    s.path("not_found").asLong(), s.path("tool_errors").asLong());
        }
        out.flush();
        return 0;
    }
}
