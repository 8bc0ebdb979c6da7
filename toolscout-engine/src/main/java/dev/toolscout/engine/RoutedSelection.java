package dev.toolscout.engine;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.indexing.SearchableIndexer;
import dev.toolscout.routing.Route;
import dev.toolscout.routing.RouteDecision;
import dev.toolscout.selection.Origin;
import dev.toolscout.selection.Selection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A selection as its route shapes it, after both were decided on one request context: the tool of a searchable index
 * whose entry is the message's nearest match offered ({@code git__search}), and on LLM_REQUIRED only what is pinned
 * or offered kept. Stateless.
 */
final class RoutedSelection {
    private RoutedSelection() {}

    /** {@code s} offered the nearest index's tool, then cut as the route allows (see the class comment). */
    static Selection of(Selection s, RouteDecision route, Catalog.Snapshot snap, int k, IndexTools indexes) {
        return cut(offer(s, route, snap, k, indexes), route);
    }

    /**
     * {@code s} as the route allows: on LLM_REQUIRED (the catalog too large to send whole) only the pinned core
     * tools, the engine's offered tools and the active skills' tools stay, and discovery is suggested, instead of
     * weak matches presented as relevant.
     */
    private static Selection cut(Selection s, RouteDecision route) {
        if (route.route() != Route.LLM_REQUIRED || route.sendWhole()) {
            return s;
        }
        List<Selection.SelectedTool> kept = s.selected().stream()
                .filter(t -> t.core() || t.origin().forConversation())
                .toList();
        int dropped = s.selected().size() - kept.size();
        return new Selection(
                kept,
                s.coreIncluded(),
                s.excludedCount() + dropped,
                s.visibleCount(),
                "Nothing in the catalog matches this request closely: " + route.reason() + ". Only the core tools are "
                        + "sent; call tool_discovery__find to search the other " + (s.excludedCount() + dropped) + ".",
                true);
    }

    /**
     * {@code s} with the tool of the index whose entry is the route's nearest match ({@link
     * RouteDecision#nearestIndex}), offered for the request ({@link Origin#OFFERED}, so a cut on LLM_REQUIRED keeps
     * it): added when there is room under {@code k}, else in place of the last ranked tool. Unchanged when no index
     * entry is nearest, when the catalog holds a tool of that name, or when the selection has it already. The router
     * named an index entry only to a principal the policy lets use its tool.
     */
    private static Selection offer(Selection s, RouteDecision route, Catalog.Snapshot snap, int k, IndexTools indexes) {
        Optional<SearchableIndexer> ix = route.nearestIndex().flatMap(indexes::byTool);
        if (ix.isEmpty()
                || snap.get(ix.get().tool().fullName()) != null
                || s.selected().stream()
                        .anyMatch(t -> t.name().equals(ix.get().tool().fullName()))) {
            return s;
        }
        List<Selection.SelectedTool> tools = new ArrayList<>(s.selected());
        int excluded = s.excludedCount();
        if (tools.size() >= k) {
            int last = -1;
            for (int i = tools.size() - 1; i >= 0 && last < 0; i--) {
                if (!tools.get(i).core() && !tools.get(i).origin().forConversation()) {
                    last = i;
                }
            }
            if (last < 0) {
                return s; // only pinned tools: nothing to give way
            }
            tools.remove(last);
            excluded++;
        }
        String name = ix.get().tool().fullName();
        tools.add(new Selection.SelectedTool(
                ix.get().tool(),
                0,
                "offered: the nearest match to the message is in the index " + name + " searches",
                false,
                Origin.OFFERED));
        return new Selection(
                tools,
                s.coreIncluded(),
                excluded,
                s.visibleCount() + 1,
                s.reason() + " " + name + " is offered: the message's nearest match is in its index.",
                s.discoverySuggested() || excluded > 0);
    }
}
