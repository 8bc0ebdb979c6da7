package dev.toolscout.server.http.api;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;

/**
 * A successful answer: a status, a content type and the bytes of the body (none for 204).
 *
 * @param contentType the full header value, e.g. {@code application/json}
 */
public record Reply(int status, String contentType, byte[] body, Streamer streamer) {
  /** Writes a streamed body (server-sent events) as it is made; the status and content type are sent first. */
  @FunctionalInterface
  public interface Streamer {
    void write(java.io.OutputStream out) throws IOException;
  }

  public Reply(int status, String contentType, byte[] body) {
    this(status, contentType, body, null);
  }

  /** 200 with a body written as it is made, e.g. {@code text/event-stream}. */
  public static Reply stream(String contentType, Streamer streamer) {
    return new Reply(200, contentType, new byte[0], streamer);
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
