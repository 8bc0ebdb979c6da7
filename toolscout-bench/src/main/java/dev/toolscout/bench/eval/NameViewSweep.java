package dev.toolscout.bench.eval;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.index.ToolText;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluation experiment (not product code): a second view of each tool for the dense side, its name words alone
 * ({@link ToolText#nameWords}) embedded by the default model, searched with the same adapted query vector by
 * exact cosine, as a third list ({@code name}) beside BM25 ({@code lex}) and the product's dense list ({@code
 * mini}), fused as {@link ThreeListSweep} fuses (whole message, no clause search).
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools NameViewSweep DATASETS WORK METATOOL_LIMIT CONFIG...
 * </pre>
 */
public final class NameViewSweep {
  static final int DEPTH = 150;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("NameViewSweep", args);
    List<ThreeListSweep.SetData> loaded = ThreeListSweep.fetchAll(
        engines, common.datasets(), common.work(), common.mlimit(), MINI, set -> o -> {
      EmbeddingModel model = o.engine().model();
      List<String> names = new ArrayList<>();
      for (ToolSpec s : set.specs()) {
        names.add(ToolText.nameWords(s));
      }
      float[][] nv = model.embedDocuments(names).toArray(new float[0][]);
      // the product's document vectors, from the store the engine filled
      float[][] fv = set.storedVectors(common.work(), MINI);
      // agreement of each tool's name with its whole text
      float[] agree = new float[nv.length];
      for (int t = 0; t < nv.length; t++) {
        agree[t] = Math.max(0, dot(nv[t], fv[t]));
      }
      Map<String, float[][]> mixes = new java.util.LinkedHashMap<>();
      for (double lam : new double[] {0.3, 0.6, 1.0}) {
        mixes.put("mix" + lam, mix(fv, nv, lam, null));
        mixes.put("amix" + lam, mix(fv, nv, lam, agree));
      }
      int[] toolOfOrd = o.toolOfOrd();
      return (e, all, query) -> {
        String text = query.text();
        float[] q = model.embedQuery(text);
        Map<String, List<ThreeListSweep.H>> m = new HashMap<>();
        m.put("lex", ThreeListSweep.map(e.index().lexical(text, all, DEPTH), toolOfOrd));
        m.put("mini", ThreeListSweep.map(e.index().dense(q, all, DEPTH), toolOfOrd));
        m.put("name", top(q, nv));
        float[] sc = new float[nv.length];
        for (int t = 0; t < nv.length; t++) {
          sc[t] = dot(q, nv[t]) * agree[t];
        }
        m.put("aname", top(sc));
        for (Map.Entry<String, float[][]> x : mixes.entrySet()) {
          m.put(x.getKey(), top(q, x.getValue()));
        }
        return m;
      };
    });
    System.out.println(ThreeListSweep.header(loaded));
    System.out.println(ThreeListSweep.run("lex=1,mini=1", loaded));
    System.out.println(ThreeListSweep.run("name=1", loaded));
    for (String config : common.rest()) {
      if (config.startsWith("top")) { // topK:W : the name list restricted to the default's top K, weight W
        String[] p = config.substring(3).split(":");
        System.out.println(restricted(config, Integer.parseInt(p[0]), Double.parseDouble(p[1]), loaded));
      } else {
        System.out.println(ThreeListSweep.run(config, loaded));
      }
    }
  }

  /**
   * The default's two lists fused as the product does; then the name list ({@code aname}) keeps only the tools in
   * that fusion's top {@code k} and is fused as a third list of weight {@code w} (BM25 and dense 1 each).
   */
  static String restricted(String label, int k, double w, List<ThreeListSweep.SetData> sets) {
    double sum = 2 + w;
    double[] weights = {1 / sum, 1 / sum, w / sum};
    return ThreeListSweep.score(label, sets, (s, q) -> {
      List<ThreeListSweep.H> lex = q.lists().get("lex");
      List<ThreeListSweep.H> mini = q.lists().get("mini");
      List<String> first = ThreeListSweep.fuse(List.of(lex, mini), new double[] {0.5, 0.5}, true, s.ids());
      java.util.Set<String> keep = new java.util.HashSet<>(first.subList(0, Math.min(k, first.size())));
      List<ThreeListSweep.H> name = q.lists().get("aname").stream().filter(h -> keep.contains(s.ids()[h.tool()]))
          .toList();
      return ThreeListSweep.fuse(List.of(lex, mini, name), weights, true, s.ids());
    });
  }

  static float dot(float[] a, float[] b) {
    float d = 0;
    for (int i = 0; i < a.length; i++) {
      d += a[i] * b[i];
    }
    return d;
  }

  /** normalize(full + lam * w * name), w the tool's agreement or 1. */
  static float[][] mix(float[][] fv, float[][] nv, double lam, float[] agree) {
    float[][] out = new float[fv.length][];
    for (int t = 0; t < fv.length; t++) {
      double w = lam * (agree == null ? 1 : agree[t]);
      float[] v = new float[fv[t].length];
      double n = 0;
      for (int d = 0; d < v.length; d++) {
        v[d] = (float) (fv[t][d] + w * nv[t][d]);
        n += v[d] * v[d];
      }
      float inv = (float) (1 / Math.sqrt(n));
      for (int d = 0; d < v.length; d++) {
        v[d] *= inv;
      }
      out[t] = v;
    }
    return out;
  }

  /** The {@value #DEPTH} tools whose vector is closest to {@code q}, by exact cosine. */
  static List<ThreeListSweep.H> top(float[] q, float[][] nv) {
    float[] score = new float[nv.length];
    for (int t = 0; t < nv.length; t++) {
      score[t] = dot(q, nv[t]);
    }
    return top(score);
  }

  static List<ThreeListSweep.H> top(float[] score) {
    Integer[] idx = new Integer[score.length];
    for (int t = 0; t < score.length; t++) {
      idx[t] = t;
    }
    java.util.Arrays.sort(idx, (a, b) -> Float.compare(score[b], score[a]));
    List<ThreeListSweep.H> out = new ArrayList<>();
    for (int r = 0; r < Math.min(DEPTH, idx.length); r++) {
      out.add(new ThreeListSweep.H(idx[r], score[idx[r]]));
    }
    return out;
  }
}
