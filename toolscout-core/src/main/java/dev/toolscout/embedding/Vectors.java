package dev.toolscout.embedding;

/** Arithmetic on embedding vectors. */
public final class Vectors {
    private Vectors() {}

    /** The cosine of two vectors (0 when either is all zeros). */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(
                    "vectors must have the same dimension, got: " + a.length + " and " + b.length);
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}
