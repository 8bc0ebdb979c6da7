package dev.toolscout.bench.dataset;

import java.util.Objects;
import java.util.Set;

/** A query with its gold tools (dataset ids, at least one). */
public record ScoredQuery(String id, String text, Set<String> gold) {
  public ScoredQuery {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
    gold = Set.copyOf(gold);
    if (gold.isEmpty()) {
      throw new IllegalArgumentException("query '" + id + "' must have at least one gold tool");
    }
  }
}
