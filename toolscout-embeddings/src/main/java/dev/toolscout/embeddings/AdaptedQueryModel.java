package dev.toolscout.embeddings;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.MessageVectors;
import java.util.List;
import java.util.Objects;

/**
 * A model whose query vectors go through a {@link QueryAdapter}; documents, {@link #modelId()} and {@link
 * #dimension()} are the wrapped model's. Keeping the id is deliberate: the id names the vectors that are
 * stored (documents), which the adapter does not change, so switching the adapter on or off re-embeds nothing.
 * Query vectors are never stored. Thread-safe when the wrapped model is.
 */
final class AdaptedQueryModel implements EmbeddingModel {
    private final EmbeddingModel plain;
    private final QueryAdapter adapter;

    AdaptedQueryModel(EmbeddingModel plain, QueryAdapter adapter) {
        this.plain = Objects.requireNonNull(plain, "plain");
        this.adapter = Objects.requireNonNull(adapter, "adapter");
        if (!adapter.modelId().equals(plain.modelId()) || adapter.dimension() != plain.dimension()) {
            throw new IllegalArgumentException("query adapter for " + adapter.modelId() + " (" + adapter.dimension()
                    + " dimensions) does not fit model " + plain.modelId() + " (" + plain.dimension() + ")");
        }
    }

    QueryAdapter adapter() {
        return adapter;
    }

    @Override
    public String modelId() {
        return plain.modelId();
    }

    @Override
    public int dimension() {
        return plain.dimension();
    }

    /**
     * The wrapped model's vector of the query as it is, adapted and unit length. Numbers are kept: dropping
     * them (the text the bundled adapter was trained on: toolscout-bench's QueryText.withoutNumbers) helped one
     * development set only, toolink's arithmetic questions (docs/FITTED_RULES.md).
     */
    @Override
    public float[] embedQuery(String text) {
        return adapter.apply(plain.embedQuery(text));
    }

    /**
     * The wrapped model's vectors of the message and its clauses, each adapted as {@link #embedQuery} does (a clause
     * the wrapped model gave no vector keeps none).
     */
    @Override
    public List<float[]> embedQueries(String message, List<String> clauses) {
        return adapt(plain.embedQueries(message, clauses));
    }

    private List<float[]> adapt(List<float[]> vectors) {
        List<float[]> out = new java.util.ArrayList<>(vectors.size());
        for (float[] v : vectors) {
            out.add(v == null ? null : adapter.apply(v));
        }
        return out;
    }

    /**
     * The wrapped model's vectors of the message, its clauses and its document vector from one call; the query
     * vectors adapted as {@link #embedQuery} does, the document vector unchanged.
     */
    @Override
    public MessageVectors embedMessage(String message, List<String> clauses) {
        MessageVectors v = plain.embedMessage(message, clauses);
        return new MessageVectors(adapt(v.queries()), v.document());
    }

    /** The wrapped model's document vectors, unchanged. */
    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return plain.embedDocuments(texts);
    }

    @Override
    public String toString() {
        return plain + " + " + adapter;
    }
}
