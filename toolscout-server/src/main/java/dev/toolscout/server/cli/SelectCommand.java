package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.model.Principal;
import dev.toolscout.render.SystemPrompt;
import dev.toolscout.render.ToolRenderer;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.engine.internal.Engine;
import dev.toolscout.server.McpRuntime;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code toolscout select MESSAGE}: the tools for one message. */
@Command(name = "select", mixinStandardHelpOptions = true,
    description = "Select the tools an LLM should see for MESSAGE, with scores, reasons and tokens saved.")
final class SelectCommand implements Callable<Integer> {
  enum Format { table, json, anthropic, openai, mcp }

  @Parameters(index = "0", paramLabel = "MESSAGE", description = "The user's message; - reads it from standard input.")
  String message;

  @ParentCommand ToolScoutCli cli;

  @Mixin PrincipalOptions who;
  @Mixin EngineOptions engine;
  @Mixin ServersOptions servers;

  @Option(names = "--k", paramLabel = "K", description = "How many tools, 1-50 (default 10).")
  Integer k;

  @Option(names = "--token-budget", paramLabel = "N", description = "Most tokens the selected definitions may take.")
  Integer tokenBudget;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
      description = "table, json, anthropic, openai or mcp (default: ${DEFAULT-VALUE}).")
  Format format;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    String text = MessageArgument.resolve(message, cli.stdin, "MESSAGE");
    Selector.Request req = new Selector.Request(text, who.principal(), k, tokenBudget);
    var declared = servers.declared();
    try (McpRuntime mcp = new McpRuntime(
        EngineOptions.open(engine.options().withModelPreload(), spec.commandLine().getErr()))) {
      Engine e = mcp.engine();
      servers.start(mcp, declared, spec.commandLine().getErr(), ServersOptions.Use.ANSWER_FROM_CATALOG);
      Selection s = e.selector().select(req);
      PrintWriter out = spec.commandLine().getOut();
      switch (format) {
        case json -> out.println(Json.pretty(json(e, s, who.principal())));
        case anthropic -> {
          ObjectNode n = JsonNodeFactory.instance.objectNode();
          n.put("system", SystemPrompt.section(s));
          n.set("tools", ToolRenderer.anthropic(s.specs()));
          out.println(Json.pretty(n));
        }
        case openai -> {
          ObjectNode n = JsonNodeFactory.instance.objectNode();
          ArrayNode msgs = n.putArray("messages");
          msgs.addObject().put("role", "system").put("content", SystemPrompt.section(s));
          n.set("tools", ToolRenderer.openai(s.specs()));
          out.println(Json.pretty(n));
        }
        case mcp -> {
          ObjectNode n = JsonNodeFactory.instance.objectNode();
          n.set("tools", ToolRenderer.mcp(s.specs()));
          out.println(Json.pretty(n));
        }
        case table -> table(out, e, s, who.principal());
      }
      out.flush();
    }
    return 0;
  }

  /** Token counts of the selected definitions against every definition the principal may see. */
  record Tokens(long selected, long all) {
    double savedPct() {
      return all == 0 ? 0 : Math.round(1000.0 * (all - selected) / all) / 10.0;
    }
  }

  static Tokens tokens(Engine e, Selection s, Principal p) {
    Catalog.Snapshot snap = e.catalog().snapshot();
    long all = e.tokens().allowedTokens(snap, e.access().allowed(snap, p));
    // the engine's own discovery tool, when offered, is sent with "all" too: count it on both sides
    for (var t : s.selected()) {
      if (snap.get(t.name()) == null) {
        all += e.tokens().definitionTokens(t.spec());
      }
    }
    return new Tokens(e.tokens().definitionTokens(s.specs()), all);
  }

  static ObjectNode json(Engine e, Selection s, Principal p) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    ArrayNode sel = n.putArray("selected");
    for (Selection.SelectedTool t : s.selected()) {
      ObjectNode o = sel.addObject();
      o.put("name", t.name());
      o.put("score", t.score());
      o.put("reason", t.reason());
    }
    ArrayNode core = n.putArray("core_included");
    s.coreIncluded().forEach(core::add);
    n.put("excluded_count", s.excludedCount());
    n.put("reason", s.reason());
    n.put("discovery_suggested", s.discoverySuggested());
    Tokens t = tokens(e, s, p);
    ObjectNode tok = n.putObject("tokens");
    tok.put("selected", t.selected());
    tok.put("all", t.all());
    tok.put("saved_pct", t.savedPct());
    return n;
  }

  private static void table(PrintWriter out, Engine e, Selection s, Principal p) {
    out.println(s.reason());
    out.println();
    int w = Math.max(4, s.selected().stream().mapToInt(t -> t.name().length()).max().orElse(4));
    out.printf(Locale.ROOT, " %2s  %-" + w + "s  %5s  %s%n", "#", "TOOL", "SCORE", "WHY");
    int i = 1;
    for (Selection.SelectedTool t : s.selected()) {
      out.printf(Locale.ROOT, " %2d  %-" + w + "s  %5.3f  %s%n", i++, t.name(), t.score(), t.reason());
    }
    Tokens t = tokens(e, s, p);
    out.println();
    out.printf(Locale.ROOT, "Tokens: %,d for the selected definitions, %,d for all %d visible tools (%.1f%% saved)%n",
        t.selected(), t.all(), s.visibleCount(), t.savedPct());
  }
}
