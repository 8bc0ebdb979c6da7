package dev.toolscout.bench.eval;

import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.index.Hit;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Ranked;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluation experiment (not product code): pseudo-relevance feedback on the dense side. For each query of the
 * eight development sets, the product's two lists (BM25 and the adapted MiniLM list, {@value #DEPTH} deep) are
 * fetched; then the query vector is moved toward the mean vector of the top {@code m} tools of a first ranking
 * ({@code dense}: the dense list; {@code fused}: the product's fusion of both lists), {@code q' = normalize(q +
 * g * mean)}, and the dense list is fetched again with {@code q'}. Each variant's dense list is fused with the
 * BM25 list by the product's fusion and scored. No clause search: compare with the {@code lex=1,mini=1} row.
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools PrfSweep DATASETS WORK METATOOL_LIMIT
 * </pre>
 */
public final class PrfSweep {
  static final int DEPTH = 150;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;
  static final int[] MS = {1, 3, 5};
  static final double[] GS = {0.3, 0.6, 1.0};

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("PrfSweep", args);
    List<ThreeListSweep.SetData> loaded = ThreeListSweep.fetchAll(
        engines, common.datasets(), common.work(), common.mlimit(), MINI, set -> o -> {
      String[] ids = set.ids();
      float[][] vec = set.storedVectors(common.work(), MINI);
      int[] toolOfOrd = o.toolOfOrd();
      return (e, all, query) -> {
        String text = query.text();
        Map<String, List<ThreeListSweep.H>> m = new HashMap<>();
        List<Hit> lex = e.index().lexical(text, all, DEPTH);
        float[] q = e.model().embedQuery(text);
        List<Hit> dense = e.index().dense(q, all, DEPTH);
        m.put("lex", ThreeListSweep.map(lex, toolOfOrd));
        m.put("mini", ThreeListSweep.map(dense, toolOfOrd));
        List<Ranked> fused = HybridRanker.fuse(lex, dense, Fusion.DEFAULT, ord -> ids[toolOfOrd[ord]]);
        for (String src : new String[] {"dense", "fused"}) {
          for (int mm : MS) {
            float[] mean = new float[q.length];
            int n = 0;
            for (int r = 0; r < mm; r++) {
              int ord;
              if (src.equals("dense")) {
                if (r >= dense.size()) {
                  break;
                }
                ord = dense.get(r).ord();
              } else {
                if (r >= fused.size()) {
                  break;
                }
                ord = fused.get(r).ord();
              }
              float[] v = vec[toolOfOrd[ord]];
              for (int d = 0; d < v.length; d++) {
                mean[d] += v[d];
              }
              n++;
            }
            for (double g : GS) {
              float[] q2 = new float[q.length];
              double norm = 0;
              for (int d = 0; d < q.length; d++) {
                q2[d] = (float) (q[d] + g * mean[d] / Math.max(1, n));
                norm += q2[d] * q2[d];
              }
              float inv = (float) (1 / Math.sqrt(norm));
              for (int d = 0; d < q.length; d++) {
                q2[d] *= inv;
              }
              m.put(src + "-" + mm + "-" + g, ThreeListSweep.map(e.index().dense(q2, all, DEPTH), toolOfOrd));
            }
          }
        }
        return m;
      };
    });
    System.out.println(ThreeListSweep.header(loaded));
    System.out.println(ThreeListSweep.runHybridRanker(loaded));
    System.out.println(ThreeListSweep.run("lex=1,mini=1", loaded));
    System.out.println(ThreeListSweep.run("mini=1", loaded));
    for (String src : new String[] {"dense", "fused"}) {
      for (int mm : MS) {
        for (double g : GS) {
          String name = src + "-" + mm + "-" + g;
          System.out.println(ThreeListSweep.run("lex=1," + name + "=1", loaded));
        }
      }
    }
    for (int mm : MS) {
      for (double g : GS) {
        System.out.println(ThreeListSweep.run("dense-" + mm + "-" + g + "=1", loaded));
      }
    }
  }
}
