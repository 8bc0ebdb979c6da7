package dev.toolscout.indexing;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.VectorStore;
import dev.toolscout.model.Hashing;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * The embed and store steps every indexer shares: a text's vector is looked up in the store by the text's
 * SHA-256 and the model id, and only texts with no stored vector are embedded, {@value #BATCH} at a time, and
 * stored before they are used ({@link VectorStore#vectors}: a store shared by replicas embeds a text at most once
 * across them). So an unchanged text is never embedded twice, by this process, a restart or
 * (with a shared store) another replica, and a vector of another model is never mixed in.
 *
 * <p>Thread-safe (the store and the model are).
 */
public final class CachedEmbeddings {
    /** Texts per embedding call: large enough to amortize the model call, small enough for progress. */
    public static final int BATCH = 64;

    private final VectorStore store;
    private final EmbeddingModel model;
    private final AtomicLong embedded = new AtomicLong();

    public CachedEmbeddings(VectorStore store, EmbeddingModel model) {
        this.store = store;
        this.model = model;
    }

    /** The key a text's vector is stored under (with the model id). */
    public static String hash(String text) {
        return Hashing.sha256Hex(text);
    }

    public String modelId() {
        return model.modelId();
    }

    /** How many texts were sent to the model since this was made. */
    public long embeddedCount() {
        return embedded.get();
    }

    /**
     * The vector of every text, by its {@link #hash}: stored ones read, the rest embedded in batches and stored
     * (durable) before this returns.
     *
     * @param progress told the number of texts embedded so far by this call after each batch; may be a no-op
     */
    public Map<String, float[]> vectors(Collection<String> texts, IntConsumer progress) {
        Map<String, String> textByHash = new LinkedHashMap<>();
        for (String t : texts) {
            textByHash.putIfAbsent(hash(t), t);
        }
        Map<String, float[]> vectors = new HashMap<>(store.loadVectors(model.modelId(), textByHash.keySet()));
        List<String> missing = new ArrayList<>();
        for (String h : textByHash.keySet()) {
            if (!vectors.containsKey(h)) {
                missing.add(h);
            }
        }
        // a batch at a time, each stored before the next is embedded (an interrupted run keeps what it embedded); the
        // store embeds only what it holds no vector for by then (shared by replicas: what no other one is embedding)
        int[] done = {0};
        for (int from = 0; from < missing.size(); from += BATCH) {
            Map<String, String> batch = new LinkedHashMap<>();
            for (String h : missing.subList(from, Math.min(missing.size(), from + BATCH))) {
                batch.put(h, textByHash.get(h));
            }
            vectors.putAll(store.vectors(model.modelId(), batch, todo -> {
                List<float[]> out = model.embedDocuments(todo);
                embedded.addAndGet(todo.size());
                done[0] += todo.size();
                progress.accept(done[0]);
                return out;
            }));
        }
        return vectors;
    }
}
