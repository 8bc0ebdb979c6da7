package dev.toolscout.agent.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small pet store over HTTP on a loopback port, under {@code /v1}: list pets ({@code limit}), get one by id,
 * create one (a JSON body, only with {@code Authorization: Bearer <token>}), delete one (authorized too), and a
 * few misbehaving endpoints (one that echoes the request headers, one with a 2 MB answer, one that redirects to
 * another host). It records each request's method, raw path and query, and headers, for the tests to check what
 * was sent.
 */
final class PetstoreServer implements AutoCloseable {
    static final String TOKEN = "s3cret-Token-0123456789";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as it arrived. */
    record Seen(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, String body) {
        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    private final Map<Long, ObjectNode> pets = new TreeMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    final List<Seen> seen = new CopyOnWriteArrayList<>();

    PetstoreServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        for (String name : List.of("Rex", "Tom", "Bella")) {
            long id = nextId.getAndIncrement();
            pets.put(id, JSON.createObjectNode().put("id", id).put("name", name));
        }
        server.start();
    }

    /** {@code http://127.0.0.1:<port>/v1}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private synchronized void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = ex.getRequestURI().getRawPath();
            seen.add(new Seen(
                    ex.getRequestMethod(),
                    path,
                    ex.getRequestURI().getRawQuery(),
                    Map.copyOf(ex.getRequestHeaders()),
                    body));
            String method = ex.getRequestMethod();
            boolean authorized =
                    ("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"));
            if (path.equals("/v1/pets") && method.equals("GET")) {
                int limit = Integer.MAX_VALUE;
                String q = ex.getRequestURI().getRawQuery();
                if (q != null && q.startsWith("limit=")) {
                    limit = Integer.parseInt(q.substring(6).split("&")[0]);
                }
                ArrayNode out = JSON.createArrayNode();
                pets.values().stream().limit(limit).forEach(out::add);
                send(ex, 200, out);
            } else if (path.equals("/v1/pets") && method.equals("POST")) {
                if (!authorized) {
                    send(ex, 401, JSON.createObjectNode().put("message", "missing or wrong bearer token"));
                    return;
                }
                JsonNode in = JSON.readTree(body);
                if (!in.path("name").isTextual()) {
                    send(ex, 400, JSON.createObjectNode().put("message", "name is required"));
                    return;
                }
                long id = nextId.getAndIncrement();
                ObjectNode pet = JSON.createObjectNode()
                        .put("id", id)
                        .put("name", in.get("name").asText());
                if (in.has("tag")) {
                    pet.set("tag", in.get("tag"));
                }
                pets.put(id, pet);
                send(ex, 201, pet);
            } else if (path.startsWith("/v1/pets/") && path.indexOf('/', 9) < 0) {
                String id = path.substring(9);
                ObjectNode pet = id.matches("\\d+") ? pets.get(Long.parseLong(id)) : null;
                if (pet == null) {
                    send(ex, 404, JSON.createObjectNode().put("message", "no pet with id " + id));
                } else if (method.equals("DELETE")) {
                    if (!authorized) {
                        send(ex, 401, JSON.createObjectNode().put("message", "missing or wrong bearer token"));
                        return;
                    }
                    pets.remove(Long.parseLong(id));
                    ex.sendResponseHeaders(204, -1);
                } else {
                    send(ex, 200, pet);
                }
            } else if (path.equals("/v1/echo")) {
                ObjectNode out = JSON.createObjectNode();
                ex.getRequestHeaders().forEach((k, v) -> out.put(k, String.join(",", v)));
                send(ex, 200, out);
            } else if (path.equals("/v1/big")) {
                byte[] big = new byte[2 << 20];
                java.util.Arrays.fill(big, (byte) 'x');
                ex.getResponseHeaders().add("Content-Type", "text/plain");
                ex.sendResponseHeaders(200, big.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(big);
                } catch (IOException clientGaveUp) {
                    // the client stops reading at its limit
                }
            } else if (path.equals("/v1/moved")) {
                ex.getResponseHeaders().add("Location", "http://example.invalid/steal");
                ex.sendResponseHeaders(302, -1);
            } else {
                send(ex, 404, JSON.createObjectNode().put("message", "no route " + method + " " + path));
            }
        }
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
