package dev.toolscout.selection;

import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.conversation.Conversation;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.MessageVectors;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import java.util.List;
import java.util.Objects;

/**
 * One request's context, built once and handed from step to step: route, select, cost. It holds the message, the
 * principal, the conversation (null outside one), the catalog snapshot and the principal's allowed set in it (taken
 * once, so every step sees the same catalog), and the message's vectors, embedded at most once each: the
 * selection's ranking embeds the message with the clauses it ranks ({@link EmbeddingModel#embedMessage} when a route
 * follows, so the router reads the message's document vector from that same model call), and a step that needs a
 * vector nobody embedded yet embeds it then.
 *
 * <p>Not thread-safe: one request, on one thread at a time.
 */
public final class RequestContext {
    private final String message;
    private final Principal principal;
    private final Conversation conversation;
    private final Catalog.Snapshot snapshot;
    private final AllowedSet allowed;
    private final EmbeddingModel model;
    private final boolean routed;
    /** The query vectors the ranking embedded (the message's first, then its clauses'), or null. */
    private List<float[]> ranked;
    /** The searched message's document vector, from the ranking's model call, or null. */
    private float[] rankedDocument;
    /** The whole message's document vector, embedded for the router when the ranking's could not serve. */
    private float[] document;
    /** The whole message's query vector, when the ranking's could not serve (embedded on its own). */
    private float[] query;
    /** Whether the ranking's lexical search of the message found a rankable tool; null when it searched none. */
    private Boolean wordsMatch;

    private RequestContext(
            String message,
            Principal principal,
            Conversation conversation,
            Catalog.Snapshot snapshot,
            AllowedSet allowed,
            EmbeddingModel model,
            boolean routed) {
        this.message = message;
        this.principal = principal;
        this.conversation = conversation;
        this.snapshot = snapshot;
        this.allowed = allowed;
        this.model = model;
        this.routed = routed;
    }

    /**
     * A request's context: takes the catalog's snapshot and {@code principal}'s allowed set in it now.
     *
     * @param conversation the conversation the request belongs to, or {@code null}
     * @param routed whether a route is decided for the message too: the selection's model call then also embeds the
     *     message as a document, the router's vector
     * @throws IllegalArgumentException for a blank message or one over {@link InputLimits#MAX_REQUEST_MESSAGE_CHARS}
     */
    public static RequestContext of(
            String message,
            Principal principal,
            Conversation conversation,
            Catalog catalog,
            AccessControl access,
            EmbeddingModel model,
            boolean routed) {
        Objects.requireNonNull(principal, "principal");
        InputLimits.checkRequestMessage(message);
        Catalog.Snapshot snap = catalog.snapshot();
        return new RequestContext(
                message,
                principal,
                conversation,
                snap,
                access.allowed(snap, principal),
                Objects.requireNonNull(model, "model"),
                routed);
    }

    /** The message as the request gave it. */
    public String message() {
        return message;
    }

    /**
     * The message as it is embedded and searched: stripped, and cut to {@link Selector#MAX_MESSAGE_CHARS}.
     */
    public String searched() {
        return Shortened.rankedPart(message);
    }

    /** Whether the message is searched whole (not cut to {@link Selector#MAX_MESSAGE_CHARS}). */
    public boolean whole() {
        return shortened() == null;
    }

    /** How the message was shortened for the ranking and the router, or {@code null} when they read it whole. */
    public Shortened shortened() {
        return Shortened.of(message);
    }

    public Principal principal() {
        return principal;
    }

    /** The conversation the request belongs to, or {@code null}. */
    public Conversation conversation() {
        return conversation;
    }

    /** The catalog as this request sees it, in every step. */
    public Catalog.Snapshot snapshot() {
        return snapshot;
    }

    /** What {@link #principal()} may see in {@link #snapshot()}. */
    public AllowedSet allowed() {
        return allowed;
    }

    /**
     * The ranking's vectors of {@code searched} and {@code clauses} (as {@link EmbeddingModel#embedQueries}: the
     * message's first), embedded here and kept; with a route to follow, from {@link EmbeddingModel#embedMessage},
     * whose document vector the router then reads.
     */
    List<float[]> rankingVectors(String searched, List<String> clauses) {
        if (routed) {
            MessageVectors v = model.embedMessage(searched, clauses);
            rankedDocument = v.document();
            ranked = v.queries();
        } else {
            ranked = model.embedQueries(searched, clauses);
        }
        return ranked;
    }

    /** The message's query vector as the ranking embedded it (of the searched message), or {@code null}. */
    float[] rankedQuery() {
        return ranked == null || ranked.isEmpty() ? null : ranked.get(0);
    }

    /** Records what the ranking's lexical search of the searched message found. */
    void wordsMatched(boolean found) {
        wordsMatch = found;
    }

    /**
     * Whether the ranking's lexical search of the whole message found a rankable tool (a visible one), so a word of
     * the message is known to match a visible tool; {@code false} says nothing (no search, none found, or a cut
     * message, whose search was not of the whole). The router then does not search again: it did in 58 of 231 JFR
     * samples of select on toollens.
     */
    public boolean wordsKnownToMatch() {
        return wordsMatch != null && wordsMatch && whole();
    }

    /**
     * The searched message's document vector (the router's, compared like for like with stored documents): the
     * ranking's when its model call embedded one, so one model call per message serves both; else (nothing visible
     * to rank, a lexical-only ranking) embedded now, once. Of the part the ranking reads ({@link #searched()}), so a
     * message with a pasted document costs the router no more than the ranking.
     */
    public float[] documentVector() {
        if (rankedDocument != null) {
            return rankedDocument;
        }
        if (document == null) {
            document = model.embedDocuments(List.of(searched())).get(0);
        }
        return document;
    }

    /**
     * The searched message's query vector: the ranking's when a routed ranking embedded it, else embedded now
     * (once).
     */
    public float[] queryVector() {
        float[] r = routed ? rankedQuery() : null;
        if (r != null) {
            return r;
        }
        if (query == null) {
            query = model.embedQuery(searched());
        }
        return query;
    }
}
