package dev.toolscout.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Stored vector bytes: float32 values, little-endian, nothing else (the dimension is a column of its own).
 * Bit-exact: raw float bits are copied, so -0.0 and NaN come back as they went in. Stateless, thread-safe.
 */
public final class VectorCodec {
    private VectorCodec() {}

    public static byte[] encode(float[] vector) {
        ByteBuffer buf = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(vector);
        return buf.array();
    }

    /**
     * Decodes {@code bytes} as {@code dimension} floats.
     *
     * @throws IllegalArgumentException when the byte length is not {@code dimension * 4}
     */
    public static float[] decode(byte[] bytes, int dimension) {
        if (dimension < 1 || bytes.length != (long) dimension * Float.BYTES) {
            throw new IllegalArgumentException("vector bytes must hold dimension * 4 bytes (dimension " + dimension
                    + ", so " + (long) dimension * Float.BYTES + "), got: " + bytes.length);
        }
        float[] out = new float[dimension];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
        return out;
    }
}
