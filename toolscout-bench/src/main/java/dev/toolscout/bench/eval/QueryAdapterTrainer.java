package dev.toolscout.bench.eval;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.embeddings.QueryAdapter;
import dev.toolscout.eval.Metrics;
import dev.toolscout.eval.dataset.DatasetTool;
import dev.toolscout.eval.dataset.NormalizedDataset;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.indexing.ToolText;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Trains the query adapter bundled with {@code all-minilm-l6-v2-q} and writes it as a resource of
 * toolscout-embeddings ({@link QueryAdapter} file format). Deterministic: the same data and code give the same
 * bytes (fixed shuffle seed {@value #SEED}, one thread, no timestamp in the file).
 *
 * <p>Training (the configuration of adapter {@code b} in docs/EVALUATION_HISTORY.md): a 384 x 384 matrix W, initialized
 * to the identity, trained on ToolLens {@code qrels.train.tsv} only (never the test split) with a softmax over
 * all 464 ToolLens tool vectors (temperature {@value #TAU}; a query with several gold tools contributes one term
 * per gold tool, the other gold tools masked out), mini-batch SGD (batch {@value #BATCH}) and a pull {@code
 * lambda * (W - I)} toward the identity. One train query in ten (by id hash) is held out and reported per epoch.
 * Query vectors are the plain model's ({@link LocalEmbeddingModels#createPlain}) of each query without its
 * numbers ({@link QueryText#withoutNumbers}, as the product embeds queries), cached under {@code WORK/adapter/}
 * (the file name says the recipe: delete the cache after changing {@code QueryText}); tool vectors are the
 * model's embeddings of {@link ToolText#embeddingText}, as the index stores them. At search time the query
 * vector q becomes {@code normalize(q + beta * (W - I) q)}.
 *
 * <pre>
 * java -cp toolscout.jar dev.toolscout.bench.eval.QueryAdapterTrainer DATASETS [--work DIR] [--out FILE]
 * java -cp toolscout.jar dev.toolscout.bench.eval.QueryAdapterTrainer DATASETS --latency N
 *   DATASETS  the shared datasets folder (holding toollens/normalized)
 *   --work    where the embedded train queries are cached (default: $TOOLSCOUT_DATA_DIR/eval, ~/.toolscout/eval)
 *   --out     the adapter file (default: the bundled resource,
 *             toolscout-embeddings/src/main/resources/dev/toolscout/embeddings/adapters/all-minilm-l6-v2-q.adapter)
 *   --latency N  train nothing: time embedQuery of the plain and the product (adapted) model, alternating, on N
 *             ToolLens test queries after 100 warm-up, one thread, and print the medians
 * </pre>
 *
 * <p>{@code ThreeListSweep} uses the same training code for its {@code --adapter} lists.
 */
public final class QueryAdapterTrainer {
    static final int DIM = 384;
    static final double TAU = 0.05;
    static final int BATCH = 32;
    static final long SEED = 42;
    static final String MODEL = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;

    /** Adapter {@code b} of docs/EVALUATION_HISTORY.md: the bundled default. */
    static final Params DEFAULT = new Params(0.1, 3, 0.1, 1.0);

    static final Path DEFAULT_OUT = Path.of("toolscout-embeddings", "src", "main", "resources")
            .resolve(LocalEmbeddingModels.ADAPTER_FOLDER + MODEL + ".adapter");

    /**
     * @param lambda the pull toward the identity
     * @param epochs passes over the training queries
     * @param lr the SGD learning rate
     * @param beta the scale of W - I at search time (not used in training)
     */
    record Params(double lambda, int epochs, double lr, double beta) {
        Params {
            if (!(lambda >= 0) || epochs < 1 || !(lr > 0) || !Double.isFinite(beta)) {
                throw new IllegalArgumentException(
                        "adapter parameters: lambda >= 0, epochs >= 1, lr > 0, finite beta; got: " + this);
            }
        }

        /** Adapters with the same key train to the same W. */
        String trainKey() {
            return lambda + ":" + epochs + ":" + lr;
        }
    }

    /**
     * The training data.
     *
     * @param tools the ToolLens tool vectors
     * @param x the train queries' plain vectors
     * @param gold per query, the indices of its gold tools
     * @param heldOut per query, whether it is held out of training
     * @param provenance the data files and their SHA-256, for the adapter file's header
     */
    record TrainData(float[][] tools, float[][] x, int[][] gold, boolean[] heldOut, String provenance) {}

    private QueryAdapterTrainer() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: QueryAdapterTrainer DATASETS [--work DIR] [--out FILE]");
            System.exit(2);
        }
        Path datasets = Path.of(args[0]);
        String dataDir = System.getenv("TOOLSCOUT_DATA_DIR");
        Path work = (dataDir == null || dataDir.isBlank()
                        ? Path.of(System.getProperty("user.home"), ".toolscout")
                        : Path.of(dataDir))
                .resolve("eval");
        Path out = DEFAULT_OUT;
        int latency = 0;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--work" -> work = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--latency" -> latency = Integer.parseInt(args[++i]);
                default ->
                    throw new IllegalArgumentException(
                            "unknown option '" + args[i] + "'; known: --work, --out, --latency");
            }
        }
        if (latency > 0) {
            latency(datasets, latency);
            return;
        }
        long t0 = System.nanoTime();
        TrainData td = trainData(datasets, work);
        Params p = DEFAULT;
        float[] delta = train(td, p, "default");
        String provenance = "trained by dev.toolscout.bench.eval.QueryAdapterTrainer (docs/EVALUATION.md, adapter b);"
                + " " + td.provenance() + "; objective: softmax over the toollens tools, temperature " + TAU
                + ", one term per gold tool, other gold tools masked; SGD lr " + p.lr() + ", batch " + BATCH
                + ", epochs "
                + p.epochs() + ", lambda " + p.lambda() + " (pull to identity), shuffle seed " + SEED + "; beta "
                + p.beta()
                + "; held out after training: " + heldOut(td, delta)
                + String.format(Locale.ROOT, "; |W - I|_F %.2f", frobDelta(delta));
        QueryAdapter adapter = QueryAdapter.of(MODEL, DIM, p.beta(), delta, provenance);
        byte[] bytes = adapter.toBytes();
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(out.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        System.out.printf(
                Locale.ROOT,
                "wrote %s (%d bytes, SHA-256 %s) in %.0f s%n%s%n",
                out,
                bytes.length,
                HexFormat.of().formatHex(Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length)),
                (System.nanoTime() - t0) / 1e9,
                provenance);
    }

    /** Median embedQuery time, plain vs the product's adapted model, alternating per query. */
    static void latency(Path datasets, int n) {
        List<ScoredQuery> qs = NormalizedDataset.read(
                        datasets.resolve("toollens").resolve("normalized"))
                .scoredQueries("qrels.test.tsv");
        EmbeddingModel plain = LocalEmbeddingModels.createPlain(MODEL);
        EmbeddingModel adapted = LocalEmbeddingModels.create(MODEL);
        int warm = 100;
        double[] tp = new double[n];
        double[] ta = new double[n];
        double sink = 0;
        for (int i = 0; i < warm + n; i++) {
            String text = qs.get(i % qs.size()).text();
            // alternate which model goes first, so neither always runs on a warmer cache
            for (int k = 0; k < 2; k++) {
                boolean plainTurn = (i + k) % 2 == 0;
                long t0 = System.nanoTime();
                float[] v = (plainTurn ? plain : adapted).embedQuery(text);
                double ms = (System.nanoTime() - t0) / 1e6;
                sink += v[0];
                if (i >= warm) {
                    (plainTurn ? tp : ta)[i - warm] = ms;
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "embedQuery %s over %d ToolLens test queries (after %d warm-up), one thread:%n"
                        + "  plain   median %.2f ms (p90 %.2f)%n  adapted median %.2f ms (p90 %.2f)%n  difference of medians %.2f ms"
                        + " (checksum %.3f)%n",
                MODEL,
                n,
                warm,
                Metrics.percentile(tp, 50),
                Metrics.percentile(tp, 90),
                Metrics.percentile(ta, 50),
                Metrics.percentile(ta, 90),
                Metrics.percentile(ta, 50) - Metrics.percentile(tp, 50),
                sink);
    }

    /**
     * ToolLens tool vectors (the model's documents, the index's text) and train-split query vectors (the plain
     * model's, cached under WORK/adapter).
     */
    static TrainData trainData(Path datasets, Path work) throws IOException {
        Path dir = datasets.resolve("toollens").resolve("normalized");
        NormalizedDataset ds = NormalizedDataset.read(dir);
        List<ScoredQuery> train = ds.scoredQueries("qrels.train.tsv");
        List<ScoredQuery> test = ds.scoredQueries("qrels.test.tsv");
        Set<String> testText = new HashSet<>();
        test.forEach(q -> testText.add(q.text().strip().toLowerCase(Locale.ROOT)));
        Set<String> testIds = new HashSet<>();
        test.forEach(q -> testIds.add(q.id()));
        long sameText = train.stream()
                .filter(q -> testText.contains(q.text().strip().toLowerCase(Locale.ROOT)))
                .count();
        long sameId = train.stream().filter(q -> testIds.contains(q.id())).count();
        System.err.printf(
                Locale.ROOT,
                "toollens train: %d queries; %d share their id and %d their text with a test query%n",
                train.size(),
                sameId,
                sameText);
        // plain: the adapter is trained on, and applied to, the model's own query vectors
        EmbeddingModel m = LocalEmbeddingModels.createPlain(MODEL);
        Map<String, Integer> toolOf = new HashMap<>();
        List<String> texts = new ArrayList<>();
        for (DatasetTool t : ds.tools()) {
            toolOf.put(t.id(), texts.size());
            texts.add(ToolText.embeddingText(t.spec()));
        }
        float[][] tools = m.embedDocuments(texts).toArray(new float[0][]);
        Path cache = work.resolve("adapter").resolve("toollens-train-" + MODEL + "-no-numbers.f32");
        float[][] x = readVectors(cache, train.size());
        if (x == null) {
            long t0 = System.nanoTime();
            float[][] xs = new float[train.size()][];
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                parallel(
                        pool,
                        train.size(),
                        i -> xs[i] = m.embedQuery(
                                QueryText.withoutNumbers(train.get(i).text())));
            } catch (Exception e) {
                throw new IOException(e);
            } finally {
                pool.shutdown();
            }
            x = xs;
            writeVectors(cache, x);
            System.err.printf(
                    Locale.ROOT, "embedded %d train queries in %.0f s%n", x.length, (System.nanoTime() - t0) / 1e9);
        }
        int[][] gold = new int[train.size()][];
        boolean[] held = new boolean[train.size()];
        int nHeld = 0;
        for (int i = 0; i < gold.length; i++) {
            ScoredQuery q = train.get(i);
            gold[i] = q.gold().stream()
                    .filter(toolOf::containsKey)
                    .mapToInt(toolOf::get)
                    .toArray();
            held[i] = Math.floorMod(q.id().hashCode(), 10) == 0;
            nHeld += held[i] ? 1 : 0;
        }
        String provenance = "model " + MODEL
                + " (plain query vectors of the text without numbers, QueryText.withoutNumbers); data toollens/normalized:"
                + " qrels.train.tsv sha256 "
                + fileSha(dir.resolve("qrels.train.tsv")) + ", queries.jsonl sha256 "
                + fileSha(dir.resolve("queries.jsonl"))
                + ", tools.jsonl sha256 " + fileSha(dir.resolve("tools.jsonl")) + "; " + train.size()
                + " train queries ("
                + nHeld + " held out: id hashCode mod 10 == 0), " + tools.length
                + " tools (ToolText.embeddingText); test"
                + " split not used";
        return new TrainData(tools, x, gold, held, provenance);
    }

    private static String fileSha(Path f) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    interface IntTask {
        void run(int i) throws Exception;
    }

    /** Runs task(0..n-1) on the pool's two threads, in two interleaved halves. */
    static void parallel(ExecutorService pool, int n, IntTask task) throws Exception {
        List<Future<?>> fs = new ArrayList<>();
        for (int part = 0; part < 2; part++) {
            int p = part;
            fs.add(pool.submit(() -> {
                for (int i = p; i < n; i += 2) {
                    task.run(i);
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
    }

    static float[][] readVectors(Path f, int n) throws IOException {
        if (!Files.isRegularFile(f)) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(f)))) {
            int count = in.readInt();
            int dim = in.readInt();
            if (count != n || dim != DIM) {
                return null;
            }
            float[][] x = new float[n][DIM];
            for (float[] v : x) {
                for (int j = 0; j < DIM; j++) {
                    v[j] = in.readFloat();
                }
            }
            return x;
        }
    }

    static void writeVectors(Path f, float[][] x) throws IOException {
        Files.createDirectories(f.getParent());
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(f)))) {
            out.writeInt(x.length);
            out.writeInt(DIM);
            for (float[] v : x) {
                for (float a : v) {
                    out.writeFloat(a);
                }
            }
        }
    }

    /** Trains W on the non-held-out train queries; returns W - I as float32, row-major. */
    static float[] train(TrainData td, Params a, String name) {
        int nt = td.tools().length;
        double[] w = new double[DIM * DIM];
        for (int i = 0; i < DIM; i++) {
            w[i * DIM + i] = 1;
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < td.x().length; i++) {
            if (!td.heldOut()[i] && td.gold()[i].length > 0) {
                order.add(i);
            }
        }
        System.err.printf(
                Locale.ROOT,
                "adapter %s (lambda %s, lr %s): %d train / %d held out; epoch 0 held-out %s%n",
                name,
                a.lambda(),
                a.lr(),
                order.size(),
                td.x().length - order.size(),
                heldOut(td, w));
        Random rnd = new Random(SEED);
        double[] g = new double[DIM * DIM];
        double[] u = new double[DIM];
        double[] s = new double[nt];
        double[] gu = new double[DIM];
        for (int ep = 1; ep <= a.epochs(); ep++) {
            long t0 = System.nanoTime();
            Collections.shuffle(order, rnd);
            double loss = 0;
            for (int b0 = 0; b0 < order.size(); b0 += BATCH) {
                Arrays.fill(g, 0);
                int b1 = Math.min(order.size(), b0 + BATCH);
                for (int bi = b0; bi < b1; bi++) {
                    int qi = order.get(bi);
                    float[] q = td.x()[qi];
                    mul(w, q, u);
                    for (int j = 0; j < nt; j++) {
                        float[] t = td.tools()[j];
                        double d = 0;
                        for (int c = 0; c < DIM; c++) {
                            d += u[c] * t[c];
                        }
                        s[j] = d / TAU;
                    }
                    int[] gold = td.gold()[qi];
                    Arrays.fill(gu, 0);
                    boolean[] isGold = new boolean[nt];
                    for (int gi : gold) {
                        isGold[gi] = true;
                    }
                    for (int gi : gold) {
                        double max = s[gi];
                        for (int j = 0; j < nt; j++) {
                            if (!isGold[j]) {
                                max = Math.max(max, s[j]);
                            }
                        }
                        double z = 0;
                        for (int j = 0; j < nt; j++) {
                            if (!isGold[j] || j == gi) {
                                z += Math.exp(s[j] - max);
                            }
                        }
                        loss += (Math.log(z) + max - s[gi]) / gold.length;
                        for (int j = 0; j < nt; j++) {
                            if (!isGold[j] || j == gi) {
                                double p = Math.exp(s[j] - max) / z;
                                double coef = (p - (j == gi ? 1 : 0)) / TAU / gold.length;
                                float[] t = td.tools()[j];
                                for (int c = 0; c < DIM; c++) {
                                    gu[c] += coef * t[c];
                                }
                            }
                        }
                    }
                    for (int r = 0; r < DIM; r++) {
                        double gr = gu[r];
                        int row = r * DIM;
                        for (int c = 0; c < DIM; c++) {
                            g[row + c] += gr * q[c];
                        }
                    }
                }
                int bs = b1 - b0;
                for (int r = 0; r < DIM; r++) {
                    for (int c = 0; c < DIM; c++) {
                        int idx = r * DIM + c;
                        double reg = a.lambda() * (w[idx] - (r == c ? 1 : 0));
                        w[idx] -= a.lr() * (g[idx] / bs + reg);
                    }
                }
            }
            System.err.printf(
                    Locale.ROOT,
                    "  epoch %d: train loss %.3f, held-out %s, |W - I|_F %.2f (%.0f s)%n",
                    ep,
                    loss / order.size(),
                    heldOut(td, w),
                    frob(w),
                    (System.nanoTime() - t0) / 1e9);
        }
        float[] d = new float[DIM * DIM];
        for (int r = 0; r < DIM; r++) {
            for (int c = 0; c < DIM; c++) {
                d[r * DIM + c] = (float) (w[r * DIM + c] - (r == c ? 1 : 0));
            }
        }
        return d;
    }

    static double frob(double[] w) {
        double s = 0;
        for (int r = 0; r < DIM; r++) {
            for (int c = 0; c < DIM; c++) {
                double v = w[r * DIM + c] - (r == c ? 1 : 0);
                s += v * v;
            }
        }
        return Math.sqrt(s);
    }

    private static double frobDelta(float[] d) {
        double s = 0;
        for (float v : d) {
            s += (double) v * v;
        }
        return Math.sqrt(s);
    }

    static void mul(double[] w, float[] q, double[] u) {
        for (int r = 0; r < DIM; r++) {
            double s = 0;
            int row = r * DIM;
            for (int c = 0; c < DIM; c++) {
                s += w[row + c] * q[c];
            }
            u[r] = s;
        }
    }

    /** Dense-only R@5 / C@10 on the held-out train queries, for the float32 W - I as it is written. */
    static String heldOut(TrainData td, float[] delta) {
        double[] w = new double[DIM * DIM];
        for (int r = 0; r < DIM; r++) {
            for (int c = 0; c < DIM; c++) {
                w[r * DIM + c] = delta[r * DIM + c] + (r == c ? 1 : 0);
            }
        }
        return heldOut(td, w);
    }

    /** Dense-only R@5 / C@10 on the held-out train queries. */
    static String heldOut(TrainData td, double[] w) {
        int nt = td.tools().length;
        double r5 = 0;
        double c10 = 0;
        int n = 0;
        double[] u = new double[DIM];
        for (int qi = 0; qi < td.x().length; qi++) {
            if (!td.heldOut()[qi] || td.gold()[qi].length == 0) {
                continue;
            }
            mul(w, td.x()[qi], u);
            Integer[] idx = new Integer[nt];
            double[] s = new double[nt];
            for (int j = 0; j < nt; j++) {
                idx[j] = j;
                float[] t = td.tools()[j];
                for (int c = 0; c < DIM; c++) {
                    s[j] += u[c] * t[c];
                }
            }
            Arrays.sort(idx, (x, y) -> Double.compare(s[y], s[x]));
            List<String> ranked = new ArrayList<>();
            for (int j = 0; j < 10; j++) {
                ranked.add(Integer.toString(idx[j]));
            }
            Set<String> gold = new HashSet<>();
            for (int gi : td.gold()[qi]) {
                gold.add(Integer.toString(gi));
            }
            r5 += Metrics.recallAt(5, ranked, gold);
            c10 += Metrics.completeAt(10, ranked, gold);
            n++;
        }
        return String.format(Locale.ROOT, "dense R@5 %.1f C@10 %.1f", 100 * r5 / n, 100 * c10 / n);
    }
}
