package dev.toolscout.embedding;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The stored embedding vectors, keyed by the hash of the text that was embedded and the model id, so an
 * unchanged text is never embedded twice and a vector from another model is never used. Thread-safe.
 */
public interface VectorStore {
    /** The stored vectors of {@code modelId} for these text hashes; hashes with none are left out. */
    Map<String, float[]> loadVectors(String modelId, Collection<String> textHashes);

    /** Stores vectors (replacing any with the same hash and model), durable on return. */
    void saveVectors(String modelId, Map<String, float[]> byTextHash);

    /**
     * The vectors of {@code modelId} for these texts (keyed by text hash): the stored ones, and for the rest what
     * {@code embed} returns for their texts (one vector per text, in order), stored before this returns. This
     * default loads, embeds what is missing and saves it: right for a store only one process writes. A store shared
     * by several processes (PostgreSQL) overrides it so that a text is embedded at most once across all of them.
     */
    default Map<String, float[]> vectors(
            String modelId,
            Map<String, String> textByHash,
            java.util.function.Function<List<String>, List<float[]>> embed) {
        Map<String, float[]> out = new java.util.HashMap<>(loadVectors(modelId, textByHash.keySet()));
        List<String> missing =
                textByHash.keySet().stream().filter(h -> !out.containsKey(h)).toList();
        if (!missing.isEmpty()) {
            List<float[]> vs = embed.apply(missing.stream().map(textByHash::get).toList());
            Map<String, float[]> fresh = new java.util.LinkedHashMap<>();
            for (int i = 0; i < missing.size(); i++) {
                fresh.put(missing.get(i), vs.get(i));
            }
            saveVectors(modelId, fresh);
            out.putAll(fresh);
        }
        return out;
    }
}
