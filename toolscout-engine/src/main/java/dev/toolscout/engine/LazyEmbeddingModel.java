package dev.toolscout.engine;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.MessageVectors;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Loads the real model on first use, on the calling thread, so commands that embed nothing ({@code list},
 * {@code describe}, {@code mcp add}, a start with a current index) never start an ONNX session. Thread-safe.
 *
 * <p>A command that will embed may {@link #preload} to overlap the load with opening the store and the index.
 * {@link #close} waits for every load and embedding call in flight, on any thread (the preload, an MCP
 * connection indexing its server's tools, a request), and refuses later ones, so once the engine is closed no
 * thread is in the model's native code. The JVM crashes (exit 134, an {@code hs_err_pid} file) when {@code
 * System.exit} runs while {@code OrtSession.createSession} is still in native code on another thread, which is
 * what quick commands did when every start preloaded and nothing waited.
 */
final class LazyEmbeddingModel implements EmbeddingModel, AutoCloseable {
    /** Where the model is: observable so tests can tell a command that embeds nothing never loaded it. */
    enum State {
        NOT_LOADED,
        LOADING,
        LOADED
    }

    private final String modelId;
    private final int dimension;
    private final Supplier<EmbeddingModel> factory;
    private volatile EmbeddingModel model;
    private volatile boolean loading;
    private Thread preloader;
    /** Read: a load or an embedding call in flight; write: {@link #close}, which waits for them. */
    private final ReentrantReadWriteLock inFlight = new ReentrantReadWriteLock();

    private boolean closed;
    /** Embedding calls made through this model (each one model call or one batch): what a request cost. */
    private final java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();

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

    /** Runs {@code call} unless closed; {@link #close} waits for it. */
    private <T> T use(java.util.function.Function<EmbeddingModel, T> call) {
        inFlight.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException("embedding model '" + modelId + "' is closed (its engine was closed)");
            }
            return call.apply(model());
        } finally {
            inFlight.readLock().unlock();
        }
    }

    /** How many embedding calls were made through this model so far (each query, message or batch of documents). */
    long calls() {
        return calls.get();
    }

    /** An embedding call: counted, then run as {@link #use} runs it. */
    private <T> T embed(java.util.function.Function<EmbeddingModel, T> call) {
        calls.incrementAndGet();
        return use(call);
    }

    State state() {
        return model != null ? State.LOADED : loading ? State.LOADING : State.NOT_LOADED;
    }

    /**
     * Starts loading the model on a background thread, so the load (about a second) overlaps opening the store
     * and the index; the first embedding call waits for it. Safe to call more than once; {@link #close} waits
     * for it.
     */
    synchronized void preload() {
        if (model == null && preloader == null) {
            preloader = Thread.ofPlatform()
                    .name("embedding-model-preload")
                    .daemon(true)
                    .start(() -> {
                        try {
                            use(m -> m);
                        } catch (RuntimeException e) {
                            // the first real call loads again and reports the error where it matters
                        }
                    });
        }
    }

    /**
     * Waits for every load and embedding call in flight to end and refuses new ones. Idempotent. After it
     * returns, no thread is in the model's native code on this model's behalf.
     */
    @Override
    public void close() {
        inFlight.writeLock().lock();
        try {
            closed = true;
        } finally {
            inFlight.writeLock().unlock();
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
        return embed(m -> m.embedQuery(text));
    }

    @Override
    public List<float[]> embedQueries(String message, List<String> clauses) {
        return embed(m -> m.embedQueries(message, clauses));
    }

    @Override
    public MessageVectors embedMessage(String message, List<String> clauses) {
        return embed(m -> m.embedMessage(message, clauses));
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return embed(m -> m.embedDocuments(texts));
    }
}
