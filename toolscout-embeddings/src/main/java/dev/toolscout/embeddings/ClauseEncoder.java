package dev.toolscout.embeddings;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 * over the rest of the message (from the first clause not read yet), so a long message costs about its own
 * length in tokens, where embedding its clauses alone cost about twice that. A clause gets no vector here
 * ({@code null}, so the caller embeds it alone) when it is no substring of the message (a clause {@code
 * QueryClauses} joined from two), when it is longer than one call reads, or when the message's tokens do not
 * map back to its characters. Thread-safe: the ONNX session and the tokenizer are.
 */
final class ClauseEncoder {
  /** The longest token sequence one call takes; LangChain4j splits a longer text into windows. */
  static final int MODEL_WINDOW = 512;

  /** At most this many model calls per message: the first reads the message, the others its later clauses. */
  static final int MAX_CALLS = 8;



  private final OrtEnvironment env;
  private final OrtSession session;
  private final HuggingFaceTokenizer tokenizer;
  private final boolean tokenTypes;

  /** @param tokenizer made as LangChain4j makes its own (padding off), from the same tokenizer file */
  ClauseEncoder(OrtEnvironment env, OrtSession session, HuggingFaceTokenizer tokenizer) {
    this.env = env;
    this.session = session;
    this.tokenizer = tokenizer;
    this.tokenTypes = session.getInputNames().contains("token_type_ids");
  }

  /**
   * The message's vector, then one per clause in order ({@code null} where the clause cannot be read from the
   * message's tokens); not normalized beyond what LangChain4j does. Returns {@code null} instead when the message
   * itself is longer than one window (LangChain4j averages several calls then; the caller embeds everything
   * alone).
   */
  float[][] embed(String message, List<String> clauses) {
    long[] ids = idsAsLangChain4j(message);
    if (ids == null) {
      return null;
    }
    float[][] states = run(ids);
    float[][] out = new float[clauses.size() + 1][];
    out[0] = normalize(mean(states, 0, states.length));
    if (clauses.isEmpty()) {
      return out;
    }
    Encoding direct = tokenizer.encode(message, true, false);
    if (!Arrays.equals(direct.getIds(), ids) || direct.getCharTokenSpans().length != ids.length) {
      return out; // the clauses are embedded alone
    }
    int[][] ranges = new int[clauses.size()][];
    int from = 0;
    for (int c = 0; c < clauses.size(); c++) {
      ranges[c] = locate(message, clauses.get(c), from);
      if (ranges[c] != null) {
        from = ranges[c][0] + 1;
      }
    }
    // the clauses past the tokens the first call read (the tokenizer keeps a query's first 128) are read from
    // further calls over the rest of the message, each starting at the first clause not read yet
    int pending = read(states, direct.getCharTokenSpans(), 0, ranges, out);
    for (int calls = 1; pending >= 0 && calls < MAX_CALLS; calls++) {
      int offset = ranges[pending][0];
      Encoding rest = tokenizer.encode(message.substring(offset), true, false);
      int next = read(run(rest.getIds()), rest.getCharTokenSpans(), offset, ranges, out);
      if (next == pending) {
        break; // a clause longer than a call reads: it is embedded alone, cut as it is then
      }
      pending = next;
    }
    return out;
  }

  /**
   * Reads the vectors of the clauses that one call's tokens hold whole (the call read the message from
   * {@code offset}); returns the first clause still unread, or -1.
   */
  private static int read(float[][] states, CharSpan[] spans, int offset, int[][] ranges, float[][] out) {
    int n = states.length;
    // where the tokens the model read end; the last state is the [SEP] token, which has no span
    int covered = n < 3 || spans[n - 2] == null ? -1 : offset + spans[n - 2].getEnd();
    int pending = -1;
    for (int c = 0; c < ranges.length; c++) {
      int[] r = ranges[c];
      if (r == null || out[c + 1] != null) {
        continue;
      }
      if (r[0] < offset || r[r.length - 1] > covered) {
        pending = pending < 0 && r[0] >= offset ? c : pending;
        continue;
      }
      float[] v = new float[states[0].length];
      int count = 0;
      for (int t = 1; t < n - 1; t++) {
        CharSpan s = spans[t];
        if (s != null && inside(offset + s.getStart(), offset + s.getEnd(), r)) {
          add(v, states[t]);
          count++;
        }
      }
      if (count == 0) {
        continue;
      }
      for (int j = 0; j < v.length; j++) {
        v[j] /= count;
      }
      out[c + 1] = normalize(v);
    }
    return pending;
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
   * when it is no substring of it. A clause QueryClauses joined from two (a message of more than four) is not
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
