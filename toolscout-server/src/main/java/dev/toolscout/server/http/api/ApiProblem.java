package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * An error answer of the HTTP API, written as RFC 9457 {@code application/problem+json}: {@code type}, {@code
 * title}, {@code status}, {@code detail}, {@code instance} (the request path), and for bad input {@code input}
 * (the field, parameter or header), {@code rule} and {@code value} (the bad value, cut to {@value #SHOWN}
 * characters). Thrown by a route handler or by the request checks before it; {@link ApiServlet} writes it. The
 * message is the detail, which never holds a class name or a stack frame.
 */
public final class ApiProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Problem types are URNs in this namespace; docs/HTTP_API.md lists them. */
    public static final String TYPE_PREFIX = "urn:toolscout:problem:";
    /** The most characters of a bad value a problem repeats. */
    static final int SHOWN = 120;

    private final int status;
    private final String type;
    private final String title;
    private final transient ObjectNode extensions;
    private final transient Map<String, String> headers;

    private ApiProblem(
            int status, String type, String title, String detail, ObjectNode extensions, Map<String, String> headers) {
        super(detail, null, false, false);
        this.status = status;
        this.type = TYPE_PREFIX + type;
        this.title = title;
        this.extensions = extensions;
        this.headers = headers;
    }

    /** A problem without input fields. */
    public static ApiProblem of(int status, String type, String title, String detail) {
        return new ApiProblem(status, type, title, detail, JsonNodeFactory.instance.objectNode(), Map.of());
    }

    /**
     * 400 {@code invalid-input}: one input broke one rule.
     *
     * @param input the field ({@code k}, {@code upserts[2].name}), query parameter or path segment
     * @param rule the rule, as a phrase ({@code "between 1 and 50"})
     * @param value the bad value as sent (a JSON value, or null when the input is missing)
     * @param detail the whole sentence: {@code "k must be between 1 and 50, got: 0"}
     */
    public static ApiProblem invalid(String input, String rule, JsonNode value, String detail) {
        ObjectNode x = JsonNodeFactory.instance.objectNode();
        x.put("input", input);
        x.put("rule", rule);
        if (value != null) {
            x.set("value", shown(value));
        }
        return new ApiProblem(400, "invalid-input", "Invalid input", detail, x, Map.of());
    }

    /** {@link #invalid(String, String, JsonNode, String)} with a text value. */
    public static ApiProblem invalid(String input, String rule, String value, String detail) {
        return invalid(input, rule, value == null ? null : JsonNodeFactory.instance.textNode(value), detail);
    }

    /** 404 {@code not-found}. The same for a denied and a missing thing: the detail names only what was asked. */
    public static ApiProblem notFound(String detail) {
        return of(404, "not-found", "Not found", detail);
    }

    /** 409 {@code conflict}: the request is well-formed but the state refuses it. */
    public static ApiProblem conflict(String detail) {
        return of(409, "conflict", "Conflict", detail);
    }

    /**
     * 410 {@code gone}: a path that was retired. {@code replacement} names what serves it now ({@code "GET
     * /v1/approvals"}), as the document's member {@code replacement}.
     */
    public static ApiProblem gone(String detail, java.util.List<String> replacement) {
        ObjectNode x = JsonNodeFactory.instance.objectNode();
        replacement.forEach(x.putArray("replacement")::add);
        return new ApiProblem(410, "gone", "Gone", detail, x, Map.of());
    }

    /**
     * The same problem naming the input it refuses: {@code input} (a field, parameter or header), {@code rule} and
     * {@code value} (the bad value, cut to {@value #SHOWN} characters).
     */
    public ApiProblem withInput(String input, String rule, String value) {
        ObjectNode x = extensions.deepCopy();
        x.put("input", input);
        x.put("rule", rule);
        if (value != null) {
            x.set("value", shown(JsonNodeFactory.instance.textNode(value)));
        }
        return new ApiProblem(status, type.substring(TYPE_PREFIX.length()), title, getMessage(), x, headers);
    }

    /**
     * 429 {@code type}: a limit on work in progress is reached; retrying after {@code retryAfterSeconds} may
     * succeed. The document names the limit (its option) and its value as the members {@code limit} and {@code
     * value}.
     */
    public static ApiProblem tooMany(
            String type, String title, String detail, String limit, int value, int retryAfterSeconds) {
        ObjectNode x = JsonNodeFactory.instance.objectNode();
        x.put("limit", limit);
        x.put("value", value);
        return new ApiProblem(429, type, title, detail, x, Map.of("Retry-After", Integer.toString(retryAfterSeconds)));
    }

    /** The same problem with a response header (Retry-After, Allow, WWW-Authenticate, Connection). */
    public ApiProblem withHeader(String name, String value) {
        Map<String, String> h = new java.util.LinkedHashMap<>(headers);
        h.put(name, value);
        return new ApiProblem(
                status, type.substring(TYPE_PREFIX.length()), title, getMessage(), extensions, Map.copyOf(h));
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    Map<String, String> headers() {
        return headers;
    }

    /**
     * Writes this problem as the answer, with the headers every answer of the HTTP API carries: for what is served
     * outside {@link ApiServlet} (the approval queue, the Host and Origin checks in front of every path).
     *
     * @param instance the request path, or null
     */
    public void write(jakarta.servlet.http.HttpServletResponse resp, String instance) throws java.io.IOException {
        ApiServlet.problem(resp, this, instance);
    }

    /** The problem document for a request to {@code instance}. */
    ObjectNode body(String instance) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("type", type);
        o.put("title", title);
        o.put("status", status);
        o.put("detail", getMessage());
        if (instance != null) {
            o.put("instance", instance);
        }
        o.setAll(extensions);
        return o;
    }

    /** A bad value as a problem repeats it: scalars as they are (long text cut), containers by their kind. */
    private static JsonNode shown(JsonNode v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (v.isTextual() && v.textValue().length() > SHOWN) {
            return f.textNode(v.textValue().substring(0, SHOWN) + "...");
        }
        if (v.isContainerNode()) {
            return f.textNode(v.isArray() ? "(an array)" : "(an object)");
        }
        return v;
    }
}
