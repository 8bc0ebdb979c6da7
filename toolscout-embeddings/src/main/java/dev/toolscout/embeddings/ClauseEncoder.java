package dev.toolscout.embeddings;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Embeds a message and its clauses with one model call: the message is encoded once, and each clause's vector
 * is the mean of the message's output token states over the clause's own tokens ("late chunking": the tokens
 * saw the whole message). The message's vector is the one LangChain4j's {@code OnnxBertBiEncoder} computes for
 * it, bit for bit: the same tokens (its tokenize, rebuild and encode steps), the same pooling, summed in the same
 * order.
 *
 * <p>Why: the clause search embedded every clause on its own, which doubled the model's work for a message of
 * several clauses (the clauses hold about as many tokens as the message, and the model's cost grows with the
 * tokens). A padded batch of the message and its clauses was measured first and cost more than separate calls
 * (37 against 22 ms per seal-tools message with its clauses, 2 cores, one intra-op thread), since every clause
 * is padded to the message's length; and the int8 model quantizes its activations over the whole batch, so a
 * text's vector depended on its neighbours (cosine down to 0.968 to the same text alone). Clause vectors read
 * from the message cost nothing beyond the message's call; their effect on quality is measured in
 * docs/BENCHMARKS.md, "Real messages".
 *
 * <p>LangChain4j's tokenizer keeps a query's first 128 tokens: the clauses past them are read from one more call
 * over the rest of the message (from the first clause not read yet), and that is all: at most {@value #MAX_CALLS}
 * calls read a message, whatever its length. A clause past what they read (a message of more than about 256
 * tokens, or a clause longer than one call reads) gets no vector ({@link #PAST}): the ranker ranks it by its words
 * alone. Before, up to eight calls read a long message, and its clauses past them were embedded alone: on
 * etom-mcp's longest requests that was three to nine calls where LangChain4j makes one (docs/BENCHMARKS.md, "Real
 * messages"). A clause that is no substring of the message (a clause {@code QueryClauses} joined from two), or
 * every clause when the message's tokens do not map back to its characters, is embedded alone, as {@code
 * embedQuery} would (the same vector, bit for bit).
 *
 * <p>These further calls (over the rest of a message, and of the clauses embedded alone) are known from the
 * tokens before the first call runs (a clause embedded alone is tokenized by the thread that runs its call), so
 * they run beside it on helper threads: on etom-mcp's level-4 requests
 * (172 tokens on average) they are 103 tokens of model work per message beside the first call's 116, which
 * made a selection cost 1.7-1.9 times LangChain4j's single call when they ran after it on one thread
 * (docs/BENCHMARKS.md, "Real messages"). A call no helper has started when the first is done is run by the
 * caller, so a machine without a free core pays what it paid before. Thread-safe: the ONNX session and the
 * tokenizer are, and a message's calls write only its own arrays.
 */
final class ClauseEncoder {
  /** The longest token sequence one call takes; LangChain4j splits a longer text into windows. */
  static final int MODEL_WINDOW = 512;

  /** At most this many model calls read a message: the first its start, the other its later clauses. */
  static final int MAX_CALLS = 2;

  /** What {@link #embed} returns for a clause past what the calls over the message read: no vector. */
  static final float[] PAST = new float[0];

  private final OrtEnvironment env;
  private final OrtSession session;
  private final HuggingFaceTokenizer tokenizer;
  private final boolean tokenTypes;
  /**
   * Runs a message's further calls beside its first: one thread per core but the caller's (at least one), made
   * when needed and ended after a second idle, daemons so they never hold the JVM open. A call no helper has
   * started is run by the caller.
   */
  private final ExecutorService helpers;

  /** @param tokenizer made as LangChain4j makes its own (padding off), from the same tokenizer file */
  ClauseEncoder(OrtEnvironment env, OrtSession session, HuggingFaceTokenizer tokenizer) {
    this.env = env;
    this.session = session;
    this.tokenizer = tokenizer;
    this.tokenTypes = session.getInputNames().contains("token_type_ids");
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), Thread.ofPlatform().name("clause-encoder-", 1).daemon(true).factory());
    pool.allowCoreThreadTimeOut(true);
    this.helpers = pool;
  }

  /**
   * The message's vector, then one per clause in order ({@code null} where the clause cannot be read here and is
   * embedded alone by the caller, {@link #PAST} where it lies past what the calls over the message read); not
   * normalized beyond what LangChain4j does. Returns {@code null} instead when the message itself is longer than
   * one window (LangChain4j averages several calls then; the caller embeds everything alone).
   *
   * <p>Every call a message needs is known from its tokens before the first one runs: the message's own (its
   * first 128 tokens), the call over the rest of it for the clauses past them, and one per clause embedded
   * alone. The first runs on the calling thread while the others are offered to {@code helpers}; whatever no
   * helper has started by the time the first is done, the caller runs itself, so a busy machine adds no wait
   * for a free core. Returns only once every call it started has ended, on every path.
   */
  float[][] embed(String message, List<String> clauses) {
    return embed(message, clauses, helpers);
  }

  /**
   * {@link #embed(String, List)} with the further calls offered to {@code executor} (a test passes one that drops
   * them: the caller then runs every call in turn).
   */
  float[][] embed(String message, List<String> clauses, Executor executor) {
    long[] ids = idsAsLangChain4j(message);
    if (ids == null) {
      return null;
    }
    float[][] out = new float[clauses.size() + 1][];
    if (clauses.isEmpty()) {
      out[0] = normalize(mean(run(ids), 0, ids.length));
      return out;
    }
    Encoding direct = tokenizer.encode(message, true, false);
    boolean mapped = Arrays.equals(direct.getIds(), ids) && direct.getCharTokenSpans().length == ids.length;
    int[][] ranges = new int[clauses.size()][];
    int from = 0;
    for (int c = 0; mapped && c < clauses.size(); c++) {
      ranges[c] = locate(message, clauses.get(c), from);
      if (ranges[c] != null) {
        from = ranges[c][0] + 1;
      }
    }
    List<Window> windows = mapped ? plan(message, direct, ranges) : List.of();
    // the clauses no window can read (joined from two, or all of them when the tokens do not map back to the
    // characters) are embedded alone, each by a call of its own
    boolean[] read = new boolean[clauses.size()];
    windows.forEach(w -> w.clauses().forEach(c -> read[c] = true));
    for (int c = 0; mapped && c < clauses.size(); c++) {
      if (!read[c] && ranges[c] != null) {
        read[c] = true;
        out[c + 1] = PAST;
      }
    }
    List<FutureTask<Runnable>> further = new ArrayList<>();
    for (int w = 1; w < windows.size(); w++) {
      Window window = windows.get(w);
      further.add(new FutureTask<>(() -> {
        float[][] states = run(window.encoding().getIds());
        return () -> read(states, window, ranges, out);
      }));
    }
    for (int c = 0; c < clauses.size(); c++) {
      if (!read[c]) {
        // tokenized by whoever runs the call, not before the message's own call starts
        String clause = clauses.get(c);
        int slot = c + 1;
        further.add(new FutureTask<>(() -> {
          long[] alone = idsAsLangChain4j(clause);
          if (alone == null) {
            return () -> {}; // longer than a window: the caller embeds it as LangChain4j does
          }
          float[] v = normalize(mean(run(alone), 0, alone.length));
          return () -> out[slot] = v;
        }));
      }
    }
    further.forEach(executor::execute);
    List<Runnable> results = new ArrayList<>(further.size());
    RuntimeException failure = null;
    try {
      float[][] states = run(ids);
      out[0] = normalize(mean(states, 0, states.length));
      if (!windows.isEmpty()) {
        read(states, windows.get(0), ranges, out);
      }
    } catch (RuntimeException e) {
      failure = e;
    }
    // the calls no helper has started run here, from the last (a helper takes them from the first); then every
    // one is waited for, also after a failure: no call of this message may still be in the model when it returns
    for (int i = further.size() - 1; i >= 0; i--) {
      further.get(i).run();
    }
    boolean interrupted = false;
    for (FutureTask<Runnable> f : further) {
      while (true) {
        try {
          results.add(f.get());
          break;
        } catch (ExecutionException e) {
          if (failure == null) {
            failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
          }
          break;
        } catch (InterruptedException e) {
          // keep waiting: a helper may still be in the model's native code for this message
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      throw failure;
    }
    // on this thread: the vectors land in {@code out} in a fixed order, whoever computed them
    results.forEach(Runnable::run);
    return out;
  }

  /**
   * One model call over the message from {@code offset}, and the clauses (indexes) whose vectors are read from
   * it.
   */
  private record Window(int offset, Encoding encoding, List<Integer> clauses) {}

  /**
   * The calls that read the located clauses: the message's own first, then, while a clause lies past the tokens
   * the last call read (the tokenizer keeps a query's first 128), one over the rest of the message from the first
   * such clause, at most {@link #MAX_CALLS} in all. A clause longer than a call reads ends the plan: it and the
   * clauses after it are past what the calls read.
   */
  private List<Window> plan(String message, Encoding direct, int[][] ranges) {
    List<Window> windows = new ArrayList<>();
    boolean[] held = new boolean[ranges.length];
    int offset = 0;
    Encoding e = direct;
    while (true) {
      int covered = covered(e, offset);
      List<Integer> here = new ArrayList<>();
      int pending = -1;
      for (int c = 0; c < ranges.length; c++) {
        int[] r = ranges[c];
        if (r == null || held[c] || r[0] < offset) {
          continue;
        }
        if (r[1] <= covered) {
          held[c] = true;
          here.add(c);
        } else if (pending < 0) {
          pending = c;
        }
      }
      if (here.isEmpty() && offset > 0) {
        // the call over the rest does not hold even its first clause: it is longer than a call reads
        return windows;
      }
      windows.add(new Window(offset, e, here));
      if (pending < 0 || windows.size() >= MAX_CALLS || ranges[pending][0] <= offset) {
        // (the last: the clause that starts where this call started is longer than a call reads; a call from
        // there again would read the same tokens, as every call after it would)
        return windows;
      }
      offset = ranges[pending][0];
      e = tokenizer.encode(message.substring(offset), true, false);
    }
  }

  /** Where the characters one call read end (the last token is [SEP], which has no span); -1 for none. */
  private static int covered(Encoding e, int offset) {
    CharSpan[] spans = e.getCharTokenSpans();
    int n = spans.length;
    return n < 3 || spans[n - 2] == null ? -1 : offset + spans[n - 2].getEnd();
  }

  /** Reads the vectors of the clauses {@code window} holds from its call's token states. */
  private static void read(float[][] states, Window window, int[][] ranges, float[][] out) {
    CharSpan[] spans = window.encoding().getCharTokenSpans();
    int n = states.length;
    for (int c : window.clauses()) {
      float[] v = new float[states[0].length];
      int count = 0;
      for (int t = 1; t < n - 1; t++) {
        CharSpan s = spans[t];
        if (s != null && inside(window.offset() + s.getStart(), window.offset() + s.getEnd(), ranges[c])) {
          add(v, states[t]);
          count++;
        }
      }
      if (count == 0) {
        continue; // no token lies inside it: embedded alone by the caller
      }
      for (int j = 0; j < v.length; j++) {
        v[j] /= count;
      }
      out[c + 1] = normalize(v);
    }
  }

  private static boolean inside(int start, int end, int[] ranges) {
    for (int i = 0; i < ranges.length; i += 2) {
      if (start >= ranges[i] && end <= ranges[i + 1]) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where {@code clause} lies in {@code message}, at or after {@code from}, as {@code [start, end)}; {@code null}
   * when it is no substring of it. A clause QueryClauses joined from two (a message of more than eight) is not
   * read from its pieces: measured on seal-tools, whose requests chain many steps, reading such clauses from the
   * message cost 1.3 points of C@10 more than embedding them alone (docs/BENCHMARKS.md, "Real messages").
   */
  static int[] locate(String message, String clause, int from) {
    int at = message.indexOf(clause, from);
    return at < 0 ? null : new int[] {at, at + clause.length()};
  }

  /**
   * The ids LangChain4j feeds the model for {@code text}: its tokens (truncated as the tokenizer file says),
   * rebuilt to a sentence and encoded again when that gives the same tokens, else the tokens joined; {@code
   * null} when they need more than one window.
   */
  private long[] idsAsLangChain4j(String text) {
    List<String> tokens = tokenizer.tokenize(text);
    if (tokens.size() > MODEL_WINDOW) {
      return null;
    }
    List<String> inner = tokens.subList(1, tokens.size() - 1);
    String rebuilt = tokenizer.buildSentence(inner);
    List<String> again = tokenizer.tokenize(rebuilt);
    String encoded = again.size() >= 2 && again.subList(1, again.size() - 1).equals(inner)
        ? rebuilt : String.join("", inner);
    return tokenizer.encode(encoded, true, false).getIds();
  }

  private float[][] run(long[] ids) {
    long[] shape = {1, ids.length};
    long[] mask = new long[ids.length];
    Arrays.fill(mask, 1);
    try (OnnxTensor idT = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
        OnnxTensor maskT = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
        OnnxTensor typeT = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[ids.length]), shape)) {
      Map<String, OnnxTensor> in = new HashMap<>();
      in.put("input_ids", idT);
      in.put("attention_mask", maskT);
      if (tokenTypes) {
        in.put("token_type_ids", typeT);
      }
      try (OrtSession.Result r = session.run(in)) {
        return ((float[][][]) r.get(0).getValue())[0];
      }
    } catch (OrtException e) {
      throw new IllegalStateException("the embedding model failed on a query of " + ids.length + " tokens: " + e, e);
    }
  }

  /** LangChain4j's mean pooling: float sums in row order, then divided by the count. */
  private static float[] mean(float[][] states, int from, int to) {
    float[] v = new float[states[0].length];
    for (int t = from; t < to; t++) {
      add(v, states[t]);
    }
    for (int j = 0; j < v.length; j++) {
      v[j] /= to - from;
    }
    return v;
  }

  private static void add(float[] acc, float[] row) {
    for (int j = 0; j < acc.length; j++) {
      acc[j] += row[j];
    }
  }

  /** LangChain4j's normalization, in float as it does it. */
  private static float[] normalize(float[] v) {
    float sum = 0;
    for (float x : v) {
      sum += x * x;
    }
    float norm = (float) Math.sqrt(sum);
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] / norm;
    }
    return out;
  }
}
