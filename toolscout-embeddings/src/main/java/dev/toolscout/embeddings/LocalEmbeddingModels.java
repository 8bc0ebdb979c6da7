package dev.toolscout.embeddings;

import dev.toolscout.embedding.EmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The local embedding models, by id. Each id fixes the weights and the document recipe; the id is what {@link
 * EmbeddingModel#modelId()} returns and what stored (document) vectors are kept under, so a new document recipe
 * needs a new id. A query adapter ({@link QueryAdapter}) changes query vectors only, which are never stored, so
 * it keeps the id.
 */
public final class LocalEmbeddingModels {
    /** BAAI bge-small-en-v1.5, int8-quantized, CLS pooling, 384 dimensions; queries embedded as they are. */
    public static final String BGE_SMALL_EN_V15_Q = "bge-small-en-v1.5-q";

    /** The same weights, queries prefixed with {@link #BGE_QUERY_INSTRUCTION} as BGE suggests for retrieval. */
    public static final String BGE_SMALL_EN_V15_Q_INSTRUCT = "bge-small-en-v1.5-q-instruct";

    /**
     * sentence-transformers all-MiniLM-L6-v2, int8-quantized, mean pooling, 384 dimensions; query vectors go
     * through the bundled query adapter {@value #ADAPTER_FOLDER}{@code all-minilm-l6-v2-q.adapter} (trained on
     * the ToolLens train split, docs/EVALUATION.md); documents are embedded as they are.
     *
     * <p>Fitted rule "query adapter": it moves queries toward the tools that answer them, learned on one set's
     * train split; measured effect on every development set in docs/FITTED_RULES.md.
     */
    public static final String ALL_MINILM_L6_V2_Q = "all-minilm-l6-v2-q";

    /** BGE's query instruction for short-query to passage retrieval (from the BGE model card). */
    public static final String BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    /**
     * The default, {@value}: on the eight development sets it matched the best BGE variant on mean NDCG@10
     * and led on mean recall and completeness, at half the query latency (see {@code docs/EMBEDDINGS.md}).
     */
    public static final String DEFAULT_ID = ALL_MINILM_L6_V2_Q;

    /** Where bundled query adapters live on the classpath: {@code <folder><model id>.adapter}. */
    public static final String ADAPTER_FOLDER = "dev/toolscout/embeddings/adapters/";

    private static final int DIMENSION = 384;
    private static volatile QueryAdapter miniLmAdapter;
    private static final List<String> IDS =
            List.of(BGE_SMALL_EN_V15_Q, BGE_SMALL_EN_V15_Q_INSTRUCT, ALL_MINILM_L6_V2_Q);

    private LocalEmbeddingModels() {}

    /** Every id {@link #create(String)} accepts. */
    public static List<String> ids() {
        return IDS;
    }

    /**
     * The vector length of a model, known without loading it (so a data directory can be opened before the
     * model is needed).
     *
     * @throws IllegalArgumentException for an unknown id, naming it and the known ones
     */
    public static int dimension(String id) {
        if (id == null || !IDS.contains(id)) {
            throw new IllegalArgumentException(
                    "unknown embedding model id '" + id + "'; known: " + String.join(", ", IDS));
        }
        return DIMENSION;
    }

    /**
     * A model by id, as the product uses it (with its query adapter, if it has one). The weights load once per
     * JVM, on first use (about a second); later calls are cheap.
     *
     * @throws IllegalArgumentException for an unknown id, naming it and the known ones
     * @throws IllegalStateException when the model's bundled query adapter is missing or invalid, naming the file
     */
    public static EmbeddingModel create(String id) {
        EmbeddingModel plain = createPlain(id);
        return switch (id) {
            case ALL_MINILM_L6_V2_Q -> new AdaptedQueryModel(plain, miniLmAdapter());
            default -> plain;
        };
    }

    /**
     * A model by id without its query adapter: queries embedded as the model alone does. For baselines that
     * stand for other products (LangChain4j's tool search) and for training an adapter; the product uses {@link
     * #create}. Document vectors are the same as {@link #create}'s.
     *
     * @throws IllegalArgumentException for an unknown id, naming it and the known ones
     */
    public static EmbeddingModel createPlain(String id) {
        if (id == null) {
            throw new IllegalArgumentException("embedding model id must not be null; known: " + String.join(", ", IDS));
        }
        return switch (id) {
            case BGE_SMALL_EN_V15_Q ->
                new OnnxEmbeddingModel(id, DIMENSION, "", BundledOnnxModels.bgeSmallEnV15Quantized());
            case BGE_SMALL_EN_V15_Q_INSTRUCT ->
                new OnnxEmbeddingModel(
                        id, DIMENSION, BGE_QUERY_INSTRUCTION, BundledOnnxModels.bgeSmallEnV15Quantized());
            case ALL_MINILM_L6_V2_Q ->
                new OnnxEmbeddingModel(id, DIMENSION, "", BundledOnnxModels.allMiniLmL6V2Quantized());
            default ->
                throw new IllegalArgumentException(
                        "unknown embedding model id '" + id + "'; known: " + String.join(", ", IDS));
        };
    }

    /**
     * Reads the bundled query adapter of a model ({@value #ADAPTER_FOLDER}{@code <id>.adapter}) and checks it
     * is for that model and dimension.
     *
     * @throws IllegalStateException when it is missing or invalid; the message names the resource and the problem
     */
    static QueryAdapter bundledAdapter(String id) {
        String name = ADAPTER_FOLDER + id + ".adapter";
        byte[] bytes;
        try (InputStream in = LocalEmbeddingModels.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("query adapter " + name + ": resource not found on the classpath (run"
                        + " dev.toolscout.bench.eval.QueryAdapterTrainer, docs/EMBEDDINGS.md)");
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("query adapter " + name + ": cannot be read", e);
        }
        return checked(bytes, name, id, DIMENSION);
    }

    /** Parses adapter bytes and checks the model id and dimension; every problem names {@code source}. */
    static QueryAdapter checked(byte[] bytes, String source, String id, int dimension) {
        QueryAdapter a;
        try {
            a = QueryAdapter.parse(bytes, source);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        if (!a.modelId().equals(id)) {
            throw new IllegalStateException(
                    "query adapter " + source + ": trained for model '" + a.modelId() + "', not '" + id + "'");
        }
        if (a.dimension() != dimension) {
            throw new IllegalStateException("query adapter " + source + ": dimension " + a.dimension()
                    + " does not match" + " the model's " + dimension);
        }
        return a;
    }

    /**
     * The MiniLM adapter, read once per JVM on first use. Not a holder class: a failed load must throw its own
     * message every time, not a bare NoClassDefFoundError after the first.
     */
    private static QueryAdapter miniLmAdapter() {
        QueryAdapter a = miniLmAdapter;
        if (a == null) {
            a = bundledAdapter(ALL_MINILM_L6_V2_Q);
            miniLmAdapter = a; // a race reads the same immutable file twice; harmless
        }
        return a;
    }
}
