package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.engine.ToolPage;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.skills.Skill;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The JSON that find, list and describe print: the same objects the discovery meta-tools answer
 * ({@code tool_discovery__find}, {@code list_all}, {@code describe}), so a script reads one shape either way.
 */
final class Results {
    private Results() {}

    /**
     * {@code list}'s output with the visible skills added as {@code tool_discovery__list_all} adds them: for no
     * category or the category {@value DiscoveryTools#SKILLS_CATEGORY}, {@code "skills": [{"name", "kind":
     * "skill", "description", "tools"}]} and {@code "skills_total"}.
     *
     * @param skills every skill the principal may see, in name order, with only the tools it may see
     */
    static ObjectNode withSkills(ObjectNode list, String category, java.util.List<Skill> skills) {
        if (category != null
                && !category.isBlank()
                && !category.strip().toLowerCase(Locale.ROOT).equals(DiscoveryTools.SKILLS_CATEGORY)) {
            return list;
        }
        ArrayNode out = list.putArray("skills");
        for (Skill s : skills) {
            ObjectNode n =
                    out.addObject().put("name", s.name()).put("kind", "skill").put("description", s.description());
            s.tools().forEach(n.putArray("tools")::add);
        }
        list.put("skills_total", skills.size());
        return list;
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
            tools.addObject()
                    .put("name", t.name())
                    .put("description", t.description())
                    .put("category", t.category());
        }
        ObjectNode cats = out.putObject("categories");
        page.categories().forEach(cats::put);
        return out;
    }

    static ObjectNode describe(ToolSpec s) {
        // the API names only the dependencies the principal may see
        return DiscoveryTools.definition(s, s.dependsOn());
    }

    static int print(CommandSpec spec, ObjectNode output) {
        spec.commandLine().getOut().println(Json.pretty(output));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
