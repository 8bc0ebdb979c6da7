package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.learning.LearnedPair;
import dev.toolscout.learning.UsageMemory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code toolscout learn --pairs FILE | --show | --reset}: what selection learns from use. */
@Command(
        name = "learn",
        mixinStandardHelpOptions = true,
        description = "Learn from use: (message, tools) pairs, one JSON object a line ({\"message\": \"...\", "
                + "\"tools\": [\"source__action\", ...]}, optional \"principal\", \"conversation\", \"at\"), stored with "
                + "the catalog; each tool is then also found by the messages it was used for. A tool removed or changed "
                + "drops what was learned about it. --show lists what is learned, --reset forgets it.")
final class LearnCommand implements Callable<Integer> {
    @Option(names = "--pairs", paramLabel = "FILE", description = "JSON Lines file of pairs to learn ('-' for stdin).")
    String pairs;

    @Option(names = "--show", description = "List the tools learned, with how many messages and the latest ones.")
    boolean show;

    @Option(names = "--reset", description = "Forget everything learned.")
    boolean reset;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
    EvalCommand.Format format;

    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        int given = (pairs != null ? 1 : 0) + (show ? 1 : 0) + (reset ? 1 : 0);
        if (given != 1) {
            throw new IllegalArgumentException("give exactly one of --pairs FILE, --show or --reset, got " + given
                    + ", e.g. `toolscout learn --pairs usage.jsonl`");
        }
        // read and check the whole file before the data directory is touched: a bad line stores nothing
        List<LearnedPair> read = pairs == null ? List.of() : read(pairs);
        PrintWriter out = spec.commandLine().getOut();
        try (ToolScout scout =
                EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
            UsageMemory memory = scout.rankingParts().learned();
            if (reset) {
                int n = memory.reset();
                out.printf(Locale.ROOT, "Forgot %d learned pair%s.%n", n, n == 1 ? "" : "s");
            } else if (show) {
                List<UsageMemory.ToolSummary> tools = memory.show(3);
                if (format == EvalCommand.Format.json) {
                    ArrayNode a = JsonNodeFactory.instance.arrayNode();
                    for (UsageMemory.ToolSummary t : tools) {
                        ObjectNode n = a.addObject();
                        n.put("tool", t.tool());
                        n.put("messages", t.messages());
                        t.recent().forEach(n.putArray("recent")::add);
                    }
                    out.println(Json.pretty(a));
                } else if (tools.isEmpty()) {
                    out.println("Nothing learned.");
                } else {
                    for (UsageMemory.ToolSummary t : tools) {
                        out.printf(
                                Locale.ROOT,
                                "%s  %d message%s%n",
                                t.tool(),
                                t.messages(),
                                t.messages() == 1 ? "" : "s");
                        t.recent()
                                .forEach(m -> out.println("  " + (m.length() > 100 ? m.substring(0, 100) + "..." : m)));
                    }
                }
            } else {
                UsageMemory.Learned l =
                        memory.learn(read, scout.rankingParts().catalog().snapshot());
                out.printf(
                        Locale.ROOT,
                        "Learned %d (message, tool) pair%s from %d message%s; %d distinct messages learned.%n",
                        l.stored(),
                        l.stored() == 1 ? "" : "s",
                        l.pairs(),
                        l.pairs() == 1 ? "" : "s",
                        memory.messages());
                if (!l.unknownTools().isEmpty()) {
                    out.printf(
                            Locale.ROOT,
                            "Skipped %d tool name%s the catalog does not hold: %s%n",
                            l.unknownTools().size(),
                            l.unknownTools().size() == 1 ? "" : "s",
                            String.join(
                                            ", ",
                                            l.unknownTools().keySet().stream()
                                                    .limit(10)
                                                    .toList())
                                    + (l.unknownTools().size() > 10 ? ", ..." : ""));
                }
            }
        }
        out.flush();
        return 0;
    }

    private List<LearnedPair> read(String file) throws IOException {
        if (file.equals("-")) {
            Reader in = new java.io.InputStreamReader(
                    ((ToolScoutCli) spec.parent().userObject()).stdin, StandardCharsets.UTF_8);
            return LearnedPair.readLines(in, "stdin");
        }
        Path p = Path.of(file);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException("--pairs " + file + ": file not found");
        }
        try (Reader in = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
            return LearnedPair.readLines(in, file);
        }
    }
}
