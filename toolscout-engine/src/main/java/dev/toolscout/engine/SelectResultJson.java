package dev.toolscout.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.routing.RouteJson;

/** A {@link SelectResult} as the JSON of {@code select --format json} and {@code POST /v1/select} (docs/HTTP_API.md). */
final class SelectResultJson {
    private SelectResultJson() {}

    /** Writes {@code result}'s fields into {@code n}. */
    static void write(SelectResult result, ObjectNode n) {
        ArrayNode sel = n.putArray("selected");
        for (SelectResult.SelectedTool t : result.selected()) {
            sel.addObject().put("name", t.name()).put("score", t.score()).put("reason", t.reason());
        }
        ArrayNode core = n.putArray("core_included");
        result.coreIncluded().forEach(core::add);
        n.put("excluded_count", result.excludedCount());
        n.put("reason", result.reason());
        n.put("discovery_suggested", result.discoverySuggested());
        ObjectNode tok = n.putObject("tokens");
        tok.put("selected", result.tokens().selected());
        tok.put("all", result.tokens().all());
        tok.put("saved_pct", result.tokens().savedPct());
        if (result.tokens().estimated()) {
            // only then: "all" took the definitions not counted yet at the mean of the others (right after a start)
            tok.put("estimated", true);
        }
        // a conversation's fields, present only in one
        if (!result.activeSkills().isEmpty()) {
            ArrayNode active = n.putArray("active_skills");
            result.activeSkills().forEach(active::add);
        }
        if (result.suggestedSkill() != null) {
            n.putObject("suggested_skill")
                    .put("name", result.suggestedSkill().name())
                    .put("description", result.suggestedSkill().description())
                    .put("why", result.suggestedSkill().why());
        }
        if (result.route() != null) {
            n.set("route", RouteJson.toJson(result.route()));
        }
        // present only for a message longer than the ranking reads
        if (result.shortened() != null) {
            n.putObject("shortened")
                    .put("from_chars", result.shortened().fromChars())
                    .put("to_chars", result.shortened().toChars())
                    .put("note", result.shortened().note());
        }
    }
}
