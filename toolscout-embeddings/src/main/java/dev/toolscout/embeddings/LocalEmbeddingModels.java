package dev.toolscout.embeddings;

import dev.toolscout.embedding.EmbeddingModel;
import java.util.List;

/**
 * The local embedding models, by id. Each id fixes the weights and the query recipe; the id is what {@link
 * EmbeddingModel#modelId()} returns and what cached vectors are stored under, so a new recipe needs a new id.
 */
public final class LocalEmbeddingModels {
  /** BAAI bge-small-en-v1.5, int8-quantized, CLS pooling, 384 dimensions; queries embedded as they are. */
  public static final String BGE_SMALL_EN_V15_Q = "bge-small-en-v1.5-q";

  /** The same weights, queries prefixed with {@link #BGE_QUERY_INSTRUCTION} as BGE suggests for retrieval. */
  public static final String BGE_SMALL_EN_V15_Q_INSTRUCT = "bge-small-en-v1.5-q-instruct";

  /** sentence-transformers all-MiniLM-L6-v2, int8-quantized, mean pooling, 384 dimensions. */
  public static final String ALL_MINILM_L6_V2_Q = "all-minilm-l6-v2-q";

  /** BGE's query instruction for short-query to passage retrieval (from the BGE model card). */
  public static final String BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

  /**
   * The default, {@value}: on the eight development sets it matched the best BGE variant on mean NDCG@10
   * and led on mean recall and completeness, at half the query latency (see {@code docs/EMBEDDINGS.md}).
   */
  public static final String DEFAULT_ID = ALL_MINILM_L6_V2_Q;

  private static final int DIMENSION = 384;
  private static final List<String> IDS = List.of(BGE_SMALL_EN_V15_Q, BGE_SMALL_EN_V15_Q_INSTRUCT, ALL_MINILM_L6_V2_Q);

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
      throw new IllegalArgumentException("unknown embedding model id '" + id + "'; known: " + String.join(", ", IDS));
    }
    return DIMENSION;
  }

  /**
   * A model by id. The weights load once per JVM, on first use (about a second); later calls are cheap.
   *
   * @throws IllegalArgumentException for an unknown id, naming it and the known ones
   */
  public static EmbeddingModel create(String id) {
    if (id == null) {
      throw new IllegalArgumentException("embedding model id must not be null; known: " + String.join(", ", IDS));
    }
    return switch (id) {
      case BGE_SMALL_EN_V15_Q -> new OnnxEmbeddingModel(id, DIMENSION, "", BundledOnnxModels.bgeSmallEnV15Quantized());
      case BGE_SMALL_EN_V15_Q_INSTRUCT ->
          new OnnxEmbeddingModel(id, DIMENSION, BGE_QUERY_INSTRUCTION, BundledOnnxModels.bgeSmallEnV15Quantized());
      case ALL_MINILM_L6_V2_Q ->
          new OnnxEmbeddingModel(id, DIMENSION, "", BundledOnnxModels.allMiniLmL6V2Quantized());
      default ->
          throw new IllegalArgumentException(
              "unknown embedding model id '" + id + "'; known: " + String.join(", ", IDS));
    };
  }
}
