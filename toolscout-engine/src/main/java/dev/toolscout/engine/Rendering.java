package dev.toolscout.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.DeferredTools;
import dev.toolscout.render.SystemPrompt;
import dev.toolscout.render.ToolRenderer;
import dev.toolscout.selection.Selection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@link ToolScout#render}: a selection in the wire forms of {@link RenderFormat}. Stateless; thread-safe. */
final class Rendering {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Rendering() {}

    /** {@code result} as {@code format}; {@code principal} (not null) is read only by {@code ANTHROPIC_DEFERRED}. */
    static JsonNode render(Engine engine, SelectResult result, RenderFormat format, Principal principal) {
        Selection s = selection(result);
        ObjectNode n = F.objectNode();
        switch (format) {
            case JSON -> SelectResultJson.write(result, n);
            case ANTHROPIC -> {
                n.put("system", systemPrompt(s, result));
                n.set("tools", ToolRenderer.anthropic(s.specs()));
            }
            case ANTHROPIC_DEFERRED -> deferred(engine, result, principal, n);
            case OPENAI -> {
                ArrayNode msgs = n.putArray("messages");
                msgs.addObject().put("role", "system").put("content", systemPrompt(s, result));
                n.set("tools", ToolRenderer.openai(s.specs()));
            }
            case MCP -> n.set("tools", ToolRenderer.mcp(s.specs()));
        }
        return n;
    }

    /**
     * Claude's tool search: the selected tools loaded, then the search tool, then every other tool {@code p} may see
     * deferred, in name order. Access first: a tool {@code p} may not see is in none of them, and a selection holding
     * one (made for another principal, or before the policy changed) is refused. Without a search tool {@code p} may
     * use, nothing is deferred: nothing could load it.
     */
    private static void deferred(Engine engine, SelectResult result, Principal p, ObjectNode n) {
        Catalog.Snapshot snap = engine.catalog().snapshot();
        AllowedSet allowed = engine.access().allowed(snap, p);
        List<ToolSpec> loaded = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (SelectResult.SelectedTool t : result.selected()) {
            CatalogEntry e = snap.get(t.name());
            if (e != null ? !allowed.contains(e.ord()) : !engine.access().allows(p, t.spec())) {
                // its reason and counts are another principal's too: nothing of it is sent
                throw new IllegalArgumentException("format anthropic-deferred renders a selection for the principal "
                        + "it was selected for; this one holds a tool the principal given may not see (or the "
                        + "policy changed since): select again for it");
            }
            if (names.add(t.name())) {
                loaded.add(t.spec());
            }
        }
        ToolSpec search = search(engine, snap, allowed, p);
        if (search != null && names.add(search.fullName())) {
            loaded.add(search);
        }
        List<ToolSpec> deferred = new ArrayList<>();
        if (search != null) {
            // the snapshot's entries are in name order
            for (CatalogEntry e : snap.entries()) {
                if (allowed.contains(e.ord()) && !names.contains(e.name())) {
                    deferred.add(e.spec());
                }
            }
        }
        ArrayNode tools = DeferredTools.tools(loaded, deferred, DeferredTools.MAX_TOOLS);
        n.put(
                "system",
                systemPrompt(selection(result), result)
                        + DeferredTools.promptNote(deferred.size(), search == null ? null : search.fullName()));
        n.set("tools", tools);
    }

    /**
     * {@code tool_discovery__find} as {@code p} may use it: the catalog's definition when the catalog has one (it
     * wins, as in a selection), else the engine's; {@code null} when the policy denies it.
     */
    private static ToolSpec search(Engine engine, Catalog.Snapshot snap, AllowedSet allowed, Principal p) {
        CatalogEntry e = snap.get(DiscoveryTools.FIND);
        if (e != null) {
            return allowed.contains(e.ord()) ? e.spec() : null;
        }
        ToolSpec own = DiscoveryTools.SPECS.get(0);
        return engine.access().allows(p, own) ? own : null;
    }

    private static String systemPrompt(Selection s, SelectResult r) {
        SelectResult.SkillSuggestion g = r.suggestedSkill();
        return SystemPrompt.section(
                s,
                r.activeSkills(),
                g == null ? null : new SystemPrompt.SkillSuggestion(g.name(), g.description(), g.why()));
    }

    private static Selection selection(SelectResult r) {
        List<Selection.SelectedTool> tools = new ArrayList<>(r.selected().size());
        for (SelectResult.SelectedTool t : r.selected()) {
            tools.add(new Selection.SelectedTool(t.spec(), t.score(), t.reason(), t.core(), t.origin()));
        }
        return new Selection(
                tools, r.coreIncluded(), r.excludedCount(), r.visibleCount(), r.reason(), r.discoverySuggested());
    }
}
