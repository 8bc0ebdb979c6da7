package dev.toolscout.embeddings;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A linear map applied to query vectors only: {@code q' = normalize(q + beta * D q)}, D being {@code W - I} (a
 * {@code dimension x dimension} matrix learned so that queries land nearer their tools; see {@code
 * dev.toolscout.bench.eval.QueryAdapterTrainer} and docs/EVALUATION.md). Document vectors never go through
 * it, so vectors stored under the model's id stay valid with or without an adapter.
 *
 * <p>File format ({@code .adapter}, big-endian, version {@value #FORMAT_VERSION}): the 8 ASCII bytes {@code
 * TSQADAPT}; int format version; the model id and a provenance text (how it was trained: data, its SHA-256,
 * every parameter), each as a {@link DataOutputStream#writeUTF} string, readable with {@code strings}; int
 * dimension; double beta; {@code dimension * dimension} float32 of D, row-major; then the SHA-256 of every
 * preceding byte. A file that is truncated, altered or for another model or dimension is refused with a message
 * naming the file and the problem.
 *
 * <p>Immutable and thread-safe. {@link #apply} costs one {@code dimension^2} matrix-vector product: at 384, about
 * 17 us once the JIT's optimizing compiler has it (54 us four rows at a time before), 130 us under the client
 * compiler alone (a one-shot command's JVM); the matrix is held twice (row- and column-major, 1.2 MB at 384).
 */
public final class QueryAdapter {
    /** The version of the file format written by {@link #toBytes()}. */
    public static final int FORMAT_VERSION = 1;

    private static final byte[] MAGIC = "TSQADAPT".getBytes(StandardCharsets.US_ASCII);
    private static final int SHA_LENGTH = 32;
    private static final int MAX_DIMENSION = 4096;

    private final String modelId;
    private final String provenance;
    private final int dimension;
    private final double beta;
    private final float[] delta;
    /** {@code delta} column-major: {@link #apply} reads it column by column. */
    private final float[] columns;

    private QueryAdapter(String modelId, String provenance, int dimension, double beta, float[] delta) {
        this.modelId = modelId;
        this.provenance = provenance;
        this.dimension = dimension;
        this.beta = beta;
        this.delta = delta;
        this.columns = new float[delta.length];
        for (int i = 0; i < dimension; i++) {
            for (int j = 0; j < dimension; j++) {
                columns[j * dimension + i] = delta[i * dimension + j];
            }
        }
    }

    /**
     * An adapter from its parts.
     *
     * @param delta {@code W - I}, row-major, {@code dimension * dimension} finite values (copied)
     * @throws IllegalArgumentException when a part is missing or out of range, naming it
     */
    public static QueryAdapter of(String modelId, int dimension, double beta, float[] delta, String provenance) {
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(provenance, "provenance");
        Objects.requireNonNull(delta, "delta");
        if (dimension < 1 || dimension > MAX_DIMENSION) {
            throw new IllegalArgumentException(
                    "dimension must be between 1 and " + MAX_DIMENSION + ", got: " + dimension);
        }
        if (!Double.isFinite(beta)) {
            throw new IllegalArgumentException("beta must be finite, got: " + beta);
        }
        if (delta.length != dimension * dimension) {
            throw new IllegalArgumentException(
                    "delta must have dimension^2 = " + dimension * dimension + " values, got: " + delta.length);
        }
        for (int i = 0; i < delta.length; i++) {
            if (!Float.isFinite(delta[i])) {
                throw new IllegalArgumentException("delta[" + i + "] must be finite, got: " + delta[i]);
            }
        }
        return new QueryAdapter(modelId, provenance, dimension, beta, delta.clone());
    }

    /**
     * Reads an adapter file.
     *
     * @param source names the file in error messages (a path or a resource name)
     * @throws IllegalArgumentException when the bytes are not a valid adapter file; the message starts with
     *     {@code source} and says what is wrong
     */
    public static QueryAdapter parse(byte[] bytes, String source) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < MAGIC.length + Integer.BYTES + SHA_LENGTH
                || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw bad(source, "not a query adapter file (no 'TSQADAPT' header; " + bytes.length + " bytes)");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        in.position(MAGIC.length);
        int version = in.getInt();
        if (version != FORMAT_VERSION) {
            throw bad(
                    source,
                    "format version " + version + " is not supported (this build reads " + FORMAT_VERSION + ")");
        }
        byte[] stored = Arrays.copyOfRange(bytes, bytes.length - SHA_LENGTH, bytes.length);
        byte[] actual = sha256(bytes, bytes.length - SHA_LENGTH);
        if (!MessageDigest.isEqual(stored, actual)) {
            throw bad(
                    source,
                    "checksum mismatch (SHA-256 of the content is "
                            + HexFormat.of().formatHex(actual) + ", the file records "
                            + HexFormat.of().formatHex(stored) + "): truncated or corrupted");
        }
        try {
            String modelId = utf(in);
            String provenance = utf(in);
            int dimension = in.getInt();
            if (dimension < 1 || dimension > MAX_DIMENSION) {
                throw bad(source, "dimension must be between 1 and " + MAX_DIMENSION + ", got: " + dimension);
            }
            double beta = in.getDouble();
            long expected = (long) dimension * dimension * Float.BYTES;
            long remaining = in.remaining() - SHA_LENGTH;
            if (remaining != expected) {
                throw bad(
                        source,
                        "expected " + expected + " bytes of matrix for dimension " + dimension + ", found "
                                + remaining);
            }
            float[] delta = new float[dimension * dimension];
            in.asFloatBuffer().get(delta);
            return of(modelId, dimension, beta, delta, provenance);
        } catch (BufferUnderflowException e) {
            throw bad(source, "file ends inside the header");
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("query adapter ")) {
                throw e;
            }
            throw bad(source, e.getMessage());
        }
    }

    /** The file bytes (format above); {@code parse(toBytes(), ...)} gives an equal adapter. */
    public byte[] toBytes() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(delta.length * Float.BYTES + 4096);
        try (DataOutputStream out = new DataOutputStream(buf)) {
            out.write(MAGIC);
            out.writeInt(FORMAT_VERSION);
            out.writeUTF(modelId);
            out.writeUTF(provenance);
            out.writeInt(dimension);
            out.writeDouble(beta);
            for (float v : delta) {
                out.writeFloat(v);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        byte[] body = buf.toByteArray();
        byte[] all = Arrays.copyOf(body, body.length + SHA_LENGTH);
        System.arraycopy(sha256(body, body.length), 0, all, body.length, SHA_LENGTH);
        return all;
    }

    /**
     * The adapted query: {@code normalize(q + beta * D q)}, products accumulated in double. {@code
     * ThreeListSweep}, whose figures chose the adapter, calls this same method.
     *
     * @param q a query vector of length {@link #dimension()} (normally unit length)
     * @return a new unit-length vector
     * @throws IllegalArgumentException when {@code q} has another length
     */
    public float[] apply(float[] q) {
        if (q.length != dimension) {
            throw new IllegalArgumentException(
                    "query vector must have the adapter's dimension " + dimension + ", got: " + q.length);
        }
        // column by column: every row's sum moves on at each column, so the inner loop is over independent sums in
        // adjacent memory (the JIT compiles it to vector instructions: 3-6 times faster than four rows at a time,
        // which mattered once a selection adapted eight clause vectors); each row's sum is still taken in column
        // order, so every result is the one a row-by-row loop gives, bit for bit
        double[] s = new double[dimension];
        for (int j = 0; j < dimension; j++) {
            float x = q[j];
            int column = j * dimension;
            for (int i = 0; i < dimension; i++) {
                s[i] += columns[column + i] * x;
            }
        }
        float[] u = new float[dimension];
        double norm = 0;
        for (int i = 0; i < dimension; i++) {
            u[i] = (float) (q[i] + beta * s[i]);
            norm += u[i] * (double) u[i];
        }
        if (!(norm > 0) || Double.isInfinite(norm)) {
            throw new IllegalStateException(
                    "query adapter for " + modelId + " produced a vector with squared norm " + norm);
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < dimension; i++) {
            u[i] *= inv;
        }
        return u;
    }

    /** The embedding model whose query vectors this adapter was trained on. */
    public String modelId() {
        return modelId;
    }

    /** How the adapter was made: data, its hash, every training parameter. */
    public String provenance() {
        return provenance;
    }

    public int dimension() {
        return dimension;
    }

    /** The scale of the learned correction ({@code 1} applies W as trained). */
    public double beta() {
        return beta;
    }

    /** The Frobenius norm of {@code W - I}: how far the adapter moves queries (0 = no change). */
    public double deltaNorm() {
        double s = 0;
        for (float v : delta) {
            s += (double) v * v;
        }
        return Math.sqrt(s);
    }

    @Override
    public String toString() {
        return "QueryAdapter[" + modelId + ", " + dimension + " dimensions, beta " + beta + "]";
    }

    private static String utf(ByteBuffer in) {
        int len = Short.toUnsignedInt(in.getShort());
        byte[] b = new byte[len];
        in.get(b);
        // writeUTF writes modified UTF-8; our texts hold no NUL or supplementary characters, where the two agree
        return new String(b, StandardCharsets.UTF_8);
    }

    private static IllegalArgumentException bad(String source, String problem) {
        return new IllegalArgumentException("query adapter " + source + ": " + problem);
    }

    private static byte[] sha256(byte[] bytes, int length) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(bytes, 0, length);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
