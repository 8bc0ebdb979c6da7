package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.approval.ApprovalStore;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.approval.Approvals;
import dev.toolscout.server.ApprovalJson;
import dev.toolscout.store.SqliteStateStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout approvals}: the operator's side of the approval queue. Reads and decides the requests the
 * gateways hold for tools that need approval. Opens only the data directory's store (SQLite allows several
 * processes), never its search index, so it works while {@code serve} or {@code mcp} runs on that directory.
 * The operator is recorded as the decider {@code cli:<name>} and may decide any request.
 */
@Command(
        name = "approvals",
        mixinStandardHelpOptions = true,
        description = "List, approve or deny the requests held for tools that need approval (see docs/SECURITY.md).",
        subcommands = {ApprovalsCommand.ListRequests.class, ApprovalsCommand.Approve.class, ApprovalsCommand.Deny.class
        })
final class ApprovalsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    /** Where the requests are and how to print them; shared by the subcommands. */
    static class Common {
        @Option(
                names = "--data-dir",
                paramLabel = "DIR",
                description =
                        "The data directory of the gateway "
                                + "(default: $TOOLSCOUT_DATA_DIR, else ~/.toolscout; with --catalog, the folder of that catalog set).")
        Path dataDir;

        @Option(
                names = "--catalog",
                paramLabel = "FILE",
                arity = "1..*",
                description = "The catalog files the gateway was started with, to find its data directory.")
        List<Path> catalogs;

        @Option(names = "--format", defaultValue = "table", description = "table or json (default ${DEFAULT-VALUE}).")
        String format;

        @Spec
        CommandSpec spec;

        /** The store of the data directory; refuses a directory that holds none rather than creating one. */
        SqliteStateStore open() {
            if (!format.equals("table") && !format.equals("json")) {
                throw new IllegalArgumentException("--format must be table or json, got: '" + format + "'");
            }
            EngineOptions where = new EngineOptions();
            where.dataDir = dataDir;
            where.catalogs = catalogs;
            Path db = where.resolveDataDir().resolve("state.db");
            if (!Files.isRegularFile(db)) {
                throw new IllegalArgumentException("no ToolScout data directory at " + db.getParent() + " (it holds no "
                        + "state.db); give --data-dir the directory the gateway uses");
            }
            return SqliteStateStore.open(db);
        }

        static Approvals approvals(ApprovalStore store) {
            return new Approvals(store, Clock.systemUTC(), Approvals.DEFAULT_TTL);
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        boolean asJson() {
            return format.equals("json");
        }
    }

    /** {@code toolscout approvals list}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Show the pending approval requests (--all: every request, decided ones too).")
    static final class ListRequests extends Common implements Callable<Integer> {
        @Option(names = "--all", description = "Every request: approved, denied, used and expired ones too.")
        boolean all;

        @Override
        public Integer call() {
            try (SqliteStateStore store = open()) {
                List<StoredApproval> shown = approvals(store).list().stream()
                        .filter(a -> all || a.status() == ApprovalStatus.PENDING)
                        .toList();
                PrintWriter out = out();
                if (asJson()) {
                    ArrayNode arr = Json.MAPPER.createArrayNode();
                    shown.forEach(a -> arr.add(ApprovalJson.of(a)));
                    ObjectNode o = Json.MAPPER.createObjectNode();
                    o.put("count", shown.size());
                    o.set("approvals", arr);
                    out.println(Json.pretty(o));
                } else if (shown.isEmpty()) {
                    out.println(
                            all ? "no approval requests" : "no pending approval requests (--all shows decided ones)");
                } else {
                    out.printf(
                            "%-13s %-8s %-16s %-24s %-28s %-20s %-16s %s%n",
                            "ID", "STATUS", "REQUESTER", "CHANNEL", "TOOL", "CREATED (UTC)", "DECIDED BY", "ARGUMENTS");
                    for (StoredApproval a : shown) {
                        // long enough for several masked secrets ([redacted …ions sha256:1a2b3c4d]) to tell requests
                        // apart
                        String args = a.argumentsJson().length() > 240
                                ? a.argumentsJson().substring(0, 237) + "..."
                                : a.argumentsJson();
                        String where = a.channel() == null
                                ? "-"
                                : a.scope() == null ? a.channel() : a.channel() + " " + a.scope();
                        out.printf(
                                "%-13s %-8s %-16s %-24s %-28s %-20s %-16s %s%n",
                                a.id(),
                                a.status().id(),
                                a.requester(),
                                where,
                                a.tool(),
                                a.createdAt()
                                        .truncatedTo(ChronoUnit.SECONDS)
                                        .toString()
                                        .replace('T', ' ')
                                        .replace("Z", ""),
                                a.decidedBy() == null ? "-" : a.decidedBy(),
                                args);
                    }
                }
                out.flush();
            }
            return 0;
        }
    }

    /** What approve and deny share. */
    abstract static class Decide extends Common implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "The request's id, as `approvals list` shows it.")
        String id;

        @Option(
                names = "--as",
                paramLabel = "NAME",
                description = "Who decides, as recorded (cli:NAME; default: " + "your login name).")
        String as = System.getProperty("user.name");

        abstract boolean approve();

        @Override
        public Integer call() {
            try (SqliteStateStore store = open()) {
                Approvals q = approvals(store);
                StoredApproval a = q.decide(id, approve(), Approvals.Approver.operator(as));
                if (asJson()) {
                    out().println(Json.pretty(ApprovalJson.of(a)));
                } else {
                    out().println((approve() ? "approved " : "denied ") + a.id() + ": " + a.tool() + " requested by "
                            + a.requester()
                            + (approve()
                                    ? "; the requester's next identical call runs, once, within "
                                            + q.ttl().toHours() + " h"
                                    : "; the identical call is refused"));
                }
                out().flush();
            }
            return 0;
        }
    }

    /** {@code toolscout approvals approve ID}. */
    @Command(
            name = "approve",
            mixinStandardHelpOptions = true,
            description = "Approve a pending request: the requester's next identical call runs, once.")
    static final class Approve extends Decide {
        @Override
        boolean approve() {
            return true;
        }
    }

    /** {@code toolscout approvals deny ID}. */
    @Command(name = "deny", mixinStandardHelpOptions = true, description = "Deny a pending request.")
    static final class Deny extends Decide {
        @Override
        boolean approve() {
            return false;
        }
    }
}
