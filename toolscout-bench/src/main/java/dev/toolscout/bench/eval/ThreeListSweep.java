package dev.toolscout.bench.eval;

import dev.toolscout.bench.dataset.NormalizedDataset;
import dev.toolscout.bench.dataset.ScoredQuery;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.embeddings.QueryAdapter;
import dev.toolscout.embeddings.QueryText;
import dev.toolscout.index.Hit;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Ranked;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/**
 * Evaluation experiment (not product code): fuses more than two ranked lists, and tries a linear query adapter
 * learned on the ToolLens train split, on the eight development sets.
 *
 * <p>For every query of the eight sets it fetches, once, {@value #DEPTH} deep: the BM25 list ({@code lex}), the
 * MiniLM dense list ({@code mini}), the bge-small dense list with the query as is ({@code bge}) and with BGE's
 * query instruction ({@code bgei}; both BGE lists search the same document vectors, which do not depend on the
 * query recipe, so only the {@code bge-small-en-v1.5-q} data directory is built), and one MiniLM dense list per
 * adapter (below). It then scores each CONFIG in memory.
 *
 * <p>Data directories are EvalRunner's ({@code WORK/<hash of set folder + model>}), so runs of {@code toolscout
 * eval --model ...} and this tool share their embeddings.
 *
 * <p>Adapter: trained by {@link QueryAdapterTrainer}'s code (a 384 x 384 matrix W trained on ToolLens {@code
 * qrels.train.tsv} only) with the given lambda, epochs and learning rate; at search time the plain MiniLM query
 * vector q becomes {@code normalize(q + beta * (W - I) q)} ({@link QueryAdapter#apply}). The {@code mini} list
 * uses the plain MiniLM query vector, not the product's (adapted) one, so the figures of docs/EVALUATION.md's
 * sweep still reproduce; the product's default is {@code lex=1,b=1} with {@code b=0.1:3:1:0.1}.
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools ThreeListSweep DATASETS WORK METATOOL_LIMIT [options] CONFIG...
 *   --adapter NAME=LAMBDA:EPOCHS:BETA[:LR]  an adapted MiniLM list named NAME (repeatable; LR default 0.1)
 *   --latency N                             time embedQuery per model on N ToolLens test queries (after 50 warm-up)
 *   --train-only                            train the adapters, print the held-out figures, stop
 * CONFIG: comma-separated LIST=WEIGHT (lists: lex, mini, bge, bgei, adapter names; weights are normalized to sum
 *   1), plus "fixed" to turn off the top-hit weighting. "lex=1,mini=1" is the product default.
 * </pre>
 */
public final class ThreeListSweep {
  static final int DEPTH = 150;
  static final int DIM = 384;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;
  static final String BGE = LocalEmbeddingModels.BGE_SMALL_EN_V15_Q;
  static final String BGEI = LocalEmbeddingModels.BGE_SMALL_EN_V15_Q_INSTRUCT;

  /** One retrieved tool: index into the set's id array, and the retriever's score. */
  record H(int tool, float score) {}

  record Q(Map<String, List<H>> lists, Set<String> gold) {}

  record SetData(String label, String[] ids, List<Q> queries) {}

  record AdapterSpec(String name, double lambda, int epochs, double beta, double lr) {
    QueryAdapterTrainer.Params params() {
      return new QueryAdapterTrainer.Params(lambda, epochs, lr, beta);
    }
  }


  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("ThreeListSweep", args);
    List<AdapterSpec> adapters = new ArrayList<>();
    List<String> configs = new ArrayList<>();
    int latencyN = 0;
    boolean trainOnly = false;
    List<String> rest = common.rest();
    for (int i = 0; i < rest.size(); i++) {
      switch (rest.get(i)) {
        case "--adapter" -> {
          String[] nv = rest.get(++i).split("=", 2);
          String[] p = nv[1].split(":");
          adapters.add(new AdapterSpec(nv[0], Double.parseDouble(p[0]), Integer.parseInt(p[1]),
              Double.parseDouble(p[2]), p.length > 3 ? Double.parseDouble(p[3]) : 0.1));
        }
        case "--latency" -> latencyN = Integer.parseInt(rest.get(++i));
        case "--train-only" -> trainOnly = true;
        default -> configs.add(rest.get(i));
      }
    }
    long t0 = System.nanoTime();
    // adapters first: they need only ToolLens train and the MiniLM model
    Map<String, QueryAdapter> adapterOf = new LinkedHashMap<>();
    if (!adapters.isEmpty()) {
      Map<String, float[]> trained = new HashMap<>(); // train key -> W - I
      QueryAdapterTrainer.TrainData td = QueryAdapterTrainer.trainData(common.datasets(), common.work());
      for (AdapterSpec a : adapters) {
        float[] d = trained.get(a.params().trainKey());
        if (d == null) {
          d = QueryAdapterTrainer.train(td, a.params(), a.name());
          trained.put(a.params().trainKey(), d);
        }
        adapterOf.put(a.name(), QueryAdapter.of(MINI, DIM, a.beta(), d, "ThreeListSweep adapter " + a));
      }
      System.err.printf(Locale.ROOT, "adapters trained in %.0f s%n", (System.nanoTime() - t0) / 1e9);
    }
    if (trainOnly) {
      return;
    }
    // the "mini" list is plain MiniLM (the product's default model before its query adapter); the adapters'
    // lists apply their own adapter to the plain vector of the text without its numbers, as the adapters are
    // trained (QueryAdapterTrainer) and as the product embeds a query
    EmbeddingModel plainMini = LocalEmbeddingModels.createPlain(MINI);
    EmbeddingModel bgei = LocalEmbeddingModels.create(BGEI);
    List<SetData> loaded = new ArrayList<>();
    ExecutorService pool = SweepSet.pool();
    for (String[] row : SweepSet.SETS) {
      long ts = System.nanoTime();
      SweepSet set = SweepSet.load(common.datasets(), row, common.mlimit());
      Path work = common.work();
      SweepSet.Fetched<Map<String, List<H>>> mini = set.fetch(engines, work, MINI, pool, o -> (e, all, query) -> {
        String text = query.text();
        Map<String, List<H>> m = new HashMap<>();
        float[] q = plainMini.embedQuery(text);
        m.put("lex", map(e.index().lexical(text, all, DEPTH), o.toolOfOrd()));
        m.put("mini", map(e.index().dense(q, all, DEPTH), o.toolOfOrd()));
        String numberFree = QueryText.withoutNumbers(text);
        float[] qn = adapterOf.isEmpty() ? null : numberFree.equals(text) ? q : plainMini.embedQuery(numberFree);
        for (Map.Entry<String, QueryAdapter> a : adapterOf.entrySet()) {
          m.put(a.getKey(), map(e.index().dense(a.getValue().apply(qn), all, DEPTH), o.toolOfOrd()));
        }
        return m;
      });
      SweepSet.Fetched<Map<String, List<H>>> bge = set.fetch(engines, work, BGE, pool, o -> (e, all, query) -> Map.of(
          "bge", map(e.index().dense(e.model().embedQuery(query.text()), all, DEPTH), o.toolOfOrd()),
          "bgei", map(e.index().dense(bgei.embedQuery(query.text()), all, DEPTH), o.toolOfOrd())));
      List<Map<String, List<H>>> lists = new ArrayList<>();
      for (int i = 0; i < set.queries().size(); i++) {
        Map<String, List<H>> m = new HashMap<>(mini.perQuery().get(i));
        m.putAll(bge.perQuery().get(i));
        lists.add(m);
      }
      loaded.add(setData(set, lists));
      System.err.printf(Locale.ROOT, "loaded %s (%d queries) in %.0f s%n", set.label(), set.queries().size(),
          (System.nanoTime() - ts) / 1e9);
    }
    pool.shutdown();
    System.out.println(header(loaded));
    System.out.println(runHybridRanker(loaded)); // sanity: the product's own fusion of lex + mini
    for (String c : configs) {
      System.out.println(run(c, loaded));
    }
    if (latencyN > 0) {
      latency(common.datasets(), latencyN, adapterOf.isEmpty() ? null : adapterOf.values().iterator().next());
    }
  }

  /**
   * The eight sets' lists, each fetched by the set's {@code perSet} from the engine {@code engines} opens on
   * {@code model}'s eval data directory (metatool single capped at {@code mlimit}), with a progress line per set
   * on stderr.
   */
  static List<SetData> fetchAll(ProductEngineFactory engines, Path datasets, Path work, int mlimit, String model,
      Function<SweepSet, SweepSet.PerSet<Map<String, List<H>>>> perSet) throws Exception {
    List<SetData> loaded = new ArrayList<>();
    ExecutorService pool = SweepSet.pool();
    try {
      for (String[] row : SweepSet.SETS) {
        long ts = System.nanoTime();
        SweepSet set = SweepSet.load(datasets, row, mlimit);
        loaded.add(setData(set, set.fetch(engines, work, model, pool, perSet.apply(set)).perQuery()));
        System.err.printf(Locale.ROOT, "loaded %s (%d queries) in %.0f s%n", set.label(), set.queries().size(),
            (System.nanoTime() - ts) / 1e9);
      }
    } finally {
      pool.shutdown();
    }
    return loaded;
  }

  /** A set's per-query lists, in query order, with each query's gold tools. */
  static SetData setData(SweepSet set, List<Map<String, List<H>>> lists) {
    List<Q> out = new ArrayList<>();
    for (int i = 0; i < lists.size(); i++) {
      out.add(new Q(lists.get(i), set.queries().get(i).gold()));
    }
    return new SetData(set.label(), set.ids(), out);
  }

  static List<H> map(List<Hit> hits, int[] toolOfOrd) {
    List<H> out = new ArrayList<>(hits.size());
    for (Hit h : hits) {
      out.add(new H(toolOfOrd[h.ord()], h.score()));
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------- fusion

  static String header(List<SetData> sets) {
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-44s %5s %5s %5s |", "config", "R@5", "N@10",
        "C@10"));
    for (SetData s : sets) {
      head.append(String.format(Locale.ROOT, " %-11s", s.label()));
    }
    return head + " | R@5 toollens / mt-single | N@10/C@10 mean of the 7 sets other than toollens   (per set: N@10/C@10)";
  }

  /** The product's HybridRanker.fuse on lex + mini with Fusion.DEFAULT, to check {@link #fuse} against. */
  static String runHybridRanker(List<SetData> sets) {
    return score("HybridRanker.fuse(lex, mini, DEFAULT)", sets, (s, q) -> {
      List<Ranked> r = HybridRanker.fuse(hits(q.lists().get("lex")), hits(q.lists().get("mini")), Fusion.DEFAULT,
          ord -> s.ids()[ord]);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < r.size() && i < 50; i++) {
        ids.add(s.ids()[r.get(i).ord()]);
      }
      return ids;
    });
  }

  static List<Hit> hits(List<H> hs) {
    return hs.stream().map(h -> new Hit(h.tool(), h.score())).toList();
  }

  interface Ranker {
    List<String> rank(SetData s, Q q);
  }

  static String run(String config, List<SetData> sets) {
    Map<String, Double> weights = new LinkedHashMap<>();
    boolean adaptive = true;
    for (String kv : config.split(",")) {
      if (kv.equals("fixed")) {
        adaptive = false;
        continue;
      }
      String[] p = kv.split("=", 2);
      weights.put(p[0], Double.parseDouble(p[1]));
    }
    double sum = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    List<String> names = new ArrayList<>(weights.keySet());
    double[] w = new double[names.size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = weights.get(names.get(i)) / sum;
    }
    boolean ad = adaptive;
    return score(config, sets, (s, q) -> {
      List<List<H>> ls = new ArrayList<>();
      for (String n : names) {
        List<H> l = q.lists().get(n);
        if (l == null) {
          throw new IllegalArgumentException("unknown list '" + n + "' in: " + config);
        }
        ls.add(l);
      }
      return fuse(ls, w, ad, s.ids());
    });
  }

  static String score(String label, List<SetData> sets, Ranker ranker) {
    double r5 = 0;
    double n10 = 0;
    double c10 = 0;
    StringBuilder per = new StringBuilder();
    double[] r5Of = new double[sets.size()];
    double oodN = 0;
    double oodC = 0;
    int si = 0;
    for (SetData s : sets) {
      SweepSet.Score score = new SweepSet.Score();
      for (Q q : s.queries()) {
        score.add(ranker.rank(s, q), q.gold());
      }
      double[] x = score.percent();
      r5 += x[0] / sets.size();
      n10 += x[1] / sets.size();
      c10 += x[2] / sets.size();
      r5Of[si++] = x[0];
      if (!s.label().equals("toollens")) {
        oodN += x[1] / (sets.size() - 1);
        oodC += x[2] / (sets.size() - 1);
      }
      per.append(String.format(Locale.ROOT, " %5.1f/%5.1f", x[1], x[2]));
    }
    return String.format(Locale.ROOT, "%-44s %5.1f %5.1f %5.1f |", label, r5, n10, c10) + per
        + String.format(Locale.ROOT, " | %5.1f / %5.1f | %5.1f/%5.1f", r5Of[0], r5Of.length > 1 ? r5Of[1] : 0, oodN,
            oodC);
  }

  /**
   * Z-score fusion of any number of lists, as {@link HybridRanker#fuse} does for two: each list standardized
   * over its top {@link Fusion#Z_WINDOW}; a tool missing from a list takes that list's lowest standardized
   * score (at most 0); with {@code adaptive}, weight i becomes {@code w_i c_i / sum_j w_j c_j}, c being the
   * standardized score of the list's best hit floored at 0 (the weights as given when every list has fewer
   * than 2 hits or all c are 0). Ties by tool id. Returns the top 50 ids.
   */
  static List<String> fuse(List<List<H>> lists, double[] w, boolean adaptive, String[] ids) {
    int k = lists.size();
    double[][] z = new double[k][];
    double[] miss = new double[k];
    double[] conf = new double[k];
    boolean allLong = true;
    for (int i = 0; i < k; i++) {
      List<H> l = lists.get(i);
      int n = l.size();
      z[i] = new double[n];
      if (n < 2) {
        allLong = false;
      }
      if (n == 0) {
        continue;
      }
      int win = Math.min(n, Fusion.Z_WINDOW);
      double sum = 0;
      for (int j = 0; j < win; j++) {
        sum += l.get(j).score();
      }
      double mean = sum / win;
      double var = 0;
      for (int j = 0; j < win; j++) {
        double d = l.get(j).score() - mean;
        var += d * d;
      }
      double sd = Math.sqrt(var / win);
      double m = 0;
      for (int j = 0; j < n; j++) {
        z[i][j] = sd > 1e-9 ? (l.get(j).score() - mean) / sd : 1;
        m = Math.min(m, z[i][j]);
      }
      miss[i] = m;
      conf[i] = Math.max(0, z[i][0]);
    }
    double[] wt = w.clone();
    if (adaptive && allLong) {
      double den = 0;
      for (int i = 0; i < k; i++) {
        den += w[i] * conf[i];
      }
      if (den > 1e-9) {
        for (int i = 0; i < k; i++) {
          wt[i] = w[i] * conf[i] / den;
        }
      }
    }
    Map<Integer, double[]> acc = new HashMap<>();
    for (int i = 0; i < k; i++) {
      List<H> l = lists.get(i);
      for (int j = 0; j < l.size(); j++) {
        double[] a = acc.computeIfAbsent(l.get(j).tool(), t -> {
          double[] v = new double[k];
          Arrays.fill(v, Double.NaN);
          return v;
        });
        a[i] = z[i][j];
      }
    }
    List<double[]> scored = new ArrayList<>(acc.size()); // {tool, score}
    acc.forEach((tool, a) -> {
      double sc = 0;
      for (int i = 0; i < k; i++) {
        sc += wt[i] * (Double.isNaN(a[i]) ? miss[i] : a[i]);
      }
      scored.add(new double[] {tool, sc});
    });
    scored.sort((x, y) -> {
      int c = Double.compare(y[1], x[1]);
      return c != 0 ? c : ids[(int) x[0]].compareTo(ids[(int) y[0]]);
    });
    List<String> out = new ArrayList<>(50);
    for (int i = 0; i < scored.size() && i < 50; i++) {
      out.add(ids[(int) scored.get(i)[0]]);
    }
    return out;
  }

  // --------------------------------------------------------------------------------------------- latency

  /** embedQuery wall time per model on the first n ToolLens test queries, interleaved, after 50 warm-up. */
  static void latency(Path datasets, int n, QueryAdapter adapter) {
    NormalizedDataset ds = NormalizedDataset.read(datasets.resolve("toollens").resolve("normalized"));
    List<ScoredQuery> qs = ds.scoredQueries("qrels.test.tsv");
    String[] ids = {MINI, BGE, BGEI};
    EmbeddingModel[] models = new EmbeddingModel[ids.length];
    for (int m = 0; m < ids.length; m++) {
      models[m] = LocalEmbeddingModels.createPlain(ids[m]);
    }
    double[][] t = new double[ids.length + 1][n];
    for (int i = 0; i < 50 + n; i++) {
      String text = qs.get(i % qs.size()).text();
      for (int m = 0; m < ids.length; m++) {
        long t0 = System.nanoTime();
        float[] v = models[m].embedQuery(text);
        if (i >= 50) {
          t[m][i - 50] = (System.nanoTime() - t0) / 1e6;
        }
        if (m == 0 && adapter != null) {
          long t1 = System.nanoTime();
          adapter.apply(v);
          if (i >= 50) {
            t[ids.length][i - 50] = (System.nanoTime() - t1) / 1e6;
          }
        }
      }
    }
    for (int m = 0; m <= ids.length; m++) {
      if (m == ids.length && adapter == null) {
        break;
      }
      System.out.printf(Locale.ROOT, "latency %-30s p50 %6.2f ms  p90 %6.2f ms  p99 %6.2f ms (%d queries)%n",
          m < ids.length ? "embedQuery " + ids[m] : "adapter (384x384 matvec)", Metrics.percentile(t[m], 50),
          Metrics.percentile(t[m], 90), Metrics.percentile(t[m], 99), n);
    }
  }
}
