package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.engine.FindResult;
import dev.toolscout.engine.ToolPage;
import dev.toolscout.model.ToolSpec;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The JSON that find, list and describe print: the same objects the discovery meta-tools answer
 * ({@code tool_discovery__find}, {@code list_all}, {@code describe}), so a script reads one shape either way.
 */
final class Results {
  private Results() {}

  static ObjectNode find(FindResult r) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("query", r.query());
    out.put("count", r.tools().size());
    ArrayNode tools = out.putArray("tools");
    for (FindResult.ToolMatch t : r.tools()) {
      tools.addObject()
          .put("name", t.name())
          .put("description", t.description())
          .put("category", t.category())
          .put("ai_access", t.aiAccess().name().toLowerCase(Locale.ROOT))
          .put("score", t.score());
    }
    return out;
  }

  /** @param category the category asked for, or {@code null} */
  static ObjectNode list(ToolPage page, String category) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    if (category != null && !category.isBlank()) {
      out.put("category", category.strip().toLowerCase(Locale.ROOT));
    }
    out.put("total", page.total());
    ArrayNode tools = out.putArray("tools");
    for (ToolPage.ToolSummary t : page.tools()) {
      tools.addObject().put("name", t.name()).put("description", t.description()).put("category", t.category());
    }
    ObjectNode cats = out.putObject("categories");
    page.categories().forEach(cats::put);
    return out;
  }

  static ObjectNode describe(ToolSpec s) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("name", s.fullName());
    out.put("description", s.description());
    out.put("category", s.category());
    out.put("source_kind", s.sourceKind().name().toLowerCase(Locale.ROOT));
    out.put("ai_access", s.aiAccess().name().toLowerCase(Locale.ROOT));
    out.put("side_effect", s.sideEffect().name().toLowerCase(Locale.ROOT));
    ArrayNode tags = out.putArray("tags");
    s.tags().forEach(tags::add);
    out.put("parameters_summary", DiscoveryTools.parametersSummary(s));
    out.set("parameters", s.parameters().deepCopy());
    if (!s.examples().isEmpty()) {
      ArrayNode ex = out.putArray("examples");
      s.examples().forEach(ex::add);
    }
    if (s.outputSchema() != null) {
      out.set("output_schema", s.outputSchema().deepCopy());
    }
    ArrayNode deps = out.putArray("depends_on");
    s.dependsOn().forEach(deps::add); // the API names only the dependencies the principal may see
    return out;
  }

  static int print(CommandSpec spec, ObjectNode output) {
    spec.commandLine().getOut().println(Json.pretty(output));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
