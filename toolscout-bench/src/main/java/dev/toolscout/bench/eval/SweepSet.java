package dev.toolscout.bench.eval;

import dev.toolscout.bench.dataset.DatasetTool;
import dev.toolscout.bench.dataset.NormalizedDataset;
import dev.toolscout.bench.dataset.ScoredQuery;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.index.AllowedSet;
import dev.toolscout.index.Hit;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Ranked;
import dev.toolscout.selection.SelectorConfig;
import dev.toolscout.model.Principal;
import dev.toolscout.index.ToolText;
import dev.toolscout.model.Hashing;
import dev.toolscout.store.SqliteStateStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One development set as the sweep tools (the {@code *Sweep} classes of this package) read it: its queries
 * (metatool single capped while tuning), its tools as catalog specs, and the dataset id of each tool.
 *
 * @param dir the set's {@code normalized} folder (the eval data directory is keyed by it)
 * @param ids the dataset id of each tool, in dataset order
 * @param toolOfName the dataset index of each tool, by catalog name
 */
record SweepSet(
    String label, Path dir, List<ScoredQuery> queries, List<ToolSpec> specs, String[] ids,
    Map<String, Integer> toolOfName) {

  /**
   * The three arguments every sweep starts with: the datasets root, the work folder of the eval data
   * directories, and how many metatool single queries to keep (0 for all); then the sweep's own.
   */
  record Args(Path datasets, Path work, int mlimit, List<String> rest) {
    /** Reads {@code args} for {@code sweep}; a missing or malformed one gets a message naming it. */
    static Args parse(String sweep, String... args) {
      if (args.length < 3) {
        throw new IllegalArgumentException(sweep + " needs DATASETS WORK METATOOL_LIMIT first, got "
            + args.length + " argument(s): " + Arrays.toString(args));
      }
      int mlimit;
      try {
        mlimit = Integer.parseInt(args[2]);
      } catch (NumberFormatException e) {
        mlimit = -1;
      }
      if (mlimit < 0) {
        throw new IllegalArgumentException(
            sweep + ": METATOOL_LIMIT must be a whole number >= 0 (0 keeps every query), got: '" + args[2] + "'");
      }
      return new Args(Path.of(args[0]), Path.of(args[1]), mlimit, List.of(args).subList(3, args.length));
    }
  }

  /** The eight development sets: label, folder under the datasets root, qrels file. */
  static final String[][] SETS = {
    {"toollens", "toollens", "qrels.test.tsv"},
    {"mt-single", "metatool-toole", "qrels.single.tsv"},
    {"mt-multi", "metatool-toole", "qrels.multi.tsv"},
    {"seal-ood", "seal-tools", "qrels.test_out_domain.tsv"},
    {"apibank", "toolret-subsets-via-mftr/apibank", "qrels.tsv"},
    {"apigen", "toolret-subsets-via-mftr/apigen", "qrels.tsv"},
    {"gorilla", "toolret-subsets-via-mftr/gorilla-huggingface", "qrels.tsv"},
    {"toolink", "toolret-subsets-via-mftr/toolink", "qrels.tsv"},
  };

  /** Reads one row of {@link #SETS}; metatool single keeps its first {@code mlimit} queries when positive. */
  static SweepSet load(Path datasets, String[] set, int mlimit) throws IOException {
    Path dir = datasets.resolve(set[1]).resolve("normalized");
    NormalizedDataset ds = NormalizedDataset.read(dir);
    List<ScoredQuery> qs = ds.scoredQueries(set[2]);
    if (set[0].equals("mt-single") && mlimit > 0 && qs.size() > mlimit) {
      qs = qs.subList(0, mlimit);
    }
    List<ToolSpec> specs = ds.tools().stream().map(DatasetTool::spec).toList();
    String[] ids = new String[ds.tools().size()];
    Map<String, Integer> toolOfName = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      DatasetTool t = ds.tools().get(i);
      ids[i] = t.id();
      toolOfName.put(t.spec().fullName(), i);
    }
    return new SweepSet(set[0], dir, qs, specs, ids, toolOfName);
  }

  /**
   * This set's tools in the product's engine, opened by {@code engines} with the default selector configuration
   * over its eval data directory for {@code model} (what {@code toolscout eval} fills), with each catalog ordinal
   * mapped to the dataset index of its tool and everything allowed.
   */
  Opened open(ProductEngineFactory engines, Path work, String model) throws IOException {
    ProductEngine e = engines.open(EvalRunner.dataDir(work, dir, model), specs, model, SelectorConfig.DEFAULT);
    Catalog.Snapshot snap = e.catalog().snapshot();
    int max = 0;
    for (CatalogEntry c : snap.entries()) {
      max = Math.max(max, c.ord());
    }
    int[] toolOfOrd = new int[max + 1];
    Arrays.fill(toolOfOrd, -1);
    snap.entries().forEach(c -> toolOfOrd[c.ord()] = toolOfName.get(c.name()));
    return new Opened(e, toolOfOrd, e.access().allowed(snap, Principal.ANONYMOUS));
  }

  /** What a sweep fetches for one query from an open set (its lists, its vectors). */
  interface PerQuery<T> {
    T fetch(ProductEngine engine, AllowedSet all, ScoredQuery query) throws Exception;
  }

  /** A sweep's per-query data for one set, in query order, and the dataset index of each catalog ordinal. */
  record Fetched<T>(List<T> perQuery, int[] toolOfOrd) {}

  /** What a sweep prepares once per open set (vectors of its tools, say) before fetching per query. */
  interface PerSet<T> {
    PerQuery<T> prepare(Opened opened) throws Exception;
  }

  /**
   * Opens this set for {@code model} with {@code engines} ({@link #open}), runs {@code perQuery} on every query
   * on the pool's two threads ({@link QueryAdapterTrainer#parallel}) and closes the set.
   */
  <T> Fetched<T> fetch(ProductEngineFactory engines, Path work, String model, ExecutorService pool,
      PerQuery<T> perQuery) throws Exception {
    return fetch(engines, work, model, pool, opened -> perQuery);
  }

  /**
   * As {@link #fetch(ProductEngineFactory, Path, String, ExecutorService, PerQuery)}, with {@code perSet} run
   * first on the open set.
   */
  <T> Fetched<T> fetch(ProductEngineFactory engines, Path work, String model, ExecutorService pool,
      PerSet<T> perSet) throws Exception {
    List<Object> out = Arrays.asList(new Object[queries.size()]);
    try (Opened o = open(engines, work, model)) {
      PerQuery<T> perQuery = perSet.prepare(o);
      QueryAdapterTrainer.parallel(pool, queries.size(), i -> out.set(i, perQuery.fetch(o.engine(), o.all(),
          queries.get(i))));
      @SuppressWarnings("unchecked") // every element was set by perQuery
      List<T> typed = (List<T>) (List<?>) out;
      return new Fetched<>(typed, o.toolOfOrd());
    }
  }

  /**
   * The document vector the product stored for each of this set's tools under {@code model}, in dataset order,
   * from the eval data directory ({@link #open} fills it).
   *
   * @throws IllegalStateException when a tool has no stored vector (the set was not opened for this model)
   */
  float[][] storedVectors(Path work, String model) {
    List<String> hashes = specs.stream().map(s -> Hashing.sha256Hex(ToolText.embeddingText(s))).toList();
    try (SqliteStateStore st = SqliteStateStore.open(EvalRunner.dataDir(work, dir, model).resolve("state.db"))) {
      Map<String, float[]> byHash = st.loadVectors(model, hashes);
      float[][] out = new float[ids.length][];
      for (int t = 0; t < out.length; t++) {
        out[t] = byHash.get(hashes.get(t));
        if (out[t] == null) {
          throw new IllegalStateException("no stored " + model + " vector for tool " + ids[t] + " of " + label);
        }
      }
      return out;
    }
  }

  /** Two worker threads for the sweeps; daemons, so a failure ends the run instead of waiting on an idle pool. */
  static ExecutorService pool() {
    return Executors.newFixedThreadPool(2, r -> Thread.ofPlatform().daemon().unstarted(r));
  }

  /** An open set: close it to close the engine. */
  record Opened(ProductEngine engine, int[] toolOfOrd, AllowedSet all) implements AutoCloseable {
    @Override
    public void close() {
      engine.close();
    }
  }

  /**
   * Adds one query to {@code score}: its lists fused as the product fuses a whole message of several clauses
   * ({@link Fusion#DEFAULT}'s {@code alpha}; the product gives a one-clause message {@link
   * Fusion#oneClauseAlpha()} instead), the top 50 mapped to dataset ids.
   */
  static void scoreFused(Score score, List<Hit> lexical, List<Hit> dense, String[] ids, int[] toolOfOrd,
      Set<String> gold) {
    scoreFused(score, Fusion.DEFAULT, lexical, dense, ids, toolOfOrd, gold);
  }

  /** As {@link #scoreFused(Score, List, List, String[], int[], Set)} with another fusion. */
  static void scoreFused(Score score, Fusion fusion, List<Hit> lexical, List<Hit> dense, String[] ids,
      int[] toolOfOrd, Set<String> gold) {
    List<Ranked> fused = HybridRanker.fuse(lexical, dense, fusion, ord -> ids[toolOfOrd[ord]]);
    List<String> ranked = new ArrayList<>();
    for (int i = 0; i < fused.size() && i < 50; i++) {
      ranked.add(ids[toolOfOrd[fused.get(i).ord()]]);
    }
    score.add(ranked, gold);
  }

  /**
   * Prints one line per row label: each set's N@10 / C@10 ({@code results}: by set label, one {@link
   * Score#percent()} per row), then their mean over the sets other than toollens.
   */
  static void printRows(List<String> rows, Map<String, double[][]> results, int labelWidth) {
    for (int v = 0; v < rows.size(); v++) {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + labelWidth + "s", rows.get(v)));
      double n = 0;
      double c = 0;
      for (Map.Entry<String, double[][]> en : results.entrySet()) {
        double[] x = en.getValue()[v];
        if (!en.getKey().equals("toollens")) {
          n += x[1] / (results.size() - 1);
          c += x[2] / (results.size() - 1);
        }
        line.append(String.format(Locale.ROOT, " %s %5.1f/%5.1f", en.getKey(), x[1], x[2]));
      }
      line.append(String.format(Locale.ROOT, " | mean of 7: %5.1f/%5.1f", n, c));
      System.out.println(line);
    }
  }

  /** R@5, N@10 and C@10 over a set's queries, the three figures the sweeps print. Not thread-safe. */
  static final class Score {
    private final Metrics.Accumulator acc = new Metrics.Accumulator();

    void add(List<String> rankedIds, Set<String> gold) {
      acc.add(rankedIds, gold);
    }

    /** R@5, N@10, C@10 in percent. */
    double[] percent() {
      Metrics.Scores s = acc.scores();
      return new double[] {s.r5(), s.ndcg10(), s.c10()};
    }
  }
}
