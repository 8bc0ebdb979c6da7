package dev.toolscout.server.cli;

import dev.toolscout.agent.Agent;
import dev.toolscout.agent.AgentEvent;
import dev.toolscout.agent.AgentResult;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.server.AgentJson;
import dev.toolscout.server.AgentRuntime;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout chat}: the agent loop at the terminal. One-shot with {@code --message}, else a line at a time
 * from standard input until end of input. A request that needs an approval stops with its id; once it is
 * decided ({@code toolscout approvals approve ID}), {@code --resume RUN} goes on.
 */
@Command(
        name = "chat",
        mixinStandardHelpOptions = true,
        description = "Talk to an LLM that gets the tools ToolScout selects for each message, and runs them "
                + "(see docs/AGENT.md).")
final class ChatCommand implements Callable<Integer> {
    @Option(
            names = {"-m", "--message"},
            paramLabel = "TEXT",
            description = "One message; answer it and exit.")
    String message;

    @Option(
            names = "--conversation",
            paramLabel = "ID",
            description = "The conversation (default: a new one; the "
                    + "same id later carries its history, active skills and disclosed tools).")
    String conversation;

    @Option(names = "--resume", paramLabel = "RUN", description = "Go on with a run that waited for an approval.")
    String resume;

    @Option(
            names = "--format",
            defaultValue = "text",
            description = "text or json (the result as JSON, " + "one-shot only; default ${DEFAULT-VALUE}).")
    String format;

    @Mixin
    AgentOptions agentOptions;

    @Mixin
    PrincipalOptions who;

    @Mixin
    EngineOptions engine;

    @Mixin
    ServersOptions servers;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("--format must be text or json, got: '" + format + "'");
        }
        String conv = conversation == null ? "chat-" + UUID.randomUUID() : Conversations.checkId(conversation);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        var declared = servers.declared();
        var provider = agentOptions.provider(engine.resolveDataDir());
        try (McpRuntime rt = new McpRuntime(EngineOptions.open(engine.options(), err))) {
            servers.start(rt, declared, err, ServersOptions.Use.ANSWER_ABOUT_SERVERS);
            Agent agent = AgentRuntime.agent(rt, provider, agentOptions.limits());
            boolean json = format.equals("json");
            Consumer<AgentEvent> events = json ? e -> {} : e -> show(e, out, err);
            if (resume != null) {
                return report(agent.resume(resume, who.principal(), events), out, json);
            }
            if (message != null) {
                return report(agent.run(conv, who.principal(), null, message, events), out, json);
            }
            err.println("toolscout chat: conversation " + conv + "; one message a line, end with Ctrl-D");
            err.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            int code = 0;
            for (String line = prompt(in, err); line != null; line = prompt(in, err)) {
                if (line.isBlank()) {
                    continue;
                }
                code = report(agent.run(conv, who.principal(), null, line, events), out, false);
                if (code == 3) {
                    break; // waiting for an approval: nothing more goes into this conversation until it is decided
                }
            }
            return code;
        }
    }

    private static String prompt(BufferedReader in, PrintWriter err) throws java.io.IOException {
        err.print("> ");
        err.flush();
        return in.readLine();
    }

    private static void show(AgentEvent e, PrintWriter out, PrintWriter err) {
        switch (e) {
            case AgentEvent.Text t -> {
                out.print(t.text());
                out.flush();
            }
            case AgentEvent.ToolCall c -> {
                err.println();
                err.println("[tool] " + c.tool() + " (" + c.origin() + ")");
                err.flush();
            }
            case AgentEvent.ToolResult r -> {
                if (r.error() != null) {
                    err.println("[tool] " + r.tool() + ": "
                            + (r.error().length() > 200 ? r.error().substring(0, 200) + "..." : r.error()));
                    err.flush();
                }
            }
        }
    }

    /** Exit codes: 0 done, 3 waiting for an approval, 4 failed (a limit, the provider). */
    private static int report(AgentResult r, PrintWriter out, boolean json) {
        if (json) {
            out.println(Json.pretty(AgentJson.result(r)));
        } else {
            out.println();
            switch (r.status()) {
                case DONE -> {}
                case AWAITING_APPROVAL ->
                    out.println("[waiting] " + r.tool() + " needs approval: request " + r.approvalId()
                            + ". Once it is decided (toolscout approvals approve " + r.approvalId()
                            + "), go on with: toolscout chat "
                            + "--resume " + r.runId());
                case FAILED -> out.println("[failed] " + r.error());
            }
        }
        out.flush();
        return switch (r.status()) {
            case DONE -> 0;
            case AWAITING_APPROVAL -> 3;
            case FAILED -> 4;
        };
    }
}
