package dev.toolscout.embeddings;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.MessageVectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An {@link EmbeddingModel} over one of LangChain4j's in-process ONNX models (the model and its tokenizer
 * ship inside a jar: nothing is downloaded, no network is used). Create one through {@link
 * LocalEmbeddingModels#create(String)}.
 *
 * <p>Queries get the model's query prefix (BGE's retrieval instruction, when configured); documents never
 * do. {@link #modelId()} names the weights and that recipe, so vectors cached under one id never mix with
 * vectors made another way.
 *
 * <p>Input: a {@code null} or blank text is an {@link IllegalArgumentException}, not a vector. A blank text
 * has no meaning to rank by, and the only unit vector we could return for it would be arbitrary yet score
 * like a real one; LangChain4j also refuses it. Text longer than the model's 512-token window is embedded in
 * 510-token windows whose vectors are averaged, weighted by window length (LangChain4j's behaviour).
 *
 * <p>Every vector has length {@link #dimension()} and unit L2 norm (normalized again here, so a change in
 * LangChain4j cannot break the contract silently). Thread-safe: the ONNX session and tokenizer are, and this
 * class holds no mutable state.
 */
public final class OnnxEmbeddingModel implements EmbeddingModel {
    private final String modelId;
    private final int dimension;
    private final String queryPrefix;
    private final dev.langchain4j.model.embedding.EmbeddingModel delegate;
    private final ClauseEncoder clauses;

    OnnxEmbeddingModel(String modelId, int dimension, String queryPrefix, BundledOnnxModels.Loaded loaded) {
        this(
                modelId,
                dimension,
                queryPrefix,
                loaded.model(),
                // the clause encoder reads the message's own characters: a query prefix would shift them
                queryPrefix.isEmpty() ? loaded.clauses() : null);
    }

    /**
     * @param modelId names the weights and the query recipe; change it whenever either changes
     * @param dimension the vector length the model produces
     * @param queryPrefix prepended to every query ({@code ""} for none)
     * @param delegate the LangChain4j model that does the work
     * @param clauses reads clauses from a message's own model call, over the delegate's session; {@code null}:
     *     every clause is embedded alone
     */
    OnnxEmbeddingModel(
            String modelId,
            int dimension,
            String queryPrefix,
            dev.langchain4j.model.embedding.EmbeddingModel delegate,
            ClauseEncoder clauses) {
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got: " + dimension);
        }
        this.dimension = dimension;
        this.queryPrefix = Objects.requireNonNull(queryPrefix, "queryPrefix");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.clauses = clauses;
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    /** The text put before every query ({@code ""} for none). */
    public String queryPrefix() {
        return queryPrefix;
    }

    /**
     * Embeds one query on the calling thread.
     *
     * @throws IllegalArgumentException when {@code text} is null or blank
     */
    @Override
    public float[] embedQuery(String text) {
        requireText(text, "text");
        Embedding e = delegate.embed(queryPrefix + text).content();
        return unit(e.vector(), "query");
    }

    /**
     * Embeds a message and its clauses with one model call where it can: the message's vector is {@link
     * #embedQuery}'s, and each clause's is the mean of the message's token states over the clause (a clause that is
     * not a substring of the message is embedded alone; one ending past the 128 tokens the call reads gets {@code
     * null}, see {@link ClauseEncoder}). Models without a clause encoder (CLS pooling, a query prefix) embed every
     * text alone.
     *
     * @throws IllegalArgumentException when the message or a clause is null or blank
     */
    @Override
    public List<float[]> embedQueries(String message, List<String> clauseTexts) {
        requireText(message, "message");
        Objects.requireNonNull(clauseTexts, "clauses");
        for (int i = 0; i < clauseTexts.size(); i++) {
            requireText(clauseTexts.get(i), "clauses[" + i + "]");
        }
        float[][] read = clauses == null ? null : clauses.embed(message, clauseTexts);
        List<float[]> out = new ArrayList<>(clauseTexts.size() + 1);
        out.add(read == null ? embedQuery(message) : unit(read[0], "query"));
        for (int i = 0; i < clauseTexts.size(); i++) {
            float[] v = read == null ? null : read[i + 1];
            out.add(
                    v == null
                            ? embedQuery(clauseTexts.get(i))
                            : v == ClauseEncoder.PAST ? null : unit(v, "clauses[" + i + "]"));
        }
        return out;
    }

    /**
     * As {@link #embedQueries}, and the message as a document. With no query prefix a query is embedded as a
     * document is (LangChain4j's {@code embedAll} of one text runs its {@code embed} of it, on the calling thread),
     * so the message's query vector is its document vector, bit for bit, from the same model call; with a prefix
     * the document takes a call of its own.
     *
     * @throws IllegalArgumentException when the message or a clause is null or blank
     */
    @Override
    public MessageVectors embedMessage(String message, List<String> clauseTexts) {
        List<float[]> queries = embedQueries(message, clauseTexts);
        float[] document = queryPrefix.isEmpty()
                ? queries.get(0).clone()
                : embedDocuments(List.of(message)).get(0);
        return new MessageVectors(queries, document);
    }

    /**
     * Embeds documents as one LangChain4j {@code embedAll} batch; the result is in input order. An empty list
     * gives an empty list.
     *
     * @throws IllegalArgumentException when a text is null or blank (naming its index); nothing is embedded
     */
    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        Objects.requireNonNull(texts, "texts");
        if (texts.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i);
            requireText(t, "texts[" + i + "]");
            segments.add(TextSegment.from(t));
        }
        List<Embedding> embeddings = delegate.embedAll(segments).content();
        if (embeddings.size() != texts.size()) {
            throw new IllegalStateException(
                    modelId + " returned " + embeddings.size() + " vectors for " + texts.size() + " texts");
        }
        List<float[]> out = new ArrayList<>(embeddings.size());
        for (int i = 0; i < embeddings.size(); i++) {
            out.add(unit(embeddings.get(i).vector(), "texts[" + i + "]"));
        }
        return out;
    }

    private static void requireText(String text, String what) {
        if (text == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException(
                    what + " must not be blank (a blank text has nothing to embed), got: '" + text + "'");
        }
    }

    /** A unit-length copy of {@code v}; fails loudly on a wrong length or a zero or non-finite vector. */
    private float[] unit(float[] v, String what) {
        if (v.length != dimension) {
            throw new IllegalStateException(
                    modelId + " returned a vector of length " + v.length + " for " + what + ", expected " + dimension);
        }
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        double norm = Math.sqrt(sum);
        if (!(norm > 0) || Double.isInfinite(norm)) {
            throw new IllegalStateException(modelId + " returned a vector with norm " + norm + " for " + what);
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / norm);
        }
        return out;
    }

    @Override
    public String toString() {
        return "OnnxEmbeddingModel[" + modelId + "]";
    }
}
