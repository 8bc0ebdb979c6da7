package dev.toolscout.embedding;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A message's vectors from one {@link EmbeddingModel#embedMessage} call.
 *
 * @param queries the message's query vector first, then one per clause ({@code null} for a clause the model read no
 *     vector for), as {@link EmbeddingModel#embedQueries}
 * @param document the message embedded as a document, as {@link EmbeddingModel#embedDocuments} would (the router's
 *     vector: compared like for like with stored documents and memories)
 */
public record MessageVectors(List<float[]> queries, float[] document) {
    public MessageVectors {
        // a copy that may hold null (a clause without a vector), which List.copyOf refuses
        queries = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(queries, "queries")));
        Objects.requireNonNull(document, "document");
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("queries must hold at least the message's vector, got none");
        }
        Objects.requireNonNull(queries.get(0), "queries[0] (the message's vector)");
    }
}
