package dev.toolscout.bench.eval;

import dev.toolscout.bench.dataset.ScoredQuery;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.index.AllowedSet;
import dev.toolscout.index.Hit;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.QueryClauses;
import dev.toolscout.selection.Ranked;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.regex.Pattern;

/**
 * Evaluation experiment: query decomposition for multi-intent messages (the product's clause search came out of
 * it). Each query is split
 * into clauses by a simple surface rule; the whole query and every clause are ranked with the product's hybrid
 * (BM25 list + dense list of the default model with its query adapter, {@link Fusion#DEFAULT} through {@link
 * HybridRanker#fuse}, lists {@value #DEPTH} deep as {@link FusionSweep} fetches them); the lists are then
 * combined in memory several ways and scored on the eight development sets.
 *
 * <p>Splitters (all case-insensitive; clauses of fewer than {@value QueryClauses#MIN_WORDS} words are dropped; more than
 * {@value QueryClauses#MAX_CLAUSES} clauses are reduced by merging the adjacent pair with the fewest words; fewer than 2
 * clauses left means the query is not split):
 *
 * <ul>
 *   <li>{@code sent}: sentence ends ({@code . ! ?} followed by white space) and {@code ;}
 *   <li>{@code conn}: {@code sent} plus {@code and then}, {@code then}, {@code and also}, {@code also}
 *   <li>{@code full}: {@code conn} plus {@code , and}, {@code and}, and {@code ,}
 *   <li>{@code verb}: {@code conn} plus {@code and} before a request verb or a question word ({@link #VERB})
 * </ul>
 *
 * <p>Combinations (W the whole query's fused list, C1..Cm the clauses'):
 *
 * <ul>
 *   <li>{@code rr}: round-robin: W[1], C1[1], ..., Cm[1], W[2], C1[2], ..., duplicates skipped
 *   <li>{@code rrf k=K w=X}: reciprocal rank fusion, {@code X / (K + rank in W) + sum 1 / (K + rank in Ci)}
 *   <li>{@code reserve}: W's top {@code 10 - m}, then each clause's best tool that is not in W's top 10, then the
 *       rest of W
 *   <li>{@code lead}: W's top 3, then round-robin as {@code rr} (an extra variant)
 *   <li>gated {@code lead}: only the clauses whose lists pass a gate (their best tool's fused value, its
 *       distance to W's best, its rank in W, its lead over the clause's second)
 *   <li>{@code maxfuse}: score level, a tool's value is the best of its value in W and its value in each clause
 *       less a penalty (its own penalty for each clause's best tool); the product's clause search is {@code
 *       conn} with 1.0 / 2.0 ({@link HybridRanker#mergeClauses})
 * </ul>
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools ClauseSweep DATASETS WORK METATOOL_LIMIT [--show N]
 * </pre>
 *
 * WORK is the eval work directory ({@code <data dir>/eval}, EvalRunner's data directories); METATOOL_LIMIT
 * caps metatool single (0 for all). {@code --show N} prints the clauses of the first N split queries of every
 * set (stderr). Evaluation tooling, not API.
 */
public final class ClauseSweep {
  static final int DEPTH = 150;
  static final int KEEP = 100; // fused list length kept per text

  static final String SENT = "(?<=[.!?])\\s+|;";
  static final String CONN = QueryClauses.SPLIT_POINTS.pattern(); // the product's rule
  static final String FULL = CONN + "|,\\s*and\\s+|\\s+and\\s+|,";
  /**
   * {@code conn} plus {@code and} (with or without a comma before it) when a request verb or a question word
   * follows: "get the domains that use AngularJS, and fetch chapter 5".
   */
  static final String VERB = CONN + "|,?\\s+and\\s+(?=(?:get|fetch|find|search|list|check|show|give|tell|provide"
      + "|calculate|compute|convert|create|make|retrieve|look|identify|generate|send|translate|analy[sz]e|determine"
      + "|suggest|recommend|book|add|remove|delete|update|set|play|download|upload|summari[sz]e|extract|validate"
      + "|verify|predict|estimate|compare|display|obtain|return|what|how|which|who|where|when|can|could|i)\\b)";
  static final Map<String, Pattern> SPLITTERS = new LinkedHashMap<>();

  static {
    SPLITTERS.put("sent", Pattern.compile(SENT, Pattern.CASE_INSENSITIVE));
    SPLITTERS.put("conn", Pattern.compile(CONN, Pattern.CASE_INSENSITIVE));
    SPLITTERS.put("full", Pattern.compile(FULL, Pattern.CASE_INSENSITIVE));
    SPLITTERS.put("verb", Pattern.compile(VERB, Pattern.CASE_INSENSITIVE));
  }


  /** One query: the whole query's fused list and, per splitter, the clauses' fused lists (empty: not split). */
  record Q(int[] whole, Map<String, List<int[]>> clauses, Set<String> gold, double[] wholeLogit,
      Map<String, List<double[]>> clauseLogits) {}

  record SetData(String label, String[] ids, List<Q> queries) {}

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("ClauseSweep", args);
    int show = 0;
    List<String> rest = common.rest();
    for (int i = 0; i < rest.size(); i++) {
      if (rest.get(i).equals("--show")) {
        show = Integer.parseInt(rest.get(++i));
      } else {
        throw new IllegalArgumentException("unknown argument " + rest.get(i));
      }
    }
    String model = LocalEmbeddingModels.DEFAULT_ID; // the product builds it with LocalEmbeddingModels.create: adapted
    ExecutorService pool = SweepSet.pool();
    List<SetData> loaded = new ArrayList<>();
    Map<String, double[]> splitStats = new LinkedHashMap<>(); // "set/splitter" -> {split queries, clauses}
    for (String[] row : SweepSet.SETS) {
      long ts = System.nanoTime();
      SweepSet set = SweepSet.load(common.datasets(), row, common.mlimit());
      List<ScoredQuery> qs = set.queries();
      String[] ids = set.ids();
      // every distinct text to rank: the queries and all splitters' clauses
      List<Map<String, List<String>>> clauseTexts = new ArrayList<>();
      Set<String> texts = new LinkedHashSet<>();
      int shown = 0;
      for (ScoredQuery q : qs) {
        texts.add(q.text());
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Map.Entry<String, Pattern> sp : SPLITTERS.entrySet()) {
          List<String> cl = QueryClauses.split(q.text(), sp.getValue());
          m.put(sp.getKey(), cl);
          texts.addAll(cl);
          double[] st = splitStats.computeIfAbsent(set.label() + "/" + sp.getKey(), k -> new double[3]);
          st[0] += cl.isEmpty() ? 0 : 1;
          st[1] += cl.size();
          st[2] += 1;
        }
        clauseTexts.add(m);
        if (shown < show && !m.get("full").isEmpty()) {
          shown++;
          System.err.println(set.label() + " | " + q.text().replace('\n', ' '));
          m.forEach((k, v) -> System.err.println("   " + k + ": " + v));
        }
      }
      List<String> all = new ArrayList<>(texts);
      Map<String, int[]> ranked = new ConcurrentHashMap<>();
      Map<String, double[]> logits = new ConcurrentHashMap<>();
      try (SweepSet.Opened o = set.open(engines, common.work(), model)) {
        ProductEngine e = o.engine();
        int[] toolOfOrd = o.toolOfOrd();
        AllowedSet allowed = o.all();
        QueryAdapterTrainer.parallel(pool, all.size(), i -> {
          String text = all.get(i);
          List<Hit> lex = e.index().lexical(text, allowed, DEPTH);
          List<Hit> dense = e.index().dense(e.model().embedQuery(text), allowed, DEPTH);
          List<Ranked> r = HybridRanker.fuse(lex, dense, Fusion.DEFAULT, ord -> ids[toolOfOrd[ord]]);
          int[] out = new int[Math.min(KEEP, r.size())];
          double[] lg = new double[out.length];
          for (int j = 0; j < out.length; j++) {
            out[j] = toolOfOrd[r.get(j).ord()];
            double sc = Math.min(1 - 1e-12, Math.max(1e-12, r.get(j).score()));
            lg[j] = Math.log(sc / (1 - sc));
          }
          ranked.put(text, out);
          logits.put(text, lg);
        });
      }
      List<Q> out = new ArrayList<>();
      for (int i = 0; i < qs.size(); i++) {
        Map<String, List<int[]>> cl = new LinkedHashMap<>();
        Map<String, List<double[]>> cg = new LinkedHashMap<>();
        clauseTexts.get(i).forEach((k, v) -> cl.put(k, v.stream().map(ranked::get).toList()));
        clauseTexts.get(i).forEach((k, v) -> cg.put(k, v.stream().map(logits::get).toList()));
        out.add(new Q(ranked.get(qs.get(i).text()), cl, qs.get(i).gold(), logits.get(qs.get(i).text()), cg));
      }
      loaded.add(new SetData(set.label(), ids, out));
      System.err.printf(Locale.ROOT, "loaded %s (%d queries, %d texts ranked) in %.0f s%n", set.label(), qs.size(),
          all.size(), (System.nanoTime() - ts) / 1e9);
    }
    pool.shutdown();

    System.out.println("splitting: share of queries split (%) / extra query embeddings per query (mean over all"
        + " queries) / clauses per split query");
    StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "%-8s", "splitter"));
    for (SetData s : loaded) {
      h.append(String.format(Locale.ROOT, " | %-16s", s.label()));
    }
    System.out.println(h);
    for (String sp : SPLITTERS.keySet()) {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-8s", sp));
      for (SetData s : loaded) {
        double[] st = splitStats.get(s.label() + "/" + sp);
        line.append(String.format(Locale.ROOT, " | %4.1f %4.2f %4.2f", 100 * st[0] / st[2], st[1] / st[2],
            st[0] == 0 ? 0 : st[1] / st[0]));
      }
      System.out.println(line);
    }
    System.out.println();
    System.out.println(header(loaded));
    System.out.println(score("default (whole query only)", loaded, null, (q, cl) -> q.whole()));
    for (String sp : SPLITTERS.keySet()) {
      System.out.println(score(sp + ": round-robin", loaded, sp, ClauseSweep::roundRobin));
      for (int k : new int[] {10, 60}) {
        for (double w : new double[] {1, 2}) {
          System.out.println(score(String.format(Locale.ROOT, "%s: rrf k=%d w=%.0f", sp, k, w), loaded, sp,
              (q, cl) -> rrf(q.whole(), cl, k, w)));
        }
      }
      System.out.println(score(sp + ": reserve clause top-1", loaded, sp, (q, cl) -> reserve(q.whole(), cl)));
      System.out.println(score(sp + ": whole top-3, then round-robin", loaded, sp, (q, cl) -> lead(q, cl, 3)));
    }
    System.out.println();
    System.out.println("gated: a clause counts only when its best tool's fused logit >= T (abs) or its best tool"
        + " ranks in the whole list's top R (rank)");
    for (String sp : List.of("conn", "full", "verb")) {
      for (double dt : new double[] {0, 0.5, 1.0, 1.5}) {
        for (double d : new double[] {2.0, 3.0, 1e9}) {
          System.out.println(score(String.format(Locale.ROOT, "%s maxfuse top %.1f rest %.0f", sp, dt, d), loaded,
              sp, (q, cl) -> maxFuse(q, sp, dt, d)));
        }
      }
    }
    for (String sp : List.of("sent", "conn", "full")) {
      for (double d : new double[] {0, 0.5, 1.0, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0}) {
        System.out.println(score(String.format(Locale.ROOT, "%s maxfuse delta %.1f", sp, d), loaded, sp,
            (q, cl) -> maxFuse(q, sp, d)));
      }
      for (int dep : new int[] {1, 2, 3}) {
        System.out.println(score(String.format(Locale.ROOT, "%s lead3 rr clause depth %d", sp, dep), loaded, sp,
            (q, cl) -> leadDepth(q, cl, 3, dep)));
        System.out.println(score(String.format(Locale.ROOT, "%s lead5 rr clause depth %d", sp, dep), loaded, sp,
            (q, cl) -> leadDepth(q, cl, 5, dep)));
      }
    }
    for (String sp : List.of("conn", "full")) {
      for (double t : new double[] {1.0, 1.5, 2.0, 2.5, 3.0}) {
        System.out.println(score(String.format(Locale.ROOT, "%s lead3 abs %.1f", sp, t), loaded, sp,
            (q, cl) -> lead(q, gate(q, sp, (c, lg) -> lg[0] >= t), 3)));
      }
      for (double t : new double[] {0.0, 0.5, 1.0}) {
        System.out.println(score(String.format(Locale.ROOT, "%s lead3 rel whole-top %.1f", sp, t), loaded, sp,
            (q, cl) -> lead(q, gate(q, sp, (c, lg) -> lg[0] >= q.wholeLogit()[0] - t), 3)));
      }
      for (int rr : new int[] {10, 30}) {
        System.out.println(score(String.format(Locale.ROOT, "%s lead3 rank %d", sp, rr), loaded, sp,
            (q, cl) -> lead(q, gate(q, sp, (c, lg) -> rankIn(q.whole(), c[0]) < rr), 3)));
      }
      for (double t : new double[] {1.5, 2.0, 2.5}) {
        System.out.println(score(String.format(Locale.ROOT, "%s margin %.1f", sp, t), loaded, sp,
            (q, cl) -> lead(q, gate(q, sp, (c, lg) -> lg.length > 1 && lg[0] - lg[1] >= t / 4), 3)));
      }
    }
    System.out.println();
    System.out.println("split queries only (splitter full): N@10/C@10 per set, default vs reserve vs rr, and n");
    for (SetData s : loaded) {
      List<Q> sq = s.queries().stream().filter(q -> !q.clauses().get("full").isEmpty()).toList();
      if (sq.isEmpty()) {
        continue;
      }
      SetData sub = new SetData(s.label(), s.ids(), sq);
      double[] d = setScores(sub, null, (q, cl) -> q.whole());
      double[] r = setScores(sub, "full", (q, cl) -> reserve(q.whole(), cl));
      double[] rr = setScores(sub, "full", ClauseSweep::roundRobin);
      System.out.printf(Locale.ROOT, "%-10s n=%4d  default %5.1f/%5.1f  reserve %5.1f/%5.1f  rr %5.1f/%5.1f%n",
          s.label(), sq.size(), d[1], d[2], r[1], r[2], rr[1], rr[2]);
    }
  }

  interface Combiner {
    int[] combine(Q q, List<int[]> clauses);
  }

  static int[] roundRobin(Q q, List<int[]> clauses) {
    List<int[]> lists = new ArrayList<>();
    lists.add(q.whole());
    lists.addAll(clauses);
    LinkedHashSet<Integer> out = new LinkedHashSet<>();
    for (int r = 0; r < KEEP && out.size() < KEEP; r++) {
      for (int[] l : lists) {
        if (r < l.length) {
          out.add(l[r]);
        }
      }
    }
    return out.stream().mapToInt(Integer::intValue).limit(KEEP).toArray();
  }

  /** The whole list's top {@code n}, then round-robin over all lists (extra variant). */
  static int[] lead(Q q, List<int[]> clauses, int n) {
    LinkedHashSet<Integer> out = new LinkedHashSet<>();
    for (int i = 0; i < Math.min(n, q.whole().length); i++) {
      out.add(q.whole()[i]);
    }
    for (int t : roundRobin(q, clauses)) {
      out.add(t);
    }
    return out.stream().mapToInt(Integer::intValue).limit(KEEP).toArray();
  }

  interface ClauseGate {
    boolean keep(int[] clauseTools, double[] clauseLogits);
  }

  /** The clause lists of {@code splitter} that pass {@code g} (none: the whole list alone). */
  static List<int[]> gate(Q q, String splitter, ClauseGate g) {
    List<int[]> cl = q.clauses().get(splitter);
    List<double[]> lg = q.clauseLogits().get(splitter);
    List<int[]> out = new ArrayList<>();
    for (int i = 0; i < cl.size(); i++) {
      if (cl.get(i).length > 0 && g.keep(cl.get(i), lg.get(i))) {
        out.add(cl.get(i));
      }
    }
    return out;
  }

  /**
   * Score-level combination: a tool's score is the best of its whole-query logit and each clause's logit for
   * it less {@code delta}; a tool absent from the whole list takes the whole list's lowest logit.
   */
  static int[] maxFuse(Q q, String splitter, double delta) {
    return maxFuse(q, splitter, delta, delta);
  }

  /** {@link #maxFuse(Q, String, double)} with its own penalty for each clause's best tool. */
  static int[] maxFuse(Q q, String splitter, double deltaTop, double delta) {
    Map<Integer, Double> best = new HashMap<>();
    double[] wl = q.wholeLogit();
    for (int i = 0; i < q.whole().length; i++) {
      best.put(q.whole()[i], wl[i]);
    }
    double floor = wl.length == 0 ? 0 : wl[wl.length - 1];
    List<int[]> cl = q.clauses().get(splitter);
    List<double[]> lg = q.clauseLogits().get(splitter);
    for (int c = 0; c < cl.size(); c++) {
      for (int i = 0; i < cl.get(c).length; i++) {
        double v = lg.get(c)[i] - (i == 0 ? deltaTop : delta);
        best.merge(cl.get(c)[i], Math.max(v, floor), Math::max);
      }
    }
    List<Map.Entry<Integer, Double>> es = new ArrayList<>(best.entrySet());
    es.sort((a, b) -> {
      int x = Double.compare(b.getValue(), a.getValue());
      return x != 0 ? x : Integer.compare(rankIn(q.whole(), a.getKey()), rankIn(q.whole(), b.getKey()));
    });
    return es.stream().mapToInt(Map.Entry::getKey).limit(KEEP).toArray();
  }

  /** The whole list's top {@code n}, then round-robin with each clause list cut to its top {@code depth}. */
  static int[] leadDepth(Q q, List<int[]> clauses, int n, int depth) {
    List<int[]> cut = clauses.stream().map(c -> java.util.Arrays.copyOf(c, Math.min(depth, c.length))).toList();
    return lead(q, cut, n);
  }

  static int rankIn(int[] list, int tool) {
    for (int i = 0; i < list.length; i++) {
      if (list[i] == tool) {
        return i;
      }
    }
    return Integer.MAX_VALUE;
  }

  static int[] rrf(int[] whole, List<int[]> clauses, int k, double w) {
    Map<Integer, double[]> acc = new HashMap<>(); // tool -> {score, rank in whole (tie-break)}
    for (int i = 0; i < whole.length; i++) {
      acc.computeIfAbsent(whole[i], t -> new double[] {0, Integer.MAX_VALUE})[0] += w / (k + i + 1);
      acc.get(whole[i])[1] = i;
    }
    for (int[] c : clauses) {
      for (int i = 0; i < c.length; i++) {
        acc.computeIfAbsent(c[i], t -> new double[] {0, Integer.MAX_VALUE})[0] += 1.0 / (k + i + 1);
      }
    }
    List<Map.Entry<Integer, double[]>> es = new ArrayList<>(acc.entrySet());
    es.sort((a, b) -> {
      int c = Double.compare(b.getValue()[0], a.getValue()[0]);
      if (c != 0) {
        return c;
      }
      c = Double.compare(a.getValue()[1], b.getValue()[1]);
      return c != 0 ? c : Integer.compare(a.getKey(), b.getKey());
    });
    return es.stream().mapToInt(Map.Entry::getKey).limit(KEEP).toArray();
  }

  static int[] reserve(int[] whole, List<int[]> clauses) {
    int m = clauses.size();
    Set<Integer> top10 = new LinkedHashSet<>();
    for (int i = 0; i < Math.min(10, whole.length); i++) {
      top10.add(whole[i]);
    }
    LinkedHashSet<Integer> missing = new LinkedHashSet<>();
    for (int[] c : clauses) {
      if (c.length > 0 && !top10.contains(c[0])) {
        missing.add(c[0]);
      }
    }
    LinkedHashSet<Integer> out = new LinkedHashSet<>();
    int keep = Math.max(0, 10 - m);
    for (int i = 0; i < Math.min(keep, whole.length); i++) {
      out.add(whole[i]);
    }
    out.addAll(missing);
    for (int t : whole) {
      out.add(t);
    }
    return out.stream().mapToInt(Integer::intValue).limit(KEEP).toArray();
  }

  static String header(List<SetData> sets) {
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-34s %5s %5s %5s |", "config", "R@5",
        "N@10", "C@10"));
    for (SetData s : sets) {
      head.append(String.format(Locale.ROOT, " %-11s", s.label()));
    }
    return head + "   (per set: N@10/C@10) | 7 sets but toollens: N@10/C@10";
  }

  /** R@5, N@10, C@10 in percent for one set; {@code splitter} null: no clauses. */
  static double[] setScores(SetData s, String splitter, Combiner c) {
    SweepSet.Score score = new SweepSet.Score();
    for (Q q : s.queries()) {
      List<int[]> cl = splitter == null ? List.of() : q.clauses().get(splitter);
      int[] r = cl.isEmpty() ? q.whole() : c.combine(q, cl);
      List<String> ids = new ArrayList<>(50);
      for (int i = 0; i < r.length && i < 50; i++) {
        ids.add(s.ids()[r[i]]);
      }
      score.add(ids, q.gold());
    }
    return score.percent();
  }

  static String score(String label, List<SetData> sets, String splitter, Combiner c) {
    double[] mean = new double[3];
    double[] other = new double[2]; // mean N@10, C@10 over the sets other than toollens
    StringBuilder per = new StringBuilder();
    for (SetData s : sets) {
      double[] x = setScores(s, splitter, c);
      for (int i = 0; i < 3; i++) {
        mean[i] += x[i] / sets.size();
      }
      if (!s.label().equals("toollens")) {
        other[0] += x[1] / (sets.size() - 1);
        other[1] += x[2] / (sets.size() - 1);
      }
      per.append(String.format(Locale.ROOT, " %5.1f/%5.1f", x[1], x[2]));
    }
    return String.format(Locale.ROOT, "%-34s %5.1f %5.1f %5.1f |", label, mean[0], mean[1], mean[2]) + per
        + String.format(Locale.ROOT, " | %5.1f/%5.1f", other[0], other[1]);
  }

  private ClauseSweep() {}
}
