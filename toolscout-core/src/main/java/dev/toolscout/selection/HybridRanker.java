package dev.toolscout.selection;

import dev.toolscout.index.AllowedSet;
import dev.toolscout.index.Hit;
import dev.toolscout.index.ToolIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Runs the lexical and the dense retriever inside an allowed set and fuses their lists. The lexical search
 * needs no query vector, so it runs on another thread while the caller embeds the query: the request then
 * costs about the embedding plus the dense search, not the sum of all three. Thread-safe.
 */
public final class HybridRanker {
  /** Virtual threads: one short task per request, no pool to size. */
  private static final Executor LEXICAL = Executors.newVirtualThreadPerTaskExecutor();

  private final ToolIndex index;

  public HybridRanker(ToolIndex index) {
    this.index = index;
  }

  /**
   * Ranks the allowed tools for a query.
   *
   * @param nameOf the tool name of an ordinal, for deterministic tie-breaking
   * @return the union of both retrievers' top {@code fusion.depth()}, best first, ties by name
   */
  public List<Ranked> rank(String query, float[] vector, AllowedSet allowed, Fusion fusion, IntFunction<String> nameOf) {
    return rank(query, () -> vector, allowed, fusion, nameOf);
  }

  /**
   * Ranks the allowed tools, computing the query vector (usually the embedding call) while the lexical search
   * runs. {@code vector} is not called when the fusion uses the lexical list alone.
   */
  public List<Ranked> rank(
      String query, Supplier<float[]> vector, AllowedSet allowed, Fusion fusion, IntFunction<String> nameOf) {
    if (allowed.isEmpty()) {
      return List.of();
    }
    int depth = fusion.depth();
    switch (fusion.method()) {
      case LEXICAL -> {
        return fuse(index.lexical(query, allowed, depth), List.of(), fusion, nameOf);
      }
      case DENSE -> {
        return fuse(List.of(), dense(vector.get(), allowed, depth), fusion, nameOf);
      }
      default -> {
        CompletableFuture<List<Hit>> lexical =
            CompletableFuture.supplyAsync(() -> index.lexical(query, allowed, depth), LEXICAL);
        List<Hit> dense;
        try {
          dense = dense(vector.get(), allowed, depth);
        } catch (RuntimeException e) {
          lexical.cancel(false);
          throw e;
        }
        return fuse(join(lexical), dense, fusion, nameOf);
      }
    }
  }

  private List<Hit> dense(float[] vector, AllowedSet allowed, int depth) {
    return vector == null ? List.of() : index.dense(vector, allowed, depth);
  }

  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /** Fuses two ranked lists (exposed for tests and evaluation). */
  public static List<Ranked> fuse(List<Hit> lexical, List<Hit> dense, Fusion fusion, IntFunction<String> nameOf) {
    Map<Integer, double[]> acc = new HashMap<>(); // ord -> {score, lexRank, denseRank, similarity}
    double lexMax = 0;
    for (Hit h : lexical) {
      lexMax = Math.max(lexMax, h.score());
    }
    double dMin = Double.POSITIVE_INFINITY;
    double dMax = Double.NEGATIVE_INFINITY;
    for (Hit h : dense) {
      dMin = Math.min(dMin, h.score());
      dMax = Math.max(dMax, h.score());
    }
    double dRange = dMax - dMin;
    boolean lexOnly = fusion.method() == Fusion.Method.LEXICAL;
    boolean denseOnly = fusion.method() == Fusion.Method.DENSE;
    for (int i = 0; i < lexical.size(); i++) {
      Hit h = lexical.get(i);
      double[] a = acc.computeIfAbsent(h.ord(), k -> new double[] {0, 0, 0, Double.NaN});
      a[1] = i + 1;
      a[0] += switch (fusion.method()) {
        case RRF -> 1.0 / (fusion.rrfK() + i + 1);
        case CONVEX -> (1 - fusion.alpha()) * (lexMax > 0 ? h.score() / lexMax : 0);
        case LEXICAL -> lexMax > 0 ? h.score() / lexMax : 0;
        case DENSE -> 0;
      };
    }
    for (int i = 0; i < dense.size(); i++) {
      Hit h = dense.get(i);
      double[] a = acc.computeIfAbsent(h.ord(), k -> new double[] {0, 0, 0, Double.NaN});
      a[2] = i + 1;
      a[3] = h.score();
      double norm = dRange > 1e-9 ? (h.score() - dMin) / dRange : 1.0;
      a[0] += switch (fusion.method()) {
        case RRF -> 1.0 / (fusion.rrfK() + i + 1);
        case CONVEX -> fusion.alpha() * norm;
        case DENSE -> Math.max(0, h.score());
        case LEXICAL -> 0;
      };
    }
    if (fusion.method() == Fusion.Method.RRF) {
      // scale to 0-1: the best possible RRF score is first in both lists
      double best = 2.0 / (fusion.rrfK() + 1);
      acc.values().forEach(a -> a[0] = a[0] / best);
    }
    List<Ranked> out = new ArrayList<>(acc.size());
    acc.forEach((ord, a) -> {
      if ((lexOnly && a[1] == 0) || (denseOnly && a[2] == 0)) {
        return;
      }
      out.add(new Ranked(ord, a[0], (int) a[1], (int) a[2], a[3]));
    });
    out.sort((x, y) -> {
      int c = Double.compare(y.score(), x.score());
      return c != 0 ? c : nameOf.apply(x.ord()).compareTo(nameOf.apply(y.ord()));
    });
    return out;
  }
}
