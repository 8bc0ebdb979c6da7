package dev.toolscout.indexing;

import dev.toolscout.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic bag-of-words embedding for tests that need vectors but no ONNX model: each word (as
 * {@link ToolText#splitIdentifier} splits it) adds +1 or -1 to one hashed coordinate, and the sum is
 * normalized to unit length. Texts that share words are similar; texts that share none are near
 * orthogonal (up to hash collisions, fewer with a larger dimension). Thread-safe.
 */
public final class HashingEmbeddingModel implements EmbeddingModel {
    private final int dimension;

    public HashingEmbeddingModel(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got: " + dimension);
        }
        this.dimension = dimension;
    }

    @Override
    public String modelId() {
        return "hashing-" + dimension;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public float[] embedQuery(String text) {
        return embed(text);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            out.add(embed(t));
        }
        return out;
    }

    private float[] embed(String text) {
        float[] v = new float[dimension];
        for (String word : ToolText.splitIdentifier(text).split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            int h = mix(word.hashCode()); // String.hashCode is specified, so vectors are stable across JVMs
            v[Math.floorMod(h, dimension)] += (h & 0x4000_0000) == 0 ? 1 : -1;
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm == 0) {
            v[0] = 1; // no words (or words that cancel out): still a unit vector
            return v;
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
        return v;
    }

    /** MurmurHash3's finalizer: spreads similar hash codes over all bits. */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85eb_ca6b;
        h ^= h >>> 13;
        h *= 0xc2b2_ae35;
        h ^= h >>> 16;
        return h;
    }
}
