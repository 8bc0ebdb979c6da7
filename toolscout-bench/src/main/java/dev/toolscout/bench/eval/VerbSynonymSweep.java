package dev.toolscout.bench.eval;

import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.index.Hit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * Evaluation experiment (not product code): do tool names' action verbs need synonyms? Tool names usually start
 * with one of a few verbs (get, create, update, delete, ...) while requests say "reschedule", "cancel", "look up".
 * For each query of the eight development sets it fetches the product's adapted dense list once and two BM25
 * lists over every tool: the query as it is, and the other verbs of each verb group the query holds (so
 * "reschedule my appointment" also searches "modify update change edit set"). BM25 scores a query of optional
 * words as the sum of its words' scores, and a boost multiplies a word's score, so the query with the synonyms
 * appended at weight {@code w} scores each tool {@code lex + w * synonyms}: one row per weight from the same two
 * lists (weight 1 is the first round's "synonyms appended"). It scores the product's whole-message fusion of
 * each (no clause search).
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools VerbSynonymSweep DATASETS WORK METATOOL_LIMIT [WEIGHT...]
 * </pre>
 *
 * Weights default to 0.25, 0.5 and 1.
 */
public final class VerbSynonymSweep {
  static final int DEPTH = 50;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;

  /** Verb groups of tool names (CRUD and search), each word a synonym of the others. */
  static final List<List<String>> GROUPS = List.of(
      List.of("get", "fetch", "retrieve", "query", "show", "look", "lookup", "check", "view", "read"),
      List.of("list", "browse", "enumerate"),
      List.of("search", "find", "lookup", "locate"),
      List.of("create", "add", "new", "make", "register", "book", "schedule", "insert"),
      List.of("update", "modify", "change", "edit", "reschedule", "set", "adjust"),
      List.of("delete", "remove", "cancel", "erase", "drop"));

  record Q(List<Hit> lex, List<Hit> synonyms, List<Hit> dense, Set<String> gold) {}

  /** The other verbs of each verb group {@code text} holds, space-separated; empty when it holds none. */
  static String synonyms(String text) {
    Set<String> words = new LinkedHashSet<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
      words.add(w);
    }
    Set<String> extra = new LinkedHashSet<>();
    for (List<String> g : GROUPS) {
      for (String v : g) {
        if (words.contains(v)) {
          for (String o : g) {
            if (!words.contains(o)) {
              extra.add(o);
            }
          }
          break;
        }
      }
    }
    return String.join(" ", extra);
  }

  /** {@code lex + w * syn} per tool (a tool absent from a list scores 0 there), best {@link #DEPTH} first. */
  static List<Hit> weighted(List<Hit> lex, List<Hit> syn, float w) {
    Map<Integer, Float> sum = new LinkedHashMap<>();
    for (Hit h : lex) {
      sum.put(h.ord(), h.score());
    }
    for (Hit h : syn) {
      sum.merge(h.ord(), w * h.score(), Float::sum);
    }
    return sum.entrySet().stream()
        .map(e -> new Hit(e.getKey(), e.getValue()))
        .sorted(Hit.BEST_FIRST)
        .limit(DEPTH)
        .toList();
  }

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("VerbSynonymSweep", args);
    List<Float> weights = new ArrayList<>();
    common.rest().forEach(w -> weights.add(Float.parseFloat(w)));
    if (weights.isEmpty()) {
      weights.addAll(List.of(0.25f, 0.5f, 1f));
    }
    List<String> labels = new ArrayList<>(List.of("as is"));
    weights.forEach(w -> labels.add("synonyms x" + w));
    Map<String, double[][]> results = new LinkedHashMap<>();
    ExecutorService pool = SweepSet.pool();
    for (String[] row : SweepSet.SETS) {
      SweepSet set = SweepSet.load(common.datasets(), row, common.mlimit());
      int every = set.ids().length;
      SweepSet.Fetched<Q> f = set.fetch(engines, common.work(), MINI, pool, (e, all, q) -> {
        String syn = synonyms(q.text());
        return new Q(
            e.index().lexical(q.text(), all, every), syn.isEmpty() ? List.of() : e.index().lexical(syn, all, every),
            e.index().dense(e.model().embedQuery(q.text()), all, DEPTH), q.gold());
      });
      double[][] res = new double[labels.size()][];
      for (int v = 0; v < labels.size(); v++) {
        SweepSet.Score score = new SweepSet.Score();
        for (Q q : f.perQuery()) {
          List<Hit> lex = v == 0 ? q.lex().subList(0, Math.min(DEPTH, q.lex().size()))
              : weighted(q.lex(), q.synonyms(), weights.get(v - 1));
          SweepSet.scoreFused(score, lex, q.dense(), set.ids(), f.toolOfOrd(), q.gold());
        }
        res[v] = score.percent();
      }
      results.put(set.label(), res);
    }
    pool.shutdown();
    SweepSet.printRows(labels, results, 16);
  }
}
