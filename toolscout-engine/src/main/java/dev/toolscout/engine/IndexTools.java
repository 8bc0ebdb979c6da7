package dev.toolscout.engine;

import dev.toolscout.access.AccessControl;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.indexing.SearchableIndexer;
import dev.toolscout.model.Principal;
import dev.toolscout.routing.VectorRouter;
import java.util.List;
import java.util.Optional;

/**
 * The tools of the searchable indexes registered with the router ({@code git__search} for a followed git
 * repository): found for the call gate, and offered in a selection when the route's nearest match is one of their
 * entries. The router holds the registry; a principal the policy denies a tool gets neither, as if no index were
 * registered. Thread-safe.
 */
final class IndexTools {
    private final VectorRouter router;
    private final AccessControl access;

    IndexTools(VectorRouter router, AccessControl access) {
        this.router = router;
        this.access = access;
    }

    /** The registered index searched by the tool {@code name}, or empty. */
    Optional<SearchableIndexer> byTool(String name) {
        return router.indexers().stream()
                .filter(i -> i.tool().fullName().equals(name))
                .findFirst();
    }

    /**
     * The index tool {@code name} as the gate's target for {@code p}: empty for another name and for a tool the policy
     * denies {@code p}, alike. Its executor searches the index; arguments the search refuses are an error for the
     * model.
     */
    Optional<ToolCalls.Target<ToolCallResult>> target(Principal p, String name) {
        return byTool(name)
                .filter(i -> access.allows(p, i.tool()))
                .map(i -> new ToolCalls.Target<>(i.tool(), (tool, args, approved) -> {
                    try {
                        return new ToolCallResult(i.search(OwnTools.json(args)), null);
                    } catch (IllegalArgumentException bad) {
                        return new ToolCallResult(null, bad.getMessage());
                    }
                }));
    }

    /**
     * {@code known} with the registered indexes' tools, their sources and categories: a rule on {@code git} (or {@code
     * git__search}) matches something while a repository is followed.
     */
    dev.toolscout.access.PolicyCheck.Known known(dev.toolscout.access.PolicyCheck.Known known) {
        List<SearchableIndexer> all = router.indexers();
        if (all.isEmpty()) {
            return known;
        }
        java.util.Set<String> tools = new java.util.TreeSet<>(known.tools());
        java.util.Set<String> sources = new java.util.TreeSet<>(known.sources());
        java.util.Set<String> categories = new java.util.TreeSet<>(known.categories());
        for (SearchableIndexer i : all) {
            tools.add(i.tool().fullName());
            sources.add(i.tool().name().source());
            categories.add(i.tool().category());
        }
        return new dev.toolscout.access.PolicyCheck.Known(
                tools, sources, categories, known.users(), known.groups(), known.spaces());
    }
}
