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
 * <p>LangChain4j's tokenizer keeps a query's first 128 tokens, and one call reads them: a clause that ends past
 * them (a message of more than 128 tokens) gets no vector ({@link #PAST}), and the ranker ranks it by its words
 * alone. So a message costs the model what it costs LangChain4j, whatever its length. A second call over the rest
 * of a long message was measured and removed: it changed no quality beyond noise on nine sets (etom-mcp level 4,
 * whose requests average 172 tokens: N@10 +0.47 without it, 2SE 1.40) and cost a third of the p99
 * (docs/BENCHMARKS.md, "Real messages"). A clause that is no substring of the message (a clause {@code
 * QueryClauses} joined from two), or every clause when the message's tokens do not map back to its characters, is
 * embedded alone, as {@code embedQuery} would (the same vector, bit for bit).
 *
 * <p>The calls of the clauses embedded alone are known from the tokens before the message's call runs (each is
 * tokenized by the thread that runs it), so they run beside it on helper threads. A call no helper has started
 * when the message's is done is run by the caller, so a machine without a free core pays what it paid before.
 * Thread-safe: the ONNX session and the tokenizer are, and a message's calls write only its own arrays.
 */
final class ClauseEncoder {
    /** The longest token sequence one call takes; LangChain4j splits a longer text into windows. */
    static final int MODEL_WINDOW = 512;

    /** What {@link #embed} returns for a clause past what the message's call reads: no vector. */
    static final float[] PAST = new float[0];

    private final OrtEnvironment env;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean tokenTypes;
    /**
     * Runs the calls of a message's clauses embedded alone beside the message's: one thread per core but the
     * caller's (at least one), made when needed and ended after a second idle, daemons so they never hold the JVM
     * open. A call no helper has started is run by the caller.
     */
    private final ExecutorService helpers;

    /** @param tokenizer made as LangChain4j makes its own (padding off), from the same tokenizer file */
    ClauseEncoder(OrtEnvironment env, OrtSession session, HuggingFaceTokenizer tokenizer) {
        this.env = env;
        this.session = session;
        this.tokenizer = tokenizer;
        this.tokenTypes = session.getInputNames().contains("token_type_ids");
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                threads,
                threads,
                1,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                Thread.ofPlatform().name("clause-encoder-", 1).daemon(true).factory());
        pool.allowCoreThreadTimeOut(true);
        this.helpers = pool;
    }

    /**
     * The message's vector, then one per clause in order ({@code null} where the clause cannot be read here and is
     * embedded alone by the caller, {@link #PAST} where it ends past what the message's call reads); not normalized
     * beyond what LangChain4j does. Returns {@code null} instead when the message itself is longer than one window
     * (LangChain4j averages several calls then; the caller embeds everything alone).
     *
     * <p>The message's call (its first 128 tokens) runs on the calling thread while the calls of the clauses
     * embedded alone are offered to {@code helpers}; whatever no helper has started by the time the message's is
     * done, the caller runs itself, so a busy machine adds no wait for a free core. Returns only once every call it
     * started has ended, on every path.
     */
    float[][] embed(String message, List<String> clauses) {
        return embed(message, clauses, helpers);
    }

    /**
     * {@link #embed(String, List)} with the calls of the clauses embedded alone offered to {@code executor} (a test
     * passes one that drops them: the caller then runs every call in turn).
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
        // the clauses the message's call reads, whole; the others it holds end past its 128 tokens: no vector. Those
        // that are no substring of it (joined from two, or all when the tokens do not map back to the characters)
        // are embedded alone, each by a call of its own
        int covered = mapped ? covered(direct) : -1;
        List<Integer> inCall = new ArrayList<>();
        boolean[] read = new boolean[clauses.size()];
        for (int c = 0; mapped && c < clauses.size(); c++) {
            if (ranges[c] != null) {
                read[c] = true;
                if (ranges[c][1] <= covered) {
                    inCall.add(c);
                } else {
                    out[c + 1] = PAST;
                }
            }
        }
        List<FutureTask<Runnable>> further = new ArrayList<>();
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
            read(states, direct, inCall, ranges, out);
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
                        failure = e.getCause() instanceof RuntimeException r
                                ? r
                                : new IllegalStateException(e.getCause());
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

    /** Where the characters the call read end (the last token is [SEP], which has no span); -1 for none. */
    private static int covered(Encoding e) {
        CharSpan[] spans = e.getCharTokenSpans();
        int n = spans.length;
        return n < 3 || spans[n - 2] == null ? -1 : spans[n - 2].getEnd();
    }

    /** Reads the vectors of {@code clauses} (indexes) from the message's token states. */
    private static void read(float[][] states, Encoding e, List<Integer> clauses, int[][] ranges, float[][] out) {
        CharSpan[] spans = e.getCharTokenSpans();
        int n = states.length;
        for (int c : clauses) {
            float[] v = new float[states[0].length];
            int count = 0;
            for (int t = 1; t < n - 1; t++) {
                CharSpan s = spans[t];
                if (s != null && inside(s.getStart(), s.getEnd(), ranges[c])) {
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
                ? rebuilt
                : String.join("", inner);
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
            throw new IllegalStateException(
                    "the embedding model failed on a query of " + ids.length + " tokens: " + e, e);
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
