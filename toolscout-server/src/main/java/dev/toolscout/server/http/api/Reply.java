package dev.toolscout.server.http.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A successful answer: a status, a content type and the bytes of the body (none for 204).
 *
 * @param contentType the full header value, e.g. {@code application/json}
 */
public record Reply(int status, String contentType, byte[] body, Streamer streamer, Deferred deferred) {
    /** Writes a streamed body (server-sent events) as it is made; the status and content type are sent first. */
    @FunctionalInterface
    public interface Streamer {
        void write(java.io.OutputStream out) throws IOException;
    }

    /**
     * An answer made off the request thread: {@code work} runs on a virtual thread of its own while the HTTP exchange
     * is suspended (the servlet's async mode), so a long one (an agent run waiting for its model) holds no thread of
     * the server's pool; its reply (or problem) is then written as any other. {@code after} runs once when the
     * answer is written or has failed, whatever happened (it frees what the handler took for the work).
     */
    public record Deferred(java.util.function.Supplier<Reply> work, Runnable after) {}

    public Reply(int status, String contentType, byte[] body) {
        this(status, contentType, body, null, null);
    }

    /** 200 with a body written as it is made, e.g. {@code text/event-stream}. */
    public static Reply stream(String contentType, Streamer streamer) {
        return new Reply(200, contentType, new byte[0], streamer, null);
    }

    /** The reply {@code work} makes, off the request thread (see {@link Deferred}). */
    public static Reply deferred(java.util.function.Supplier<Reply> work, Runnable after) {
        return new Reply(0, null, new byte[0], null, new Deferred(work, after));
    }

    public static final String JSON = "application/json";
    public static final String PROBLEM_JSON = "application/problem+json";

    /** 200 with a JSON body. */
    public static Reply json(JsonNode body) {
        return json(200, body);
    }

    public static Reply json(int status, JsonNode body) {
        try {
            return new Reply(status, JSON, Call.JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }

    /** 200 with text of a given type. */
    public static Reply text(String contentType, String body) {
        return new Reply(200, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /** 204: done, nothing to say. */
    public static Reply noContent() {
        return new Reply(204, null, new byte[0]);
    }
}
