package dev.toolscout.server.eval;

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
 * lists: the query as it is, and the query with the other verbs of each verb group it holds appended (so
 * "reschedule my appointment" also searches "modify update change edit set"). It scores the product's
 * whole-message fusion of each (no clause search).
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.eval.VerbSynonymSweep DATASETS WORK METATOOL_LIMIT
 * </pre>
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

  record Q(List<Hit> lex, List<Hit> lexExpanded, List<Hit> dense, Set<String> gold) {}

  static String expand(String text) {
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
    return extra.isEmpty() ? text : text + " " + String.join(" ", extra);
  }

  public static void main(String[] args) throws Exception {
    Path datasets = Path.of(args[0]);
    Path work = Path.of(args[1]);
    int mlimit = Integer.parseInt(args[2]);
    List<String> labels = List.of("as is", "verb synonyms");
    Map<String, double[][]> results = new LinkedHashMap<>();
    ExecutorService pool = SweepSet.pool();
    for (String[] row : SweepSet.SETS) {
      SweepSet set = SweepSet.load(datasets, row, mlimit);
      SweepSet.Fetched<Q> f = set.fetch(work, MINI, pool, (e, all, q) -> new Q(
          e.index().lexical(q.text(), all, DEPTH), e.index().lexical(expand(q.text()), all, DEPTH),
          e.index().dense(e.model().embedQuery(q.text()), all, DEPTH), q.gold()));
      double[][] res = new double[2][];
      for (int v = 0; v < 2; v++) {
        SweepSet.Score score = new SweepSet.Score();
        for (Q q : f.perQuery()) {
          SweepSet.scoreFused(score, v == 0 ? q.lex() : q.lexExpanded(), q.dense(), set.ids(), f.toolOfOrd(), q.gold());
        }
        res[v] = score.percent();
      }
      results.put(set.label(), res);
    }
    pool.shutdown();
    SweepSet.printRows(new ArrayList<>(labels), results, 14);
  }
}
