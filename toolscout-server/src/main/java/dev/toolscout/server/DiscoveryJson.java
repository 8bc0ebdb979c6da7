package dev.toolscout.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.FindResult;
import java.util.Locale;

/**
 * The JSON of a find over the catalog (what {@code tool_discovery__find} answers), the same for the CLI and the HTTP
 * API. A search of the git repository has its JSON from the indexer ({@code GitIndexer.searchJson}), which the tool
 * {@code git__search} answers too.
 */
public final class DiscoveryJson {
    private DiscoveryJson() {}

    /** A find result: {@code {"query", "count", "tools": [...], "skills": [...]}} (skills only when some match). */
    public static ObjectNode find(FindResult r) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
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
        // the skills that match, as POST /v1/tools/search gives them (docs/SKILLS.md, "Finding skills")
        if (!r.skills().isEmpty()) {
            ArrayNode skills = out.putArray("skills");
            for (FindResult.SkillMatch m : r.skills()) {
                ObjectNode sk = skills.addObject()
                        .put("name", m.name())
                        .put("kind", "skill")
                        .put("description", m.description());
                m.tools().forEach(sk.putArray("tools")::add);
                sk.put("score", m.score());
            }
        }
        return out;
    }
}
