package dev.toolscout.embedding;

import java.util.List;
import java.util.Objects;

/**
 * A message's vectors from one {@link EmbeddingModel#embedMessage} call.
 *
 * @param queries the message's query vector first, then one per clause, as {@link EmbeddingModel#embedQueries}
 * @param document the message embedded as a document, as {@link EmbeddingModel#embedDocuments} would (the router's
 *     vector: compared like for like with stored documents and memories)
 */
public record MessageVectors(List<float[]> queries, float[] document) {
  public MessageVectors {
    queries = List.copyOf(Objects.requireNonNull(queries, "queries"));
    Objects.requireNonNull(document, "document");
    if (queries.isEmpty()) {
      throw new IllegalArgumentException("queries must hold at least the message's vector, got none");
    }
  }
}
