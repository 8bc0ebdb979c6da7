package dev.toolscout.eval.dataset;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A query with its gold tools (dataset ids, at least one), in the order given (the qrels file's), so that
 * everything printed or learned from them is the same on every run. {@code steps} groups the gold tools by the
 * step they serve: the tools of one step are equivalent (any one of them serves it, a qrels file's {@code step}
 * column); without such a column each gold tool is a step of its own. {@code gold} is every step's tools.
 */
public record ScoredQuery(String id, String text, Set<String> gold, List<Set<String>> steps) {
    public ScoredQuery {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(text, "text");
        gold.forEach(g -> Objects.requireNonNull(g, "gold tool id"));
        gold = Collections.unmodifiableSet(new LinkedHashSet<>(gold));
        if (gold.isEmpty()) {
            throw new IllegalArgumentException("query '" + id + "' must have at least one gold tool");
        }
        List<Set<String>> s = new ArrayList<>(steps.size());
        Set<String> all = new LinkedHashSet<>();
        for (Set<String> step : steps) {
            if (step.isEmpty()) {
                throw new IllegalArgumentException("query '" + id + "' has a step without a tool");
            }
            s.add(Collections.unmodifiableSet(new LinkedHashSet<>(step)));
            all.addAll(step);
        }
        if (!all.equals(gold)) {
            throw new IllegalArgumentException(
                    "query '" + id + "': its steps' tools " + all + " are not its gold tools " + gold);
        }
        steps = List.copyOf(s);
    }

    /** A query whose gold tools are each a step of its own. */
    public ScoredQuery(String id, String text, Set<String> gold) {
        this(id, text, gold, eachAlone(gold));
    }

    /** True when some step has more than one tool (any-of gold). */
    public boolean anyOf() {
        return steps.stream().anyMatch(s -> s.size() > 1);
    }

    private static List<Set<String>> eachAlone(Set<String> gold) {
        List<Set<String>> out = new ArrayList<>(gold.size());
        gold.forEach(g -> out.add(Set.of(Objects.requireNonNull(g, "gold tool id"))));
        return out;
    }
}
