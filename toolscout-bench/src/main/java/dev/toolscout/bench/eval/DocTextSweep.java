package dev.toolscout.bench.eval;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.embeddings.QueryText;
import dev.toolscout.index.Hit;
import dev.toolscout.index.ToolText;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/**
 * Evaluation experiment (not product code): other tool texts for the dense list. For each of the eight
 * development sets it re-embeds every tool with each recipe of {@link #RECIPES} (the plain MiniLM document
 * vectors; {@code current} is the product's {@link ToolText#embeddingText}), searches them exactly (every
 * vector scored, {@value #DEPTH} deep) with the product's adapted query vector, and scores the product's
 * whole-message fusion with its BM25 list (no clause search). Re-embeds about 11,000 tools per recipe.
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools DocTextSweep DATASETS WORK METATOOL_LIMIT [RECIPE ...]
 * </pre>
 */
public final class DocTextSweep {
  static final int DEPTH = 50;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;
  static final Map<String, Function<ToolSpec, String>> RECIPES = new LinkedHashMap<>();

  static {
    RECIPES.put("current", ToolText::embeddingText);
    RECIPES.put("+param-text", s -> {
      String p = ToolText.parameterText(s);
      return ToolText.nameWords(s) + ": " + s.description() + (p.isBlank() ? "" : " Parameters: " + p);
    });
    RECIPES.put("name+desc", s -> ToolText.nameWords(s) + ": " + s.description());
    RECIPES.put("desc-first", s -> s.description() + " (" + ToolText.nameWords(s) + ")");
    RECIPES.put("name. desc", s -> ToolText.nameWords(s) + ". " + s.description());
    RECIPES.put("numbers dropped", s -> QueryText.withoutNumbers(ToolText.embeddingText(s)));
  }

  record Q(List<Hit> lex, float[] v, Set<String> gold) {}

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("DocTextSweep", args);
    List<String> labels = new ArrayList<>(RECIPES.keySet());
    if (!common.rest().isEmpty()) {
      labels = common.rest();
      for (String l : labels) {
        if (!RECIPES.containsKey(l)) {
          throw new IllegalArgumentException("unknown recipe '" + l + "'; known: " + RECIPES.keySet());
        }
      }
    }
    EmbeddingModel plain = LocalEmbeddingModels.createPlain(MINI);
    Map<String, double[][]> results = new LinkedHashMap<>();
    ExecutorService pool = SweepSet.pool();
    for (String[] row : SweepSet.SETS) {
      SweepSet set = SweepSet.load(common.datasets(), row, common.mlimit());
      SweepSet.Fetched<Q> f = set.fetch(engines, common.work(), MINI, pool, (e, all, q) ->
          new Q(e.index().lexical(q.text(), all, DEPTH), e.model().embedQuery(q.text()), q.gold()));
      int[] toolOfOrd = f.toolOfOrd();
      List<Q> out = f.perQuery();
      int[] ordOfTool = new int[set.ids().length];
      for (int o = 0; o < toolOfOrd.length; o++) {
        if (toolOfOrd[o] >= 0) {
          ordOfTool[toolOfOrd[o]] = o;
        }
      }
      String[] ids = set.ids();
      double[][] res = new double[labels.size()][];
      for (int r = 0; r < labels.size(); r++) {
        Function<ToolSpec, String> recipe = RECIPES.get(labels.get(r));
        List<String> texts = set.specs().stream().map(recipe).toList();
        float[][] tv = plain.embedDocuments(texts).toArray(new float[0][]);
        SweepSet.Score score = new SweepSet.Score();
        for (Q q : out) {
          SweepSet.scoreFused(score, q.lex(), top(q.v(), tv, ordOfTool), ids, toolOfOrd, q.gold());
        }
        res[r] = score.percent();
      }
      results.put(set.label(), res);
      System.out.println(set.label() + " done");
    }
    pool.shutdown();
    SweepSet.printRows(labels, results, 14);
  }

  static List<Hit> top(float[] q, float[][] tv, int[] ordOfTool) {
    PriorityQueue<Hit> pq = new PriorityQueue<>((a, b) -> Float.compare(a.score(), b.score()));
    for (int t = 0; t < tv.length; t++) {
      pq.add(new Hit(ordOfTool[t], NameViewSweep.dot(q, tv[t])));
      if (pq.size() > DEPTH) {
        pq.poll();
      }
    }
    List<Hit> out = new ArrayList<>(pq);
    out.sort((a, b) -> Float.compare(b.score(), a.score()));
    return out;
  }
}
