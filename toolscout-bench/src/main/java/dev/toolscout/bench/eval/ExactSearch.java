package dev.toolscout.bench.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Brute-force nearest neighbours by dot product (cosine for unit vectors): the reference every approximate
 * index is measured against. Ties are broken by key, ascending, so results are deterministic. Immutable and
 * thread-safe.
 */
public final class ExactSearch {
    private final List<String> keys;
    private final float[][] vectors;

    /**
     * @param keys a tie-break key per vector (the tool's wire name)
     * @param vectors one vector per key, all the same length
     */
    public ExactSearch(List<String> keys, List<float[]> vectors) {
        if (keys.size() != vectors.size()) {
            throw new IllegalArgumentException(
                    "keys and vectors must have the same size, got: " + keys.size() + " and " + vectors.size());
        }
        this.keys = List.copyOf(keys);
        this.vectors = vectors.toArray(new float[0][]);
        for (int i = 0; i < this.vectors.length; i++) {
            if (this.vectors[i].length != this.vectors[0].length) {
                throw new IllegalArgumentException("vector " + i + " has length " + this.vectors[i].length
                        + ", expected " + this.vectors[0].length);
            }
        }
    }

    public int size() {
        return vectors.length;
    }

    /** The indices of the {@code k} best vectors for {@code query}, best first. */
    public List<Integer> topK(float[] query, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got: " + k);
        }
        float[] scores = new float[vectors.length];
        for (int i = 0; i < vectors.length; i++) {
            scores[i] = dot(query, vectors[i]);
        }
        Comparator<Integer> better =
                Comparator.<Integer>comparingDouble(i -> -scores[i]).thenComparing(keys::get);
        // a min-heap of the best k seen so far: its head is the worst of them
        PriorityQueue<Integer> heap = new PriorityQueue<>(k + 1, better.reversed());
        for (int i = 0; i < vectors.length; i++) {
            if (heap.size() < k) {
                heap.add(i);
            } else if (better.compare(i, heap.peek()) < 0) {
                heap.poll();
                heap.add(i);
            }
        }
        List<Integer> out = new ArrayList<>(heap);
        out.sort(better);
        return Collections.unmodifiableList(out);
    }

    private static float dot(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("query has length " + a.length + ", vectors have length " + b.length);
        }
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
