package dev.toolscout.embeddings;

/** Vector arithmetic for the embedding tests. */
final class TestVectors {
    private TestVectors() {}

    static double norm(float[] v) {
        return Math.sqrt(dot(v, v));
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }
}
