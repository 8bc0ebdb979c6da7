package dev.toolscout.embedding;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns text into unit-length vectors. Implementations are thread-safe. Queries and documents are separate
 * calls because some models (BGE) embed a query with an instruction prefix that documents do not get.
 */
public interface EmbeddingModel {
    /**
     * A stable identifier of the model and its settings (e.g. {@code bge-small-en-v1.5-q}); stored beside
     * every vector so a vector from another model is never mixed in.
     */
    String modelId();

    /** The vector length. */
    int dimension();

    /** Embeds a search query; the result has length {@link #dimension()} and unit L2 norm. */
    float[] embedQuery(String text);

    /**
     * Embeds a message and its clauses (parts of its text, such as {@code QueryClauses} finds): the message's
     * vector first, equal to {@link #embedQuery}'s, then one per clause in order, each unit length. A model may read
     * the clauses from the message's own model call (the default embeds each text alone), so one message costs
     * one call; such a model may read only so much of a long message, and a clause past it gets {@code null}
     * instead of a vector (the ranker then ranks that clause by its words alone). The message's vector is never
     * {@code null}.
     */
    default List<float[]> embedQueries(String message, List<String> clauses) {
        List<float[]> out = new ArrayList<>(clauses.size() + 1);
        out.add(embedQuery(message));
        for (String c : clauses) {
            out.add(embedQuery(c));
        }
        return out;
    }

    /**
     * Embeds a message for a selection and its route at once: {@link #embedQueries}' vectors, and the message as
     * a document ({@link #embedDocuments}' vector). A model whose query vector of a text is its document vector with
     * something applied (a query adapter) or nothing (no query prefix) reads both from one model call; the default
     * makes two.
     */
    default MessageVectors embedMessage(String message, List<String> clauses) {
        return new MessageVectors(
                embedQueries(message, clauses), embedDocuments(List.of(message)).get(0));
    }

    /** Embeds documents in one batch, in order; each result has unit L2 norm. */
    List<float[]> embedDocuments(List<String> texts);
}
