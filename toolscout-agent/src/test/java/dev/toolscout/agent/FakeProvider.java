package dev.toolscout.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * A local LLM provider for tests: a JDK {@link HttpServer} that answers Anthropic's {@code POST /v1/messages} and
 * OpenAI's {@code POST /v1/chat/completions} with the recorded wire fixtures in {@code fixtures/} (JSON, or SSE
 * when the request asks {@code "stream": true}), in the order the test scripted them, and keeps every request
 * body it got. An unscripted request is answered 500 with a body saying so (the test then fails on it).
 * Thread-safe.
 */
public final class FakeProvider implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One scripted answer: a fixture (without its extension) and what fills its placeholders. */
    public record Reply(int status, String fixture, Map<String, String> values) {}

    private final HttpServer server;
    private final Deque<Reply> script = new ArrayDeque<>();
    private final List<JsonNode> requests = new ArrayList<>();
    private final List<Map<String, List<String>>> headers = new ArrayList<>();
    private int toolIds;

    public FakeProvider() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    /** The base URL to configure: {@code http://127.0.0.1:PORT/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The model calls {@code tool} with {@code argsJson} (Anthropic tool_use / OpenAI tool_calls). */
    public synchronized FakeProvider toolCall(String provider, String tool, String argsJson) {
        String id = (provider.equals("anthropic") ? "toolu_01" : "call_") + "T1x1fJ34qAmk2tNTrN7U" + (++toolIds);
        script.add(new Reply(
                200,
                provider + "/" + (provider.equals("anthropic") ? "tool_use" : "tool_call"),
                Map.of("ID", id, "TOOL", tool, "ARGS_JSON", argsJson, "ARGS_STRING", escape(argsJson))));
        return this;
    }

    /** The model answers with text and ends its turn. */
    public synchronized FakeProvider text(String provider, String text) {
        script.add(new Reply(200, provider + "/text", Map.of("TEXT_STRING", escape(text))));
        return this;
    }

    /** The provider answers {@code status} with its error body {@code fixture} (e.g. {@code rate_limit}). */
    public synchronized FakeProvider error(String provider, int status, String fixture) {
        script.add(new Reply(status, provider + "/" + fixture, Map.of()));
        return this;
    }

    /** Every request body received, in order. */
    public synchronized List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    /** The headers of every request received, in order. */
    public synchronized List<Map<String, List<String>>> headers() {
        return List.copyOf(headers);
    }

    /** How many scripted answers are left. */
    public synchronized int remaining() {
        return script.size();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            JsonNode body;
            try (InputStream in = ex.getRequestBody()) {
                body = JSON.readTree(in.readAllBytes());
            }
            Reply r;
            synchronized (this) {
                requests.add(body);
                headers.add(Map.copyOf(ex.getRequestHeaders()));
                r = script.poll();
            }
            if (r == null) {
                send(
                        ex,
                        500,
                        "application/json",
                        "{\"error\":{\"message\":\"FakeProvider: no scripted answer left for " + ex.getRequestURI()
                                + "\"}}");
                return;
            }
            boolean stream = body.path("stream").asBoolean(false) && r.status() == 200;
            String text = fixture(r.fixture() + (stream ? ".sse" : ".json"));
            for (Map.Entry<String, String> e : r.values().entrySet()) {
                text = text.replace("${" + e.getKey() + "}", e.getValue());
            }
            if (r.status() == 429) {
                ex.getResponseHeaders().add("retry-after", "0");
            }
            send(ex, r.status(), stream ? "text/event-stream" : "application/json", text);
        }
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    static String fixture(String path) {
        try (InputStream in = FakeProvider.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code s} as the contents of a JSON string. */
    static String escape(String s) {
        try {
            String quoted = JSON.writeValueAsString(s);
            return quoted.substring(1, quoted.length() - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
