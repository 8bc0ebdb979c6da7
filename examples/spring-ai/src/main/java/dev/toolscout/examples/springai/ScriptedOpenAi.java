package dev.toolscout.examples.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An OpenAI-compatible Chat Completions endpoint on loopback that plays a model by a fixed script, decided by the
 * request it answers: a user's message is answered with a call of the search tool; the search's answer with a call
 * of the echo tool it found (or, when none was found, a text naming what was); any other tool's answer with a text
 * quoting it. It keeps every request, so the example can check what the model was sent.
 */
final class ScriptedOpenAi implements AutoCloseable {
    static final String SEARCH_TOOL = "tool_discovery__find";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());

    private ScriptedOpenAi(HttpServer server) {
        this.server = server;
    }

    static ScriptedOpenAi start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ScriptedOpenAi fake = new ScriptedOpenAi(server);
        server.createContext("/", fake::handle);
        server.start();
        return fake;
    }

    /** The base URL to give the OpenAI client ({@code spring.ai.openai.base-url}). */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            if (!ex.getRequestMethod().equals("POST") || !ex.getRequestURI().getPath().endsWith("/chat/completions")) {
                send(ex, 404, "{\"error\": {\"message\": \"no such route: " + ex.getRequestURI().getPath() + "\"}}");
                return;
            }
            JsonNode request = JSON.readTree(ex.getRequestBody());
            requests.add(request);
            send(ex, 200, JSON.writeValueAsString(answer(request)));
        } catch (RuntimeException e) {
            send(ex, 500, "{\"error\": {\"message\": \"" + e + "\"}}");
        }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The scripted reply to {@code request}. */
    private ObjectNode answer(JsonNode request) throws IOException {
        JsonNode messages = request.path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        String role = last.path("role").asText();
        if (role.equals("user")) {
            String text = text(last);
            String query = text.contains("vault") ? "read a secret from the vault" : "echo a message back";
            return toolCall(SEARCH_TOOL, JSON.createObjectNode().put("query", query));
        }
        if (role.equals("tool")) {
            String content = text(last);
            if (calledTool(messages, last.path("tool_call_id").asText()).equals(SEARCH_TOOL)) {
                List<String> found = new ArrayList<>();
                JSON.readTree(content).path("tools").forEach(t -> found.add(t.path("name").asText()));
                for (String name : found) {
                    if (name.endsWith("__echo")) {
                        return toolCall(name, JSON.createObjectNode().put("message", "hello from spring ai"));
                    }
                }
                return text("Found: " + String.join(", ", found));
            }
            return text("The upstream said: " + content);
        }
        return text("I cannot tell what to do with a " + role + " message");
    }

    /** The name of the tool the assistant called with {@code id}. */
    private static String calledTool(JsonNode messages, String id) {
        for (JsonNode m : messages) {
            for (JsonNode call : m.path("tool_calls")) {
                if (call.path("id").asText().equals(id)) {
                    return call.path("function").path("name").asText();
                }
            }
        }
        return "";
    }

    /** A message's text: a string, or the text parts of a list of parts. */
    static String text(JsonNode message) {
        JsonNode c = message.path("content");
        if (c.isTextual()) {
            return c.asText();
        }
        StringBuilder sb = new StringBuilder();
        c.forEach(part -> sb.append(part.path("text").asText()));
        return sb.toString();
    }

    /** The names of the tools {@code request} carried. */
    static List<String> tools(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.path("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
        return names;
    }

    private int calls;

    private synchronized ObjectNode toolCall(String name, ObjectNode arguments) {
        ObjectNode message = JSON.createObjectNode().put("role", "assistant").putNull("content");
        message.putArray("tool_calls")
                .addObject()
                .put("id", "call_" + (++calls))
                .put("type", "function")
                .putObject("function")
                .put("name", name)
                .put("arguments", arguments.toString());
        return completion(message, "tool_calls");
    }

    private ObjectNode text(String content) {
        return completion(JSON.createObjectNode().put("role", "assistant").put("content", content), "stop");
    }

    private static ObjectNode completion(ObjectNode message, String finishReason) {
        ObjectNode c = JSON.createObjectNode()
                .put("id", "chatcmpl-scripted")
                .put("object", "chat.completion")
                .put("created", 1_765_000_000L)
                .put("model", "scripted-model");
        c.putArray("choices")
                .addObject()
                .put("index", 0)
                .put("finish_reason", finishReason)
                .set("message", message);
        c.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
        return c;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
