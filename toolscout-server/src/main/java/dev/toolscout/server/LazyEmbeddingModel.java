package dev.toolscout.server;

import dev.toolscout.embedding.EmbeddingModel;
import java.util.List;
import java.util.function.Supplier;

/**
 * Loads the real model on first use, on the calling thread, so commands that embed nothing ({@code list},
 * {@code describe}, {@code mcp add}, a start with a current index) never start an ONNX session. Thread-safe.
 *
 * <p>A command that will embed may {@link #preload} to overlap the load with opening the store and the index;
 * whoever preloads must {@link #awaitPreload} before the process may exit. The JVM crashes (exit 134, an
 * {@code hs_err_pid} file) when {@code System.exit} runs while {@code OrtSession.createSession} is still in
 * native code on another thread, which is what quick commands did when every start preloaded.
 */
final class LazyEmbeddingModel implements EmbeddingModel {
  /** Where the model is: observable so tests can tell a command that embeds nothing never loaded it. */
  enum State { NOT_LOADED, LOADING, LOADED }

  private final String modelId;
  private final int dimension;
  private final Supplier<EmbeddingModel> factory;
  private volatile EmbeddingModel model;
  private volatile boolean loading;
  private Thread preloader;

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
          loading = true;
          try {
            m = factory.get();
          } finally {
            loading = false;
          }
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

  State state() {
    return model != null ? State.LOADED : loading ? State.LOADING : State.NOT_LOADED;
  }

  /**
   * Starts loading the model on a background thread, so the load (about a second) overlaps opening the store
   * and the index; the first embedding call waits for it. Safe to call more than once. The caller must
   * {@link #awaitPreload} before exiting.
   */
  synchronized void preload() {
    if (model == null && preloader == null) {
      preloader = Thread.ofPlatform().name("embedding-model-preload").daemon(false).start(() -> {
        try {
          model();
        } catch (RuntimeException e) {
          // the first real call loads again and reports the error where it matters
        }
      });
    }
  }

  /**
   * Waits until a {@link #preload} started earlier has finished (at once when none was started), so no
   * thread is inside the native model loader when the process exits.
   */
  void awaitPreload() {
    Thread t;
    synchronized (this) {
      t = preloader;
    }
    if (t == null) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // keep waiting: leaving now is what crashes the JVM
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
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
