package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.RenderFormat;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code toolscout select MESSAGE}: the tools for one message. */
@Command(
        name = "select",
        mixinStandardHelpOptions = true,
        description = "Select the tools an LLM should see for MESSAGE, with scores, reasons and tokens saved.")
final class SelectCommand implements Callable<Integer> {
    enum Format {
        table,
        json,
        anthropic,
        anthropic_deferred,
        openai,
        mcp;

        /** As written on the command line and in {@code /v1/select}'s {@code format}: {@code anthropic-deferred}. */
        @Override
        public String toString() {
            return name().replace('_', '-');
        }
    }

    @Parameters(
            index = "0",
            paramLabel = "MESSAGE",
            description = "The user's message; - reads it from standard input.")
    String message;

    @ParentCommand
    ToolScoutCli cli;

    @Mixin
    PrincipalOptions who;

    @Mixin
    EngineOptions engine;

    @Mixin
    ServersOptions servers;

    @Mixin
    RemoteOptions remote;

    @Option(names = "--k", paramLabel = "K", description = "How many tools, 1-50 (default 10).")
    Integer k;

    @Option(names = "--token-budget", paramLabel = "N", description = "Most tokens the selected definitions may take.")
    Integer tokenBudget;

    @Option(
            names = "--conversation",
            paramLabel = "ID",
            description = "The conversation this message belongs to: "
                    + "its active skills' tools are pinned, and skills__activate is offered (docs/SKILLS.md).")
    String conversation;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "table",
            description = "table, json, anthropic, anthropic-deferred (Claude's tool search: every visible tool, the "
                    + "selected ones loaded, the rest deferred), openai or mcp (default: ${DEFAULT-VALUE}).")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (remote.given()) {
            return remote(remote.api(cli.env, engine, who, servers));
        }
        String text = MessageArgument.resolve(message, cli.stdin, "MESSAGE");
        SelectRequest req = new SelectRequest(text, who.principal(), k, tokenBudget, conversation);
        var declared = servers.declared();
        try (McpRuntime mcp = new McpRuntime(EngineOptions.openForReading(
                engine.options().withModelPreload(),
                spec.commandLine().getErr(),
                servers.servers == null ? null : "--servers"))) {
            servers.start(mcp, declared, spec.commandLine().getErr(), ServersOptions.Use.ANSWER_FROM_CATALOG);
            ToolScout scout = mcp.scout();
            SelectResult r = scout.select(req);
            PrintWriter out = spec.commandLine().getOut();
            if (format == Format.table) {
                table(out, r);
            } else {
                out.println(Json.pretty(scout.render(
                        r, RenderFormat.valueOf(format.name().toUpperCase(Locale.ROOT)), req.principal())));
            }
            out.flush();
        }
        return 0;
    }

    /** {@code --server}: the server's {@code POST /v1/select}, printed as the local selection would be. */
    private int remote(RemoteApi api) throws java.io.IOException {
        String text = MessageArgument.resolve(message, cli.stdin, "MESSAGE");
        ObjectNode body = Json.MAPPER.createObjectNode().put("message", text);
        if (k != null) {
            body.put("k", k);
        }
        if (tokenBudget != null) {
            body.put("token_budget", tokenBudget);
        }
        if (conversation != null) {
            body.put("conversation_id", conversation);
        }
        body.put("format", format == Format.table ? "json" : format.toString());
        JsonNode r = api.post("/v1/select", body);
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.table) {
            List<Row> rows = new ArrayList<>();
            r.path("selected")
                    .forEach(t -> rows.add(new Row(
                            t.path("name").asText(),
                            t.path("score").asDouble(),
                            t.path("reason").asText())));
            JsonNode tokens = r.path("tokens");
            // the API leaves the visible count implicit: every visible tool is selected or excluded
            List<String> active = new ArrayList<>();
            r.path("active_skills").forEach(n -> active.add(n.asText()));
            JsonNode g = r.get("suggested_skill");
            JsonNode route = r.get("route");
            table(
                    out,
                    r.path("reason").asText(),
                    rows,
                    tokens.path("selected").asLong(),
                    tokens.path("all").asLong(),
                    r.path("excluded_count").asInt() + rows.size(),
                    tokens.path("saved_pct").asDouble(),
                    active,
                    g == null
                            ? null
                            : new String[] {
                                g.path("name").asText(), g.path("why").asText()
                            },
                    route == null
                            ? null
                            : route.path("route").asText() + ": "
                                    + route.path("reason").asText(),
                    r.has("shortened") ? r.path("shortened").path("note").asText() : null);
        } else {
            out.println(Json.pretty(r));
        }
        out.flush();
        return 0;
    }

    private record Row(String name, double score, String reason) {}

    private static void table(PrintWriter out, SelectResult s) {
        List<Row> rows = s.selected().stream()
                .map(t -> new Row(t.name(), t.score(), t.reason()))
                .toList();
        SelectResult.Tokens t = s.tokens();
        SelectResult.SkillSuggestion g = s.suggestedSkill();
        table(
                out,
                s.reason(),
                rows,
                t.selected(),
                t.all(),
                s.visibleCount(),
                t.savedPct(),
                s.activeSkills(),
                g == null ? null : new String[] {g.name(), g.why()},
                s.route() == null ? null : s.route().route() + ": " + s.route().reason(),
                s.shortened() == null ? null : s.shortened().note());
    }

    /**
     * @param suggested a suggested skill's name and why, or null
     * @param route the route and its reason (docs/ROUTING.md), or null
     * @param shortened the note on a message longer than the ranking reads, or null
     */
    private static void table(
            PrintWriter out,
            String reason,
            List<Row> rows,
            long selectedTokens,
            long allTokens,
            int visible,
            double savedPct,
            List<String> activeSkills,
            String[] suggested,
            String route,
            String shortened) {
        out.println(reason);
        if (route != null) {
            out.println("Route " + route);
        }
        if (shortened != null) {
            out.println("Note: " + shortened + ".");
        }
        out.println();
        int w = Math.max(4, rows.stream().mapToInt(t -> t.name().length()).max().orElse(4));
        out.printf(Locale.ROOT, " %2s  %-" + w + "s  %5s  %s%n", "#", "TOOL", "SCORE", "WHY");
        int i = 1;
        for (Row t : rows) {
            out.printf(Locale.ROOT, " %2d  %-" + w + "s  %5.3f  %s%n", i++, t.name(), t.score(), t.reason());
        }
        if (!activeSkills.isEmpty()) {
            out.println();
            out.println("Active skills: " + String.join(", ", activeSkills));
        }
        if (suggested != null) {
            out.println();
            out.println("Suggested skill: " + suggested[0] + " (" + suggested[1] + "); activate it with "
                    + "`toolscout skills activate " + suggested[0] + " --conversation ID`");
        }
        out.println();
        out.printf(
                Locale.ROOT,
                "Tokens: %,d for the selected definitions, %,d for all %d visible tools (%.1f%% saved)%n",
                selectedTokens,
                allTokens,
                visible,
                savedPct);
    }
}
