package dev.toolscout.bench.eval;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.index.Hit;
import dev.toolscout.selection.Fusion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Evaluation experiment (not product code): does the query adapter's own movement of a query say how much to
 * trust the adapted dense list? For each query of the eight development sets it measures the shift {@code 1 -
 * cos(q, q')} between the plain MiniLM query vector and the adapted one, prints its distribution per set, and
 * scores the product's whole-message fusion (BM25 + adapted dense, {@value #DEPTH} deep, no clause search) with
 * the dense weight raised from 0.5 toward {@code HI} as the shift goes from {@code S0} to {@code S1}.
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools AdapterShiftSweep DATASETS WORK METATOOL_LIMIT [S0:S1:HI ...]
 * </pre>
 */
public final class AdapterShiftSweep {
  static final int DEPTH = 150;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;

  record Q(List<Hit> lex, List<Hit> dense, double shift, java.util.Set<String> gold) {}

  record S(String label, String[] ids, int[] toolOfOrd, List<Q> qs) {}

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("AdapterShiftSweep", args);
    EmbeddingModel plain = LocalEmbeddingModels.createPlain(MINI);
    List<S> sets = new ArrayList<>();
    ExecutorService pool = SweepSet.pool();
    for (String[] row : SweepSet.SETS) {
      SweepSet set = SweepSet.load(common.datasets(), row, common.mlimit());
      SweepSet.Fetched<Q> f = set.fetch(engines, common.work(), MINI, pool, (e, all, q) -> {
        String text = q.text();
        float[] p = plain.embedQuery(text);
        float[] a = e.model().embedQuery(text);
        double dot = 0;
        for (int d = 0; d < p.length; d++) {
          dot += p[d] * a[d];
        }
        return new Q(e.index().lexical(text, all, DEPTH), e.index().dense(a, all, DEPTH), 1 - dot, q.gold());
      });
      List<Q> out = f.perQuery();
      sets.add(new S(set.label(), set.ids(), f.toolOfOrd(), out));
      double[] sh = out.stream().mapToDouble(Q::shift).sorted().toArray();
      System.out.printf(Locale.ROOT, "%-10s shift p10 %.3f p50 %.3f p90 %.3f%n", set.label(),
          sh[sh.length / 10], sh[sh.length / 2], sh[sh.length * 9 / 10]);
    }
    pool.shutdown();
    List<String> configs = new ArrayList<>(List.of("0:1:0.5")); // HI 0.5: the default weight throughout
    configs.addAll(common.rest());
    Map<String, double[][]> results = new LinkedHashMap<>();
    for (S s : sets) {
      results.put(s.label(), new double[configs.size()][]);
    }
    for (int ci = 0; ci < configs.size(); ci++) {
      String c = configs.get(ci);
      String[] p = c.split(":");
      double s0 = Double.parseDouble(p[0]);
      double s1 = Double.parseDouble(p[1]);
      double hi = Double.parseDouble(p[2]);
      if (!(s0 < s1)) {
        throw new IllegalArgumentException("config '" + c + "': S0 must be below S1 (S0:S1:HI)");
      }
      for (S s : sets) {
        SweepSet.Score score = new SweepSet.Score();
        for (Q q : s.qs()) {
          double t = Math.max(0, Math.min(1, (q.shift() - s0) / (s1 - s0)));
          SweepSet.scoreFused(score, Fusion.DEFAULT.withAlpha(0.5 + t * (hi - 0.5)), q.lex(), q.dense(), s.ids(),
              s.toolOfOrd(), q.gold());
        }
        results.get(s.label())[ci] = score.percent();
      }
    }
    SweepSet.printRows(configs, results, 16);
  }
}
