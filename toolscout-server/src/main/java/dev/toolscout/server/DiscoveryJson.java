package dev.toolscout.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.FindResult;
import dev.toolscout.git.GitIndexer;
import java.util.Locale;

/**
 * The JSON of a search, the same for the CLI and the HTTP API: a find over the catalog (what {@code
 * tool_discovery__find} answers) and a search of the indexed git repository.
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

    /** The {@code limit} best entries of {@code git}'s index for {@code query}, with the repository and its head. */
    public static ObjectNode gitSearch(GitIndexer git, String query, int limit) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("repository", git.repository().toString());
        out.put("head", git.indexedHead());
        out.put("score", "cosine similarity of the entry's embedding to the query's");
        ArrayNode hits = out.putArray("results");
        for (GitIndexer.Hit h : git.search(query, limit)) {
            ObjectNode o = hits.addObject()
                    .put("kind", h.kind())
                    .put("title", h.title())
                    .put("commit", h.commit());
            if (h.path() != null) {
                o.put("path", h.path());
            }
            o.put("when", h.when().toString()).put("similarity", h.similarity()).put("snippet", h.snippet());
        }
        return out;
    }
}
