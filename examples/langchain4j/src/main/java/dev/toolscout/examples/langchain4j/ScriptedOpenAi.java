package dev.toolscout.examples.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * An OpenAI-compatible Chat Completions endpoint on loopback that answers from a script, in the shape the real API
 * answers: each turn first checks the request the client sent (a problem is kept, and answered with HTTP 400), then
 * answers with a tool call or a text. Stands in for a model so that the example runs offline and the same every time.
 */
final class ScriptedOpenAi implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One scripted answer: the check of the request (null when it is as expected) and the answer's message. */
  record Turn(Function<JsonNode, String> check, ObjectNode message) {}

  private final HttpServer server;
  private final Deque<Turn> script = new ArrayDeque<>();
  final List<JsonNode> requests = new ArrayList<>();
  final List<String> problems = new ArrayList<>();

  ScriptedOpenAi() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", this::answer);
    server.start();
  }

  /** The base URL a client is given (it appends /chat/completions). */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** Answers the next request with a call of {@code tool} with {@code arguments}, after {@code check}. */
  ScriptedOpenAi toolCall(String id, String tool, String arguments, Function<JsonNode, String> check) {
    ObjectNode m = JSON.createObjectNode().put("role", "assistant");
    m.putNull("content");
    ObjectNode call = m.putArray("tool_calls").addObject().put("id", id).put("type", "function");
    call.putObject("function").put("name", tool).put("arguments", arguments);
    script.add(new Turn(check, m));
    return this;
  }

  /** Answers the next request with {@code text}, after {@code check}. */
  ScriptedOpenAi text(String text, Function<JsonNode, String> check) {
    script.add(new Turn(check, JSON.createObjectNode().put("role", "assistant").put("content", text)));
    return this;
  }

  private synchronized void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode request;
      try (InputStream in = exchange.getRequestBody()) {
        request = JSON.readTree(in);
      }
      requests.add(request);
      Turn turn = script.poll();
      String problem = turn == null ? "request " + requests.size() + " is past the script" : turn.check().apply(request);
      if (problem == null && !"POST".equals(exchange.getRequestMethod())) {
        problem = "expected a POST, got " + exchange.getRequestMethod();
      }
      if (problem != null) {
        problems.add("request " + requests.size() + ": " + problem);
        ObjectNode error = JSON.createObjectNode();
        error.putObject("error").put("message", problem).put("type", "invalid_request_error");
        send(exchange, 400, error);
        return;
      }
      boolean calls = turn.message().has("tool_calls");
      ObjectNode response = JSON.createObjectNode()
          .put("id", "chatcmpl-" + requests.size())
          .put("object", "chat.completion")
          .put("created", 1_765_000_000L)
          .put("model", request.path("model").asText());
      ArrayNode choices = response.putArray("choices");
      choices.addObject()
          .put("index", 0)
          .put("finish_reason", calls ? "tool_calls" : "stop")
          .set("message", turn.message());
      response.putObject("usage").put("prompt_tokens", 100).put("completion_tokens", 10).put("total_tokens", 110);
      send(exchange, 200, response);
    }
  }

  private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** The names of the tools a request carried. */
  static List<String> tools(JsonNode request) {
    List<String> names = new ArrayList<>();
    request.path("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
    return names;
  }

  /** The request's last message. */
  static JsonNode last(JsonNode request) {
    JsonNode messages = request.path("messages");
    return messages.path(messages.size() - 1);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
