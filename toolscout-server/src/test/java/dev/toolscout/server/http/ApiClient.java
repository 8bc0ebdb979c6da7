package dev.toolscout.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The JDK's HTTP client, with one key (or none), for the HTTP API tests: every response it receives is checked
 * against the served OpenAPI document ({@link OpenApiContract#check}) before the test sees it.
 */
final class ApiClient {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    private final String base;
    private final String key;
    private final OpenApiContract contract;

    ApiClient(String base, String key, OpenApiContract contract) {
        this.base = base;
        this.key = key;
        this.contract = contract;
    }

    /** The same server, another key (null for none). */
    ApiClient as(String otherKey) {
        return new ApiClient(base, otherKey, contract);
    }

    HttpResponse<String> get(String path) {
        return send(builder(path).GET());
    }

    HttpResponse<String> delete(String path) {
        return send(builder(path).DELETE());
    }

    HttpResponse<String> post(String path, String json) {
        return send(builder(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> put(String path, String json) {
        return send(builder(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpRequest.Builder builder(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return b;
    }

    /** Sends, checks the response against the contract, and returns it. */
    HttpResponse<String> send(HttpRequest.Builder b) {
        HttpRequest request = b.build();
        HttpResponse<String> r;
        try {
            r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        contract.check(request.method(), request.uri(), r);
        return r;
    }

    static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
