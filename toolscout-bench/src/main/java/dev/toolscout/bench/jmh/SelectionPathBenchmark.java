package dev.toolscout.bench.jmh;

import dev.toolscout.access.AllowedSet;
import dev.toolscout.bench.server.SyntheticCatalog;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.indexing.Hit;
import dev.toolscout.indexing.ToolDocument;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.lucene.LuceneToolIndex;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.FusionAccess;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.QueryClauses;
import dev.toolscout.selection.Ranked;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where one request's ranking time goes: each step of the selection's hot path measured on its own, over the
 * same catalog and queries, so the parts can be set beside the whole ({@code rank}).
 *
 * <ul>
 *   <li>{@code embedQuery}: the default model's query embedding, query adapter included;
 *   <li>{@code lexical} / {@code dense}: the Lucene index's BM25 and HNSW searches, 50 hits each (the
 *       selector's candidates per retriever at K 10);
 *   <li>{@code fuse}: the z-score fusion of those two lists ({@link Fusion#DEFAULT}, as for a message of one
 *       clause; package-private in core, reached through {@link FusionAccess});
 *   <li>{@code rank}: {@link HybridRanker#rank}, the whole path as the selector runs it (BM25 on another thread
 *       while the model embeds, then HNSW and the fusion; the generated queries are one clause each);
 *   <li>{@code stepsInOrder}: the same steps one after another on one thread;
 *   <li>{@code embedMessage}: a message of two clauses (two generated queries as two sentences, the second
 *       opened by "Then") and its clauses embedded by one {@link EmbeddingModel#embedQueries} call, the clauses
 *       read from the message's model call;
 *   <li>{@code embedMessageClausesAlone}: the same message and clauses each embedded alone (three model calls,
 *       what the clause search did before it read clauses from the message);
 *   <li>{@code rankMessage}: {@link HybridRanker#rank} of those messages, clause search included.
 * </ul>
 *
 * The catalog is {@link SyntheticCatalog}'s, in an in-memory index. The first {@value #REAL} tools are
 * embedded for real; a larger catalog reuses those vectors with small random perturbations (as {@code
 * toolscout bench} does for its largest sizes), so its HNSW graph has real clusters without minutes of
 * embedding per fork. Each invocation takes the next of {@value #QUERIES} generated queries, so the figure is a
 * mean over query shapes. Access control, pinned tools and rendering are the selector's and are measured end to
 * end by {@code toolscout bench}. Run with {@code scripts/jmh.sh} (docs/BENCHMARKS.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class SelectionPathBenchmark {
    static final int REAL = 1000;
    static final int QUERIES = 64;
    static final int CANDIDATES = 50;

    @Param({"1000", "10000"})
    public int tools;

    private EmbeddingModel model;
    private LuceneToolIndex index;
    private HybridRanker ranker;
    private AllowedSet all;
    private String[] names;
    private IntFunction<String> nameOf;
    private List<String> queries;
    private List<String> messages;
    private List<List<String>> clauses;
    private float[][] queryVectors;
    private List<List<Hit>> lexicalHits;
    private List<List<Hit>> denseHits;

    @Setup(Level.Trial)
    public void setUp() {
        model = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID);
        List<ToolSpec> specs = SyntheticCatalog.tools(tools, 42);
        float[][] vectors = vectors(model, specs, new Random(43));
        index = LuceneToolIndex.inMemory(model.dimension());
        List<ToolDocument> docs = new ArrayList<>(specs.size());
        names = new String[specs.size()];
        for (int i = 0; i < specs.size(); i++) {
            docs.add(ToolDocument.of(i, specs.get(i), vectors[i]));
            names[i] = specs.get(i).fullName();
        }
        index.upsert(docs);
        index.commit(1);
        nameOf = ord -> names[ord];
        ranker = new HybridRanker(index);
        BitSet bits = new BitSet(specs.size());
        bits.set(0, specs.size());
        all = AllowedSet.of(bits, specs.size());
        queries = SyntheticCatalog.queries(QUERIES, 44);
        messages = new ArrayList<>(QUERIES);
        clauses = new ArrayList<>(QUERIES);
        for (int q = 0; q < QUERIES; q++) {
            String m = queries.get(q) + ". Then " + queries.get((q + 1) % QUERIES);
            messages.add(m);
            clauses.add(QueryClauses.split(m));
        }
        queryVectors = new float[QUERIES][];
        lexicalHits = new ArrayList<>(QUERIES);
        denseHits = new ArrayList<>(QUERIES);
        for (int q = 0; q < QUERIES; q++) {
            queryVectors[q] = model.embedQuery(queries.get(q));
            lexicalHits.add(index.lexical(queries.get(q), all, CANDIDATES));
            denseHits.add(index.dense(queryVectors[q], all, CANDIDATES));
        }
    }

    /** Real vectors for the first {@value #REAL} tools; each later tool a perturbed copy of one of them. */
    static float[][] vectors(EmbeddingModel model, List<ToolSpec> specs, Random random) {
        int real = Math.min(REAL, specs.size());
        List<float[]> embedded = model.embedDocuments(
                specs.subList(0, real).stream().map(ToolText::embeddingText).toList());
        float[][] out = new float[specs.size()][];
        for (int i = 0; i < specs.size(); i++) {
            float[] base = embedded.get(i % real);
            out[i] = i < real ? base : SyntheticCatalog.perturbed(base, random);
        }
        return out;
    }

    /** The position in the query list of one benchmark thread; each invocation moves it on by one. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        int take() {
            int q = next;
            next = (next + 1) % QUERIES;
            return q;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        ranker.close();
        index.close();
    }

    @Benchmark
    public float[] embedQuery(Cursor c) {
        return model.embedQuery(queries.get(c.take()));
    }

    @Benchmark
    public List<Hit> lexical(Cursor c) {
        return index.lexical(queries.get(c.take()), all, CANDIDATES);
    }

    @Benchmark
    public List<Hit> dense(Cursor c) {
        return index.dense(queryVectors[c.take()], all, CANDIDATES);
    }

    @Benchmark
    public List<Ranked> fuse(Cursor c) {
        int q = c.take();
        return FusionAccess.fuse(lexicalHits.get(q), denseHits.get(q), Fusion.DEFAULT.forClauses(1), nameOf);
    }

    /**
     * The same steps as {@link #rank} for a message of one clause, one after another on the calling thread: the
     * embedding, then BM25, then HNSW, then the fusion. {@code rank} runs BM25 on another thread while the
     * model embeds; this says what that overlap buys on the machine at hand.
     */
    @Benchmark
    public List<Ranked> stepsInOrder(Cursor c) {
        String query = queries.get(c.take());
        float[] vector = model.embedQuery(query);
        List<Hit> lexical = index.lexical(query, all, CANDIDATES);
        List<Hit> dense = index.dense(vector, all, CANDIDATES);
        return FusionAccess.fuse(lexical, dense, Fusion.DEFAULT.forClauses(1), nameOf);
    }

    @Benchmark
    public List<Ranked> rank(Cursor c) {
        return ranker.rank(queries.get(c.take()), model::embedQueries, all, Fusion.DEFAULT, nameOf);
    }

    @Benchmark
    public List<float[]> embedMessage(Cursor c) {
        int q = c.take();
        return model.embedQueries(messages.get(q), clauses.get(q));
    }

    @Benchmark
    public List<float[]> embedMessageClausesAlone(Cursor c) {
        int q = c.take();
        List<float[]> out = new ArrayList<>(3);
        out.add(model.embedQuery(messages.get(q)));
        for (String clause : clauses.get(q)) {
            out.add(model.embedQuery(clause));
        }
        return out;
    }

    @Benchmark
    public List<Ranked> rankMessage(Cursor c) {
        return ranker.rank(messages.get(c.take()), model::embedQueries, all, Fusion.DEFAULT, nameOf);
    }
}
