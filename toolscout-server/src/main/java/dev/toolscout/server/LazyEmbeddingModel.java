package dev.toolscout.server;

import dev.toolscout.embedding.EmbeddingModel;
import java.util.List;
import java.util.function.Supplier;

/**
 * Loads the real model on first use, so commands that embed nothing ({@code list}, {@code describe}, a
 * start with a current index) skip the ONNX session start-up. Thread-safe.
 */
final class LazyEmbeddingModel implements EmbeddingModel {
  private final String modelId;
  private final int dimension;
  private final Supplier<EmbeddingModel> factory;
  private volatile EmbeddingModel model;

  LazyEmbeddingModel(String modelId, int dimension, Supplier<EmbeddingModel> factory) {
    this.modelId = modelId;
    this.dimension = dimension;
    this.factory = factory;
  }

  private EmbeddingModel model() {
    EmbeddingModel m = model;
    if (m == null) {
      synchronized (this) {
        m = model;
        if (m == null) {
          m = factory.get();
          if (!m.modelId().equals(modelId) || m.dimension() != dimension) {
            throw new IllegalStateException("embedding model '" + m.modelId() + "' (" + m.dimension()
                + " dimensions) does not match the expected '" + modelId + "' (" + dimension + ")");
          }
          model = m;
        }
      }
    }
    return m;
  }

  /**
   * Starts loading the model on a background thread, so the load (about a second) overlaps opening the
   * store and the index; the first embedding call waits for it. Safe to call more than once.
   */
  void preload() {
    if (model == null) {
      Thread.ofVirtual().name("embedding-model-preload").start(() -> {
        try {
          model();
        } catch (RuntimeException e) {
          // the first real call loads again and reports the error where it matters
        }
      });
    }
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[] embedQuery(String text) {
    return model().embedQuery(text);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    return model().embedDocuments(texts);
  }
}
