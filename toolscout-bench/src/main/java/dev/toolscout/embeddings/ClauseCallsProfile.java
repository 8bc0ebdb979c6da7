package dev.toolscout.embeddings;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.eval.dataset.NormalizedDataset;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.selection.FusionAccess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a message's embedding time goes, step by step, on a dataset's own messages (issue 22): the clauses the
 * selector ranks, the tokens each kind of model call reads, and the time of each way to embed a message and
 * its clauses, timed interleaved (each round takes one message through every step, in an order rotated every
 * round):
 *
 * <ul>
 *   <li>{@code message}: the message alone, one call (LangChain4j's configuration embeds just this);
 *   <li>{@code in_turn}: the message and its clauses, the calls of the clauses embedded alone (joined from two)
 *       run after the message's on the caller's thread;
 *   <li>{@code beside}: the same calls as the product runs them, those of the clauses on helper threads.
 * </ul>
 *
 * All three give the same vectors (the run checks it). Usage: {@code scripts/bench-java.sh
 * dev.toolscout.embeddings.ClauseCallsProfile DATASET_DIR QRELS [ROUNDS]}.
 */
public final class ClauseCallsProfile {
    private ClauseCallsProfile() {}

    public static void main(String[] args) throws IOException {
        NormalizedDataset set = NormalizedDataset.read(Path.of(args[0]));
        List<String> messages = set.scoredQueries(args[1]).stream()
                .map(ScoredQuery::text)
                .distinct()
                .toList();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10 * messages.size();
        BundledOnnxModels.Loaded loaded = BundledOnnxModels.allMiniLmL6V2Quantized();
        ClauseEncoder encoder = loaded.clauses();
        EmbeddingModel plain = LocalEmbeddingModels.createPlain(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        List<List<String>> clauses =
                messages.stream().map(FusionAccess::rankedClauses).toList();
        tokens(messages, clauses);

        String[] steps = {"message", "in_turn", "beside"};
        double[][] ms = new double[steps.length][rounds];
        // CPU time of the calling thread: what the model's work costs whatever else the machine runs
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        double[][] cpu = new double[steps.length][rounds];
        int warmup = Math.min(rounds, 2 * messages.size());
        for (int round = 0; round < warmup + rounds; round++) {
            int i = round % messages.size();
            String m = messages.get(i);
            List<String> c = clauses.get(i);
            float[][][] got = new float[steps.length][][];
            for (int j = 0; j < steps.length; j++) {
                int s = (round + j) % steps.length;
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                got[s] = switch (s) {
                    case 0 -> new float[][] {plain.embedQuery(m)};
                    case 1 -> encoder.embed(m, c, r -> {});
                    default -> encoder.embed(m, c);
                };
                long t = System.nanoTime() - t0;
                if (round >= warmup) {
                    ms[s][round - warmup] = t / 1e6;
                    cpu[s][round - warmup] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
                }
            }
            if (!Arrays.deepEquals(got[1], got[2])) {
                throw new IllegalStateException("the calls beside the message's changed a vector of: " + m);
            }
        }
        System.out.printf(Locale.ROOT, "%d rounds over %d messages%n", rounds, messages.size());
        double base50 = percentile(ms[0], 50);
        double base99 = percentile(ms[0], 99);
        for (int s = 0; s < steps.length; s++) {
            double p50 = percentile(ms[s], 50);
            double p99 = percentile(ms[s], 99);
            System.out.printf(
                    Locale.ROOT,
                    "%-8s p50 %7.2f ms  p99 %7.2f ms  (x%.2f, x%.2f the message alone)%n",
                    steps[s],
                    p50,
                    p99,
                    p50 / base50,
                    p99 / base99);
        }
        // with a free core for the helper: the first call on the caller while the helper runs the others from the
        // first and the caller takes the rest from the last, so a message takes at least the longer of the first call
        // and half of all the calls, and at most the longer of the first call and the others (by their CPU)
        double[] least = new double[rounds];
        double[] most = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            least[r] = Math.max(cpu[0][r], cpu[1][r] / 2);
            most[r] = Math.max(cpu[0][r], cpu[1][r] - cpu[0][r]);
        }
        double cpu50 = percentile(cpu[0], 50);
        double cpu99 = percentile(cpu[0], 99);
        System.out.printf(
                Locale.ROOT,
                "CPU of the caller: message p50 %.2f ms p99 %.2f ms; in_turn p50 %.2f ms p99 %.2f ms"
                        + " (x%.2f, x%.2f)%n",
                cpu50,
                cpu99,
                percentile(cpu[1], 50),
                percentile(cpu[1], 99),
                percentile(cpu[1], 50) / cpu50,
                percentile(cpu[1], 99) / cpu99);
        System.out.printf(
                Locale.ROOT,
                "beside with a free core, by CPU: p50 %.2f-%.2f ms p99 %.2f-%.2f ms"
                        + " (x%.2f-%.2f, x%.2f-%.2f the message alone)%n",
                percentile(least, 50),
                percentile(most, 50),
                percentile(least, 99),
                percentile(most, 99),
                percentile(least, 50) / cpu50,
                percentile(most, 50) / cpu50,
                percentile(least, 99) / cpu99,
                percentile(most, 99) / cpu99);
    }

    /** The tokens each kind of call reads per message, as the clause encoder plans them. */
    private static void tokens(List<String> messages, List<List<String>> clauses) throws IOException {
        HuggingFaceTokenizer full;
        try (InputStream in =
                ClauseCallsProfile.class.getClassLoader().getResourceAsStream("all-minilm-l6-v2-q-tokenizer.json")) {
            full = HuggingFaceTokenizer.newInstance(
                    new ByteArrayInputStream(in.readAllBytes()), Map.of("padding", "false", "truncation", "false"));
        }
        long whole = 0;
        long first = 0;
        long alone = 0;
        int ranked = 0;
        int joined = 0;
        int past = 0;
        for (int i = 0; i < messages.size(); i++) {
            String m = messages.get(i);
            int n = full.encode(m).getIds().length;
            whole += n;
            first += Math.min(n, 128);
            int from = 0;
            for (String c : clauses.get(i)) {
                ranked++;
                int[] r = ClauseEncoder.locate(m, c, from);
                if (r == null) {
                    joined++;
                    alone += Math.min(128, full.encode(c).getIds().length);
                    continue;
                }
                from = r[0] + 1;
                if (full.encode(m.substring(0, r[1])).getIds().length > 128) {
                    past++;
                }
            }
        }
        double n = messages.size();
        System.out.printf(
                Locale.ROOT,
                "%d messages, %d clauses ranked (%d joined from two, %d ending past the first 128 tokens: no vector)%n",
                messages.size(),
                ranked,
                joined,
                past);
        System.out.printf(
                Locale.ROOT,
                "tokens per message: %.1f in all; the message's call reads %.1f, the clauses"
                        + " embedded alone %.1f (x%.2f the message's call)%n",
                whole / n,
                first / n,
                alone / n,
                (first + alone) / (double) first);
    }

    private static double percentile(double[] v, int p) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
    }
}
