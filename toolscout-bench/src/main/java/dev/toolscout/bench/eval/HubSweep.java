package dev.toolscout.bench.eval;

import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.index.Hit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluation experiment (not product code): hub reduction on the dense side. In a catalog of similar tools
 * (models that all "fine-tune BERT", functions that all "take two numbers and return"), some tool vectors sit
 * near many others, and a small embedder's query lands near them whatever it asks. Two penalties, each computed
 * from the catalog's own vectors only (no query, no label), rescore the product's adapted dense list
 * ({@value #DEPTH} deep) before it is fused with BM25 by the product's fusion:
 *
 * <ul>
 *   <li>{@code mu-L}: {@code cos(q, t) - L * cos(mu, t)}, {@code mu} the normalized mean of the catalog's tool
 *       vectors (a tool that resembles the average tool is generic);
 *   <li>{@code knn-L}: {@code cos(q, t) - L * r(t)}, {@code r(t)} the mean cosine of {@code t} to its
 *       {@value #K} nearest other tools (CSLS's local density, tool side only).
 * </ul>
 *
 * No clause search: compare with the {@code lex=1,mini=1} row.
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools HubSweep DATASETS WORK METATOOL_LIMIT
 * </pre>
 */
public final class HubSweep {
  static final int DEPTH = 150;
  static final int K = 10;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;
  static final double[] LS = {0.25, 0.5, 1.0};

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("HubSweep", args);
    Path work = common.work();
    List<ThreeListSweep.SetData> loaded = ThreeListSweep.fetchAll(
        engines, common.datasets(), work, common.mlimit(), MINI, set -> o -> {
          float[][] vec = set.storedVectors(work, MINI);
          float[] toMean = centroidCosines(vec);
          float[] density = neighbourDensity(vec, K);
          int[] toolOfOrd = o.toolOfOrd();
          return (e, all, query) -> {
            Map<String, List<ThreeListSweep.H>> m = new HashMap<>();
            List<Hit> dense = e.index().dense(e.model().embedQuery(query.text()), all, DEPTH);
            m.put("lex", ThreeListSweep.map(e.index().lexical(query.text(), all, DEPTH), toolOfOrd));
            m.put("mini", ThreeListSweep.map(dense, toolOfOrd));
            for (double l : LS) {
              m.put("mu-" + l, ThreeListSweep.map(penalized(dense, toolOfOrd, toMean, l), toolOfOrd));
              m.put("knn-" + l, ThreeListSweep.map(penalized(dense, toolOfOrd, density, l), toolOfOrd));
            }
            return m;
          };
        });
    System.out.println(ThreeListSweep.header(loaded));
    System.out.println(ThreeListSweep.run("lex=1,mini=1", loaded));
    for (String kind : new String[] {"mu", "knn"}) {
      for (double l : LS) {
        System.out.println(ThreeListSweep.run("lex=1," + kind + "-" + l + "=1", loaded));
      }
    }
    System.out.println(ThreeListSweep.run("mini=1", loaded));
    for (String kind : new String[] {"mu", "knn"}) {
      for (double l : LS) {
        System.out.println(ThreeListSweep.run(kind + "-" + l + "=1", loaded));
      }
    }
  }

  /** The hits rescored by {@code score - l * penalty[tool]}, best first. */
  static List<Hit> penalized(List<Hit> hits, int[] toolOfOrd, float[] penalty, double l) {
    List<Hit> out = new ArrayList<>(hits.size());
    for (Hit h : hits) {
      out.add(new Hit(h.ord(), (float) (h.score() - l * penalty[toolOfOrd[h.ord()]])));
    }
    out.sort(Hit.BEST_FIRST);
    return out;
  }

  /** The cosine of each (unit) tool vector to the normalized mean of all of them. */
  static float[] centroidCosines(float[][] vec) {
    float[] mu = new float[vec[0].length];
    for (float[] v : vec) {
      for (int d = 0; d < v.length; d++) {
        mu[d] += v[d];
      }
    }
    double n = 0;
    for (float x : mu) {
      n += x * x;
    }
    float inv = (float) (1 / Math.sqrt(n));
    float[] out = new float[vec.length];
    for (int t = 0; t < vec.length; t++) {
      out[t] = NameViewSweep.dot(vec[t], mu) * inv;
    }
    return out;
  }

  /** For each tool, the mean cosine to its {@code k} nearest other tools (exact, all pairs). */
  static float[] neighbourDensity(float[][] vec, int k) {
    int n = vec.length;
    float[] out = new float[n];
    java.util.stream.IntStream.range(0, n).parallel().forEach(t -> {
      float[] sims = new float[n - 1];
      int j = 0;
      for (int u = 0; u < n; u++) {
        if (u != t) {
          sims[j++] = NameViewSweep.dot(vec[t], vec[u]);
        }
      }
      Arrays.sort(sims);
      int kk = Math.min(k, sims.length);
      double s = 0;
      for (int i = 0; i < kk; i++) {
        s += sims[sims.length - 1 - i];
      }
      out[t] = kk == 0 ? 0 : (float) (s / kk);
    });
    return out;
  }
}
