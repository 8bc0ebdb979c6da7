package dev.toolscout.bench.eval;

import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.embeddings.QueryText;
import dev.toolscout.index.Hit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluation experiment (not product code): does the embedding model see a request better with its values
 * taken out? For each query of the eight development sets it fetches the product's BM25 list once and one
 * adapted dense list per variant of the text given to the embedder ({@link #VARIANTS}: as is; words made only
 * of digits dropped; every word holding a digit dropped; numbers replaced by {@code number}; quoted spans
 * dropped or replaced by {@code value}; courtesy phrases dropped; words with digits and runs of symbols
 * dropped; then {@link #MIX}es of the first two vectors), and scores the product's whole-message fusion
 * ({@value #DEPTH} deep, no clause search) of each. The variant is applied before the product's {@code
 * embedQuery}, which since the number-free query (docs/EVALUATION.md) drops numbers itself, so at that
 * commit and later the first two rows coincide.
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.server.EvalTools QueryTextSweep DATASETS WORK METATOOL_LIMIT
 * </pre>
 */
public final class QueryTextSweep {
  static final int DEPTH = 50;
  static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;

  /** A quoted span: straight or curly quotes, at most 60 characters, not an apostrophe inside a word. */
  static final String QUOTED = "(?<![\\p{L}\\p{N}])(['\"\u2018\u201c])"
      + "[^'\"\u2018\u2019\u201c\u201d]{1,60}['\"\u2019\u201d](?![\\p{L}\\p{N}])";

  /** Request courtesy that says nothing about the tool: "can you please", "I need to", "help me". */
  static final Pattern COURTESY = Pattern.compile(
      "\\b(?:(?:can|could|would|will) you(?: please)?(?: help me)?|please"
          + "|i (?:would like|want|need|'d like)(?: you)?(?: to)?"
          + "|help me(?: to)?|hi|hello|hey|thanks|thank you)\\b",
      Pattern.CASE_INSENSITIVE);

  /** The variants of the embedded text, by label. */
  static final Map<String, UnaryOperator<String>> VARIANTS = new LinkedHashMap<>();

  static {
    VARIANTS.put("as-is", s -> s);
    VARIANTS.put("no-digit-words", QueryText::withoutNumbers);
    VARIANTS.put("no-words-with-digits", s -> squeeze(s, s.replaceAll("\\S*\\d\\S*", " ")));
    VARIANTS.put("digits-as-number",
        s -> squeeze(s, QueryText.NUMBER.matcher(s).replaceAll("number")));
    VARIANTS.put("digits-as-xyz", QueryTextSweep::numbersAsVariables);
    VARIANTS.put("no-quoted", s -> squeeze(s, QueryText.withoutNumbers(s).replaceAll(QUOTED, " ")));
    VARIANTS.put("quoted-as-value", s -> squeeze(s, QueryText.withoutNumbers(s).replaceAll(QUOTED, " value ")));
    VARIANTS.put("no-courtesy", s -> squeeze(s, COURTESY.matcher(s).replaceAll(" ")));
    VARIANTS.put("no-digits-no-symbols",
        s -> squeeze(s, s.replaceAll("\\S*\\d\\S*", " ").replaceAll("(?:[^\\p{L}\\p{N}\\s]\\s*){3,}", " ")));
  }

  /**
   * Each number replaced by a variable, {@code x}, {@code y}, {@code z} in turn: "696 times 889" becomes "x times
   * y".
   */
  static String numbersAsVariables(String s) {
    Matcher m = QueryText.NUMBER.matcher(s);
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (m.find()) {
      m.appendReplacement(out, String.valueOf("xyz".charAt(i++ % 3)));
    }
    m.appendTail(out);
    return squeeze(s, out.toString());
  }

  /** Weights of the as-is vector in mixes of it and the no-digit-words vector. */
  static final double[] MIX = {0.5, 0.3};

  static float[] mix(float[] a, float[] b, double wa) {
    float[] out = new float[a.length];
    double n = 0;
    for (int i = 0; i < a.length; i++) {
      out[i] = (float) (wa * a[i] + (1 - wa) * b[i]);
      n += out[i] * out[i];
    }
    float inv = (float) (1 / Math.sqrt(n));
    for (int i = 0; i < a.length; i++) {
      out[i] *= inv;
    }
    return out;
  }

  /** {@code changed} with single spaces, or {@code original} when no letter is left. */
  private static String squeeze(String original, String changed) {
    String t = changed.replaceAll("\\s+", " ").trim();
    return t.chars().anyMatch(Character::isLetter) ? t : original;
  }

  record Q(List<Hit> lex, List<List<Hit>> dense, Set<String> gold) {}

  /**
   * Runs this sweep on the product's engines that {@code engines} opens (the server's launcher, {@code
   * dev.toolscout.server.EvalTools}, passes its own); {@code args} as in the class comment.
   */
  public static void run(ProductEngineFactory engines, String... args) throws Exception {
    SweepSet.Args common = SweepSet.Args.parse("QueryTextSweep", args);
    List<String> labels = new ArrayList<>(VARIANTS.keySet());
    List<UnaryOperator<String>> ops = new ArrayList<>(VARIANTS.values());
    for (double w : MIX) {
      labels.add("mix " + w);
    }
    Map<String, double[][]> results = new LinkedHashMap<>();
    ExecutorService pool = SweepSet.pool();
    for (String[] row : SweepSet.SETS) {
      SweepSet set = SweepSet.load(common.datasets(), row, common.mlimit());
      SweepSet.Fetched<Q> f = set.fetch(engines, common.work(), MINI, pool, (e, all, q) -> {
        String text = q.text();
        List<List<Hit>> dense = new ArrayList<>();
        List<float[]> vs = new ArrayList<>();
        for (UnaryOperator<String> op : ops) {
          String t = op.apply(text);
          float[] v = t.equals(text) && !vs.isEmpty() ? vs.get(0) : e.model().embedQuery(t);
          vs.add(v);
          dense.add(e.index().dense(v, all, DEPTH));
        }
        for (double w : MIX) {
          dense.add(e.index().dense(mix(vs.get(0), vs.get(1), w), all, DEPTH));
        }
        return new Q(e.index().lexical(text, all, DEPTH), dense, q.gold());
      });
      int[] toolOfOrd = f.toolOfOrd();
      List<Q> out = f.perQuery();
      String[] ids = set.ids();
      double[][] row2 = new double[labels.size()][];
      for (int v = 0; v < labels.size(); v++) {
        SweepSet.Score score = new SweepSet.Score();
        for (Q q : out) {
          SweepSet.scoreFused(score, q.lex(), q.dense().get(v), ids, toolOfOrd, q.gold());
        }
        row2[v] = score.percent();
      }
      results.put(set.label(), row2);
      System.out.println(set.label() + " done");
    }
    pool.shutdown();
    SweepSet.printRows(labels, results, 22);
  }
}
