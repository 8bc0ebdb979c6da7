package dev.toolscout.server.http.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The OpenAPI 3.1 document of the HTTP API, built from the routes (see {@link Endpoint}): one operation per route,
 * its parameters, request body and declared answers, plus the problems every route of its kind can answer,
 * shared as {@code components/responses}. Component schemas come from the {@link RouteGroup}s; the problem
 * document is {@value #PROBLEM}. Built once; immutable.
 */
public final class OpenApi {
    /** The component schema of {@code application/problem+json} answers. */
    public static final String PROBLEM = "Problem";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private OpenApi() {}

    /** A schema (or any JSON) from text; for the schemas the route groups declare. */
    public static JsonNode schema(String json) {
        try {
            return Call.JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a schema in the code is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** A {@code $ref} to a component schema. */
    public static ObjectNode ref(String component) {
        return F.objectNode().put("$ref", "#/components/schemas/" + component);
    }

    static ObjectNode document(List<Endpoint> routes, Map<String, JsonNode> schemas, String version) {
        ObjectNode doc = F.objectNode();
        doc.put("openapi", "3.1.0");
        ObjectNode info = doc.putObject("info");
        info.put("title", "ToolScout HTTP API");
        info.put("version", version);
        info.put(
                "description",
                "Selects the few tools an LLM agent should see for each request, out of thousands. "
                        + "Every error is application/problem+json (RFC 9457). With API keys configured (serve --api-keys), send "
                        + "one as Authorization: Bearer <key> or X-API-Key: <key>; without keys the server binds to this machine "
                        + "only, every caller is the local user, and nobody may write. See docs/HTTP_API.md.");
        info.putObject("license").put("name", "Apache-2.0").put("identifier", "Apache-2.0");
        doc.putArray("security").addObject().putArray("bearer");
        ((ArrayNode) doc.get("security")).addObject().putArray("apiKey");
        ObjectNode paths = doc.putObject("paths");
        List<Endpoint> sorted = new ArrayList<>(routes);
        sorted.sort(Comparator.comparing(Endpoint::path));
        for (Endpoint r : sorted) {
            ObjectNode item = paths.has(r.path()) ? (ObjectNode) paths.get(r.path()) : paths.putObject(r.path());
            item.set(r.method().toLowerCase(Locale.ROOT), operation(r));
        }
        ObjectNode components = doc.putObject("components");
        ObjectNode s = components.putObject("schemas");
        new TreeMap<>(schemas).forEach(s::set);
        s.set(PROBLEM, problemSchema());
        ObjectNode responses = components.putObject("responses");
        STANDARD.forEach((name, p) -> responses.set(name, problemResponse(p.description())));
        ObjectNode security = components.putObject("securitySchemes");
        security.putObject("bearer")
                .put("type", "http")
                .put("scheme", "bearer")
                .put("description", "An API key from the server's keys file");
        security.putObject("apiKey")
                .put("type", "apiKey")
                .put("in", "header")
                .put("name", "X-API-Key")
                .put("description", "The same key in its own header");
        return doc;
    }

    /** A problem every route of a kind can answer: its status and what it means. */
    private record Standard(int status, String description) {}

    private static final Map<String, Standard> STANDARD = new LinkedHashMap<>();

    static {
        STANDARD.put(
                "BadRequest", new Standard(400, "Invalid input: the problem names the input, the rule and the value"));
        STANDARD.put("Unauthorized", new Standard(401, "No API key, or an unknown one"));
        STANDARD.put(
                "Forbidden",
                new Standard(
                        403,
                        "The key's role may not do this (writes need admin), or a Host "
                                + "header that does not name this server, or an Origin that is not its own (DNS rebinding)"));
        STANDARD.put("PayloadTooLarge", new Standard(413, "The body is over 4 MiB (4,194,304 bytes)"));
        STANDARD.put("UnsupportedMediaType", new Standard(415, "The body is not sent as application/json"));
        STANDARD.put("InternalError", new Standard(500, "An unexpected failure; the server's log has the details"));
        STANDARD.put("NotReady", new Standard(503, "The engine is still opening; Retry-After says when to retry"));
    }

    private static ObjectNode operation(Endpoint r) {
        ObjectNode op = F.objectNode();
        op.put("operationId", r.operationId());
        op.putArray("tags").add(r.tag());
        op.put("summary", r.summary());
        String access = switch (r.access()) {
            case PUBLIC -> "No API key needed.";
            case READ -> "Any API key (reader, user or admin).";
            case ADMIN -> "An API key with the role admin.";
            case METRICS ->
                "An API key with the role admin, or none when the server runs with --metrics-public or without API keys.";
        };
        op.put("description", (r.description() == null ? "" : r.description() + "\n\n") + access);
        if (r.access() == Endpoint.Access.PUBLIC) {
            op.putArray("security");
        }
        if (!r.params().isEmpty()) {
            ArrayNode params = op.putArray("parameters");
            for (Endpoint.Param p : r.params()) {
                ObjectNode n = params.addObject();
                n.put("name", p.name());
                n.put("in", p.in());
                n.put("required", p.required());
                n.put("description", p.description());
                n.set("schema", p.schema());
            }
        }
        if (r.requestSchema() != null) {
            ObjectNode body = op.putObject("requestBody");
            body.put("required", true);
            body.putObject("content").putObject(Reply.JSON).set("schema", ref(r.requestSchema()));
        }
        ObjectNode responses = op.putObject("responses");
        Map<Integer, ObjectNode> byStatus = new TreeMap<>();
        r.responses().values().stream()
                .sorted(java.util.Comparator.comparing(
                        Endpoint.Response::contentType,
                        java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())))
                .forEach(x -> {
                    ObjectNode n = response(x);
                    ObjectNode before = byStatus.putIfAbsent(x.status(), n);
                    if (before != null && n.has("content")) {
                        // the same status in another content type
                        ObjectNode content = before.has("content")
                                ? (ObjectNode) before.get("content")
                                : before.putObject("content");
                        content.setAll((ObjectNode) n.get("content"));
                    }
                });
        boolean authorized = r.access() != Endpoint.Access.PUBLIC;
        addStandard(
                byStatus, "BadRequest", r.requestSchema() != null || !r.params().isEmpty());
        addStandard(byStatus, "Unauthorized", authorized);
        // 403 also answers a foreign Host or Origin header, on every path, so every route declares it
        addStandard(byStatus, "Forbidden", true);
        addStandard(byStatus, "PayloadTooLarge", r.requestSchema() != null);
        addStandard(byStatus, "UnsupportedMediaType", r.requestSchema() != null);
        addStandard(byStatus, "InternalError", true);
        addStandard(byStatus, "NotReady", r.needsEngine());
        byStatus.forEach((status, n) -> responses.set(Integer.toString(status), n));
        return op;
    }

    private static void addStandard(Map<Integer, ObjectNode> byStatus, String name, boolean applies) {
        int status = STANDARD.get(name).status();
        if (applies && !byStatus.containsKey(status)) {
            byStatus.put(status, F.objectNode().put("$ref", "#/components/responses/" + name));
        }
    }

    private static ObjectNode response(Endpoint.Response x) {
        ObjectNode n = F.objectNode();
        n.put("description", x.description());
        if (x.schema() != null) {
            JsonNode schema = x.schema() instanceof String name ? ref(name) : (JsonNode) x.schema();
            ObjectNode content = n.putObject("content");
            content.putObject(x.contentType()).set("schema", schema);
            if (x.streamType() != null) {
                content.putObject(x.streamType()).set("schema", F.objectNode().put("type", "string"));
            }
        }
        return n;
    }

    private static ObjectNode problemResponse(String description) {
        ObjectNode n = F.objectNode();
        n.put("description", description);
        n.putObject("content").putObject(Reply.PROBLEM_JSON).set("schema", ref(PROBLEM));
        return n;
    }

    private static JsonNode problemSchema() {
        return schema("""
        {"type": "object", "description": "RFC 9457 problem details",
         "required": ["type", "title", "status", "detail"],
         "properties": {
          "type": {"type": "string", "format": "uri-reference",
                   "description": "urn:toolscout:problem:<kind>: invalid-input, malformed-json, bad-request, unauthorized, forbidden, host-not-allowed, not-found, method-not-allowed, conflict, payload-too-large, unsupported-media-type, not-ready, upstream-unreachable, internal"},
          "title": {"type": "string"},
          "status": {"type": "integer", "minimum": 400, "maximum": 599},
          "detail": {"type": "string", "description": "What went wrong, naming the input, the rule and the value"},
          "instance": {"type": "string", "description": "The request path"},
          "input": {"type": "string", "description": "The field, query parameter or path segment at fault, e.g. k or upserts[2].name"},
          "rule": {"type": "string", "description": "The rule it broke, e.g. an integer between 1 and 50"},
          "value": {"description": "The bad value as sent (long text cut, objects and arrays by their kind)"}
         },
         "additionalProperties": false}""");
    }
}
