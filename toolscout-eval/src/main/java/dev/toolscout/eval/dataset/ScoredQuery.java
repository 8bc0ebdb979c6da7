package dev.toolscout.eval.dataset;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A query with its gold tools (dataset ids, at least one), in the order given (the qrels file's), so that
 * everything printed or learned from them is the same on every run.
 */
public record ScoredQuery(String id, String text, Set<String> gold) {
  public ScoredQuery {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
    gold.forEach(g -> Objects.requireNonNull(g, "gold tool id"));
    gold = Collections.unmodifiableSet(new LinkedHashSet<>(gold));
    if (gold.isEmpty()) {
      throw new IllegalArgumentException("query '" + id + "' must have at least one gold tool");
    }
  }
}
