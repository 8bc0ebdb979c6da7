package dev.toolscout.server.http.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.mcp.gateway.Caller;
import dev.toolscout.model.Principal;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request to a route, after the checks every route shares (path, method, key, role, body size and type):
 * the caller, the path parameters, the query parameters and the JSON body. Not thread-safe; one per request.
 */
public final class Call {
    /**
     * How request bodies are read: one JSON document (trailing content refused), duplicate keys refused (which
     * of two values would count is not the caller's guess), nesting at most {@value #MAX_DEPTH} deep.
     */
    static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(Call.MAX_DEPTH)
                            .build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** The deepest nesting of a request body: a tool's parameter schema needs a few levels, never hundreds. */
    static final int MAX_DEPTH = 64;

    private final Endpoint route;
    private final Map<String, String> pathParams;
    private final Map<String, List<String>> query;
    private final Caller caller;
    private final byte[] body;
    private final ApiBackend backend;

    private final String accept;

    Call(
            Endpoint route,
            Map<String, String> pathParams,
            Map<String, List<String>> query,
            Caller caller,
            byte[] body,
            ApiBackend backend) {
        this(route, pathParams, query, caller, body, backend, null);
    }

    Call(
            Endpoint route,
            Map<String, String> pathParams,
            Map<String, List<String>> query,
            Caller caller,
            byte[] body,
            ApiBackend backend,
            String accept) {
        this.accept = accept;
        this.route = route;
        this.pathParams = pathParams;
        this.query = query;
        this.caller = caller;
        this.body = body;
        this.backend = backend;
    }

    /** Whether the client asked for server-sent events ({@code Accept: text/event-stream}). */
    public boolean wantsEventStream() {
        return accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("text/event-stream");
    }

    /** Who calls; null on a {@link Endpoint.Access#PUBLIC} endpoint called without a key. */
    public Caller caller() {
        return caller;
    }

    /** The principal the access policy applies to. */
    public Principal principal() {
        return caller == null ? Principal.ANONYMOUS : caller.principal();
    }

    /** The engine and the upstream servers; only on routes that need the engine, which answer 503 before. */
    public ApiBackend backend() {
        if (backend == null) {
            throw new IllegalStateException("route " + route.path() + " was declared withoutEngine()");
        }
        return backend;
    }

    /** A path parameter, decoded. */
    public String path(String name) {
        String v = pathParams.get(name);
        if (v == null) {
            throw new IllegalStateException("route " + route.path() + " has no path parameter " + name);
        }
        return v;
    }

    /** A query parameter (given once at most), or null. */
    public String query(String name) {
        List<String> values = query.get(name);
        if (values == null) {
            return null;
        }
        if (values.size() > 1) {
            throw ApiProblem.invalid(
                    name,
                    "given once",
                    values.get(1),
                    "query parameter " + name + " must be given once, got it " + values.size() + " times");
        }
        return values.get(0);
    }

    /** An integer query parameter between {@code min} and {@code max}, or {@code dflt} when absent. */
    public int queryInt(String name, int min, int max, int dflt) {
        String v = query(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the same answer as out of range
        }
        throw ApiProblem.invalid(
                name,
                "an integer between " + min + " and " + max,
                v,
                String.format(
                        Locale.ROOT,
                        "query parameter %s must be an integer between %d and %d, got: '%s'",
                        name,
                        min,
                        max,
                        Fields.shown(v)));
    }

    /** The body as a JSON tree; a body that is not one JSON document is a 400 naming where it broke. */
    public JsonNode json() {
        if (body == null || body.length == 0) {
            throw ApiProblem.invalid(
                    "body",
                    "a JSON document",
                    (JsonNode) null,
                    "the request body is empty; expected "
                            + (route.requestSchema() == null ? "JSON" : "a " + route.requestSchema() + " object"));
        }
        try {
            JsonNode n = JSON.readTree(body);
            return n == null ? JsonNodeFactory.instance.missingNode() : n;
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw ApiProblem.of(
                    400,
                    "malformed-json",
                    "Malformed JSON",
                    "the request body is not valid JSON" + where + ": " + reason(e));
        } catch (IOException e) {
            throw ApiProblem.of(400, "malformed-json", "Malformed JSON", "the request body could not be read as JSON");
        }
    }

    /** The parser's complaint in a few words, never the bytes around it (which may be long or binary). */
    private static String reason(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return "syntax error";
        }
        if (m.startsWith("Duplicate field")) {
            return "a field is given twice ("
                    + Fields.shown(m.substring(m.indexOf('\'') + 1).replaceAll("'.*", "")) + ")";
        }
        if (m.contains("nesting depth")) {
            return "nested more than " + MAX_DEPTH + " levels deep";
        }
        if (m.startsWith("Trailing token")) {
            return "more content after the JSON document";
        }
        int cut = m.indexOf('\n');
        String first = cut < 0 ? m : m.substring(0, cut);
        // Jackson quotes the token it could not read; the phrase before it says what was wrong
        int paren = first.indexOf(" (");
        return Fields.shown(paren > 0 ? first.substring(0, paren) : first);
    }
}
