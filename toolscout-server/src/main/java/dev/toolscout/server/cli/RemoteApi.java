package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A running {@code toolscout serve}'s HTTP API ({@code /v1}, docs/HTTP_API.md), for the reading commands given
 * {@code --server URL}: the JDK's HTTP client, the API key (if any) as a bearer token. Answers are read up to
 * {@value #MAX_ANSWER_BYTES} bytes. A refusal of the request (400) is an {@link IllegalArgumentException} with
 * the server's words; any other failure (unreachable, no or a wrong key, the server's own error) a {@link
 * RemoteException}. Not thread-safe; one per command.
 */
final class RemoteApi {
    /** How long to wait for the connection. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long to wait for an answer (a first selection loads the server's model). */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);
    /** The largest answer read: a page of 1,000 tools is far smaller. */
    static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

    private final URI base;
    private final String apiKey;
    private final HttpClient http;

    private RemoteApi(URI base, String apiKey) {
        this.base = base;
        this.apiKey = apiKey;
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    }

    /**
     * @param url the server's base URL, e.g. {@code http://127.0.0.1:8765}
     * @param apiKey a key of the server's {@code --api-keys} file, or null (a server without keys)
     * @throws IllegalArgumentException for a URL that is not http(s)://host[:port][/path]
     */
    static RemoteApi of(String url, String apiKey) {
        URI u;
        try {
            u = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "--server must be a URL such as http://127.0.0.1:8765, got: '" + url + "' (" + e.getReason() + ")");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))
                || u.getHost() == null
                || u.getRawQuery() != null
                || u.getRawFragment() != null
                || u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("--server must be an http or https URL of a host (and port), such as "
                    + "http://127.0.0.1:8765, got: '" + url + "'");
        }
        String path = u.getRawPath() == null ? "" : u.getRawPath().replaceAll("/+$", "");
        return new RemoteApi(
                URI.create(scheme + "://" + u.getRawAuthority() + path),
                apiKey == null || apiKey.isBlank() ? null : apiKey.strip());
    }

    /** {@code POST path} with a JSON body; the answer's JSON. */
    JsonNode post(String path, JsonNode body) {
        return answer(
                        call(
                                request(path)
                                        .POST(HttpRequest.BodyPublishers.ofString(
                                                body.toString(), StandardCharsets.UTF_8))
                                        .header("Content-Type", "application/json"),
                                path),
                        path,
                        false)
                .orElseThrow();
    }

    /** {@code GET path} (with its query); the answer's JSON. */
    JsonNode get(String path) {
        return answer(call(request(path).GET(), path), path, false).orElseThrow();
    }

    /** {@code GET path}; empty for a 404 (a missing tool and one the key's principal may not see, alike). */
    Optional<JsonNode> getIfFound(String path) {
        return answer(call(request(path).GET(), path), path, true);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(ANSWER_TIMEOUT)
                .header("Accept", "application/json");
        if (apiKey != null) {
            b.header("Authorization", "Bearer " + apiKey);
        }
        return b;
    }

    private HttpResponse<InputStream> call(HttpRequest.Builder request, String path) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpConnectTimeoutException e) {
            throw new RemoteException(
                    "cannot reach the server at " + base + ": no connection within " + CONNECT_TIMEOUT.toSeconds()
                            + " s",
                    e);
        } catch (HttpTimeoutException e) {
            throw new RemoteException(base + path + " did not answer within " + ANSWER_TIMEOUT.toSeconds() + " s", e);
        } catch (ConnectException e) {
            throw new RemoteException(
                    "cannot reach the server at " + base + " (connection refused: is `toolscout serve` "
                            + "running there?)",
                    e);
        } catch (IOException e) {
            throw new RemoteException("cannot reach the server at " + base + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteException("interrupted while asking " + base + path, e);
        }
    }

    private Optional<JsonNode> answer(HttpResponse<InputStream> r, String path, boolean notFoundIsEmpty) {
        String text;
        try (InputStream in = r.body()) {
            byte[] bytes = in.readNBytes(MAX_ANSWER_BYTES + 1);
            if (bytes.length > MAX_ANSWER_BYTES) {
                throw new RemoteException(base + path + " answered more than " + MAX_ANSWER_BYTES + " bytes; not read");
            }
            text = new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RemoteException("reading the answer of " + base + path + " failed: " + e, e);
        }
        int status = r.statusCode();
        if (status == 404 && notFoundIsEmpty) {
            return Optional.empty();
        }
        JsonNode json;
        try {
            json = Json.MAPPER.readTree(text);
        } catch (IOException e) {
            json = null;
        }
        if (status / 100 == 2 && json != null && !json.isMissingNode()) {
            return Optional.of(json);
        }
        // an RFC 9457 problem names the input, the rule and the value in its detail
        String detail = json != null && json.path("detail").isTextual()
                ? json.path("detail").asText()
                : json != null && json.path("title").isTextual()
                        ? json.path("title").asText()
                        : text.isBlank()
                                ? "no body"
                                : "not JSON: " + (text.length() > 200 ? text.substring(0, 200) + "..." : text);
        if (status == 400) {
            throw new IllegalArgumentException(detail);
        }
        String hint = status == 401
                ? (apiKey == null
                        ? "; set TOOLSCOUT_API_KEY to one of the server's API keys"
                        : "; TOOLSCOUT_API_KEY is not one of the server's API keys")
                : "";
        throw new RemoteException(base + path + " answered " + status + ": " + detail + hint);
    }

    /** The server could not be asked, or could not answer: retrying later may help. */
    static final class RemoteException extends RuntimeException {
        RemoteException(String message) {
            super(message);
        }

        RemoteException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
