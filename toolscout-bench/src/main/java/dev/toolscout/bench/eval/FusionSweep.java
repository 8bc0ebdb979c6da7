package dev.toolscout.bench.eval;

import dev.toolscout.bench.dataset.ScoredQuery;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.index.AllowedSet;
import dev.toolscout.index.Hit;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Ranked;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Tuning tool: ranks every query of the eight development sets once per retriever (BM25 and dense lists,
 * {@value #LIST_DEPTH} deep, as the evaluation's K of 50 makes the selector fetch), then scores many fusion
 * settings on those lists in memory, so a sweep takes seconds instead of one evaluation run per setting. Uses
 * the evaluation's data directories (run {@code toolscout eval} on each set first, or let it embed).
 *
 * <p>{@code java -cp toolscout-server/target/toolscout.jar dev.toolscout.server.EvalTools FusionSweep DATASETS WORK
 * METATOOL_LIMIT CONFIG...}, each CONFIG a comma-separated list of {@code method=ZSCORE|CONVEX|RRF|LEXICAL|DENSE}
 * and {@code alpha=0.5}, starting from {@link Fusion#DEFAULT}. WORK is the eval work directory ({@code
 * <data dir>/eval}); METATOOL_LIMIT caps metatool single (0 for all). Prints one line per config: mean R@5,
 * nDCG@10 and C@10 over the eight sets, then nDCG@10/C@10 per set. Evaluation tooling, not API.
 */
public final class FusionSweep {
  static final int LIST_DEPTH = 150;

  record Q(List<Hit> lex, List<Hit> dense, java.util.Set<String> gold) {}

  record Set8(String label, List<Q> queries, IntFunction<String> idOfOrd) {}

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("FusionSweep", args);
    String model = LocalEmbeddingModels.DEFAULT_ID;
    List<Set8> loaded = new ArrayList<>();
    for (String[] row : SweepSet.SETS) {
      SweepSet s = SweepSet.load(common.datasets(), row, common.mlimit());
      try (SweepSet.Opened o = s.open(engines, common.work(), model)) {
        ProductEngine e = o.engine();
        AllowedSet all = o.all();
        int[] toolOfOrd = o.toolOfOrd();
        IntFunction<String> idOfOrd = ord -> s.ids()[toolOfOrd[ord]];
        List<Q> out = new ArrayList<>();
        for (ScoredQuery q : s.queries()) {
          List<Hit> lex = e.index().lexical(q.text(), all, LIST_DEPTH);
          List<Hit> dense = e.index().dense(e.model().embedQuery(q.text()), all, LIST_DEPTH);
          out.add(new Q(lex, dense, q.gold()));
        }
        loaded.add(new Set8(s.label(), out, idOfOrd));
      }
      System.err.println("loaded " + s.label());
    }
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-60s %5s %5s %5s |", "config", "R@5",
        "N@10", "C@10"));
    for (Set8 s : loaded) {
      head.append(String.format(Locale.ROOT, " %-11s", s.label()));
    }
    System.out.println(head + "   (per set: N@10/C@10)");
    for (String config : common.rest()) {
      System.out.println(run(config, loaded));
    }
  }

  static String run(String config, List<Set8> sets) {
    Fusion f = Fusion.DEFAULT;
    for (String kv : config.split(",")) {
      String[] p = kv.split("=", 2);
      switch (p[0]) {
        case "method" -> f = f.withMethod(Fusion.Method.valueOf(p[1]));
        case "alpha" -> f = f.withAlpha(Double.parseDouble(p[1]));
        default -> throw new IllegalArgumentException("unknown sweep key '" + p[0] + "' in: " + config);
      }
    }
    double r5 = 0;
    double n10 = 0;
    double c10 = 0;
    StringBuilder per = new StringBuilder();
    for (Set8 s : sets) {
      SweepSet.Score score = new SweepSet.Score();
      for (Q q : s.queries()) {
        List<Ranked> ranked = HybridRanker.fuse(q.lex(), q.dense(), f, s.idOfOrd());
        List<String> ids = new ArrayList<>(Math.min(50, ranked.size()));
        for (int i = 0; i < ranked.size() && i < 50; i++) {
          ids.add(s.idOfOrd().apply(ranked.get(i).ord()));
        }
        score.add(ids, q.gold());
      }
      double[] x = score.percent();
      r5 += x[0] / sets.size();
      n10 += x[1] / sets.size();
      c10 += x[2] / sets.size();
      per.append(String.format(Locale.ROOT, " %5.1f/%5.1f", x[1], x[2]));
    }
    return String.format(Locale.ROOT, "%-60s %5.1f %5.1f %5.1f |", config, r5, n10, c10) + per;
  }
}
