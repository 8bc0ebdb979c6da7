package dev.toolscout.embeddings;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;

/**
 * LangChain4j's bundled quantized ONNX models, loaded with one intra-op thread per inference.
 *
 * <p>Why not LangChain4j's own classes ({@link BgeSmallEnV15QuantizedEmbeddingModel}, ...): they create the
 * ONNX session with default options, which give every inference one thread per core that spin while they
 * wait. A batch is then run one text per core on LangChain4j's executor, each text again on every core, and
 * concurrent queries from request threads do the same. Measured on 2 cores with other work running, one
 * intra-op thread needed about half the CPU per query and two thirds per document, at no worse latency (see
 * {@code docs/EMBEDDINGS.md}). Parallelism comes from the callers instead: {@code embedAll} spreads a batch
 * over LangChain4j's default executor (one thread per core, idle threads exit after a second), and each
 * request thread runs its own query.
 *
 * <p>Contract with LangChain4j {@code langchain4j-embeddings} 1.20.0-beta30: the resource names and pooling
 * modes below are the ones its model classes use, and {@link OnnxBertBiEncoder}'s public constructor and
 * {@link AbstractInProcessEmbeddingModel}'s protected one stay as they are. {@code OnnxEmbeddingModelTest}
 * checks that our vectors equal those of LangChain4j's classes.
 *
 * <p>Each model loads once per JVM, on first use, and is shared: ONNX sessions and the tokenizer are
 * thread-safe. A mean-pooling model also gets a {@link ClauseEncoder} over the same session and tokenizer file,
 * which reads a message's clauses from the message's own model call.
 */
final class BundledOnnxModels {
    private BundledOnnxModels() {}

    /** A loaded model: LangChain4j's, and the clause encoder over the same session ({@code null}: none). */
    record Loaded(dev.langchain4j.model.embedding.EmbeddingModel model, ClauseEncoder clauses) {}

    static Loaded bgeSmallEnV15Quantized() {
        return BgeHolder.MODEL;
    }

    static Loaded allMiniLmL6V2Quantized() {
        return MiniLmHolder.MODEL;
    }

    // holder classes: the JVM loads each model lazily and exactly once
    private static final class BgeHolder {
        static final Loaded MODEL = load(
                BgeSmallEnV15QuantizedEmbeddingModel.class,
                "bge-small-en-v1.5-q.onnx",
                "bge-small-en-v1.5-q-tokenizer.json",
                PoolingMode.CLS,
                384);
    }

    private static final class MiniLmHolder {
        static final Loaded MODEL = load(
                AllMiniLmL6V2QuantizedEmbeddingModel.class,
                "all-minilm-l6-v2-q.onnx",
                "all-minilm-l6-v2-q-tokenizer.json",
                PoolingMode.MEAN,
                384);
    }

    /**
     * @param jarClass a class from the jar that holds the resources (named as a literal, so its own static
     *     model is not loaded)
     */
    private static Loaded load(
            Class<?> jarClass, String modelResource, String tokenizerResource, PoolingMode pooling, int dimension) {
        noNetworkForDjl();
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (InputStream tokenizerFile = resource(jarClass, tokenizerResource);
                OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            OrtSession session = createSession(env, jarClass, modelResource, options);
            byte[] tokenizer = tokenizerFile.readAllBytes();
            // LangChain4j's encoder (and its own tokenizer, 55-75 ms of a start) is made when first used: documents
            // and a model without a clause encoder use it, a selection's message does not
            SingleThreadedModel lc4j = new SingleThreadedModel(
                    () -> new OnnxBertBiEncoder(env, session, new ByteArrayInputStream(tokenizer), pooling), dimension);
            // a clause is read from the message's token states only where the model pools them all (MEAN); a CLS
            // model's vector is one token's state, which no clause has of its own
            ClauseEncoder clauses = pooling == PoolingMode.MEAN
                    ? new ClauseEncoder(
                            env,
                            session,
                            // made as LangChain4j makes its own, so both see the same tokens
                            HuggingFaceTokenizer.newInstance(
                                    new ByteArrayInputStream(tokenizer), Map.of("padding", "false")))
                    : null;
            return new Loaded(lc4j, clauses);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled model " + modelResource, e);
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load the bundled ONNX model " + modelResource + ": " + e, e);
        }
    }

    /**
     * DJL, whose Hugging Face tokenizer both encoders use, reads EC2's instance metadata address (169.254.169.254) and
     * reports its use to its makers when it finds one, unless {@code OPT_OUT_TRACKING} is set, and downloads a native
     * library it lacks unless offline (DJL's "Usage Tracking" page). ToolScout makes no network call of its own
     * accord, and the tokenizer's library is in its jar: both are turned off before DJL's first class loads.
     */
    static void noNetworkForDjl() {
        System.setProperty("OPT_OUT_TRACKING", "true");
        System.setProperty("ai.djl.offline", "true");
    }

    /**
     * The system property naming a folder that holds the bundled models' files as unpacked from their jars (the
     * launcher unpacks them once per build, as it does ONNX Runtime's native libraries): a start then reads the
     * model's 23 MB from a file instead of inflating them from the jar, which was a fifth of the model's load
     * (docs/BENCHMARKS.md, "Cold start"). Unset, or a file that is not the jar's entry, and the jar is read.
     */
    static final String MODELS_DIR = "toolscout.models.dir";

    /**
     * The model's session: from the unpacked copy's file when it is the jar's entry (ONNX Runtime reads the file
     * itself), else from the jar's bytes. Reading the 23 MB into the Java heap first cost 180-230 ms in a fresh
     * JVM, most of it the new heap's pages (docs/BENCHMARKS.md, "Cold start").
     */
    static OrtSession createSession(
            OrtEnvironment env, Class<?> jarClass, String name, OrtSession.SessionOptions options)
            throws IOException, OrtException {
        Path file = unpacked(jarClass, name, System.getProperty(MODELS_DIR));
        if (file != null) {
            return env.createSession(file.toString(), options);
        }
        try (InputStream in = resource(jarClass, name)) {
            return env.createSession(in.readAllBytes(), options);
        }
    }

    /**
     * {@code dir/name} when it holds what the jar's entry does (its size and CRC-32, which the jar's directory
     * records: checking them reads the file once through a mapping, far cheaper than inflating the entry), else
     * {@code null}: no folder, no file, a resource not in a jar, or a copy of another version.
     */
    static Path unpacked(Class<?> jarClass, String name, String dir) throws IOException {
        if (dir == null || dir.isBlank()) {
            return null;
        }
        Path file = Path.of(dir, name);
        URL url = jarClass.getClassLoader().getResource(name);
        if (url == null || !Files.isRegularFile(file) || !(url.openConnection() instanceof JarURLConnection jar)) {
            return null;
        }
        JarEntry entry = jar.getJarEntry();
        if (entry == null || entry.getSize() != Files.size(file)) {
            return null;
        }
        CRC32 crc = new CRC32();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            if (ch.size() != entry.getSize()) {
                return null;
            }
            crc.update(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
        }
        return crc.getValue() == entry.getCrc() ? file : null;
    }

    private static InputStream resource(Class<?> jarClass, String name) {
        InputStream in = jarClass.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("resource " + name + " not found next to " + jarClass.getName()
                    + " (is the LangChain4j model jar on the" + " classpath?)");
        }
        return in;
    }

    /** LangChain4j's in-process model over our encoder; a null executor selects LangChain4j's default. */
    private static final class SingleThreadedModel extends AbstractInProcessEmbeddingModel {
        private final java.util.function.Supplier<OnnxBertBiEncoder> make;
        private volatile OnnxBertBiEncoder encoder;
        private final int dimension;

        SingleThreadedModel(java.util.function.Supplier<OnnxBertBiEncoder> encoder, int dimension) {
            super(null);
            this.make = encoder;
            this.dimension = dimension;
        }

        @Override
        protected OnnxBertBiEncoder model() {
            OnnxBertBiEncoder e = encoder;
            if (e == null) {
                synchronized (this) {
                    e = encoder;
                    if (e == null) {
                        e = make.get();
                        encoder = e;
                    }
                }
            }
            return e;
        }

        @Override
        protected Integer knownDimension() {
            return dimension;
        }
    }
}
