package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.toolscout.testing.LogCapture;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The served {@code /openapi.json} as a contract: the document is checked against the OpenAPI 3.1 schema and
 * every component schema against JSON Schema 2020-12, and then every response a test receives ({@link
 * ApiClient} hands each one here) must have a declared status for its operation, the declared content type,
 * and a body that validates against the declared schema. A path no route matches (404) and a method a path
 * does not take (405) are checked against the problem schema. Thread-safe after construction.
 *
 * <p>The validator is networknt's json-schema-validator, which the product already ships: the MCP SDK validates
 * tool arguments with it ({@code mcp-json-jackson2}). So it is not declared again, with a test scope that would
 * take it out of the distribution.
 */
final class OpenApiContract {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DOC_ID = "https://toolscout.test/openapi.json";
    private static final String OAS_ID = "https://spec.openapis.org/oas/3.1/schema/2021-04-15";
    private static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

    private final JsonNode doc;
    private final SchemaRegistry registry;
    private final Map<String, Schema> schemas = new HashMap<>();
    private int checked;

    OpenApiContract(String documentText) throws IOException {
        this.doc = JSON.readTree(documentText);
        String oas;
        try (InputStream in = OpenApiContract.class.getResourceAsStream("/openapi/oas-3.1-schema-2021-04-15.json")) {
            oas = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // the response schemas under plain names ($defs/r0, r1, ...) of a copy of the document, so that their
        // references to #/components resolve in it and no pointer needs escaping
        com.fasterxml.jackson.databind.node.ObjectNode copy = doc.deepCopy();
        com.fasterxml.jackson.databind.node.ObjectNode defs = copy.putObject("$defs");
        for (Map.Entry<String, JsonNode> path : doc.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> op : path.getValue().properties()) {
                for (Map.Entry<String, JsonNode> resp :
                        op.getValue().path("responses").properties()) {
                    JsonNode content = resolve(resp.getValue()).path("content");
                    for (Map.Entry<String, JsonNode> media : content.properties()) {
                        String id = "r" + defs.size();
                        defs.set(id, media.getValue().path("schema"));
                        responseSchemas.put(key(op.getKey(), path.getKey(), resp.getKey(), media.getKey()), id);
                    }
                }
            }
        }
        defs.set("problem", doc.path("components").path("schemas").path("Problem"));
        this.registry = SchemaRegistry.withDefaultDialect(
                SpecificationVersion.DRAFT_2020_12, b -> b.schemas(Map.of(DOC_ID, copy.toString(), OAS_ID, oas)));
        // the copy is read as one schema resource, whose top-level members (openapi, info, paths, ...) are no
        // JSON Schema keywords: the validator says so once, when it first reads the resource, here; one contract
        // at a time, as test classes run in parallel and two captures of one logger would take each other's lines
        synchronized (OpenApiContract.class) {
            readProblemSchema(copy);
        }
    }

    private void readProblemSchema(JsonNode copy) {
        try (LogCapture log = LogCapture.of("com.networknt.schema.keyword.UnknownKeywordFactory")) {
            schemas.put("problem", registry.getSchema(SchemaLocation.of(DOC_ID + "#/$defs/problem")));
            List<String> members = new ArrayList<>();
            copy.fieldNames().forEachRemaining(members::add);
            assertThat(log.warnings())
                    .allSatisfy(w -> assertThat(members)
                            .as(w)
                            .anySatisfy(m -> assertThat(w).startsWith("Unknown keyword " + m + " - ")));
        }
    }

    private final Map<String, String> responseSchemas = new HashMap<>();

    private static String key(String method, String template, String status, String media) {
        return method.toLowerCase(Locale.ROOT) + " " + template + " " + status + " " + media;
    }

    private JsonNode resolve(JsonNode response) {
        return response.has("$ref") ? doc.at(response.get("$ref").textValue().substring(1)) : response;
    }

    JsonNode document() {
        return doc;
    }

    /** The problems of the document itself: against the OpenAPI 3.1 schema, and each schema against 2020-12. */
    List<String> documentErrors() {
        List<String> out = new ArrayList<>();
        registry.getSchema(SchemaLocation.of(OAS_ID)).validate(doc).forEach(e -> out.add("document: " + e));
        Schema meta = registry.getSchema(SchemaLocation.of(DRAFT_2020_12));
        doc.path("components")
                .path("schemas")
                .properties()
                .forEach(e -> meta.validate(e.getValue())
                        .forEach(x -> out.add("components.schemas." + e.getKey() + ": " + x)));
        // every $ref names something that exists
        collectRefs(doc, out);
        return out;
    }

    private void collectRefs(JsonNode n, List<String> out) {
        if (n.isObject()) {
            JsonNode ref = n.get("$ref");
            if (ref != null && ref.isTextual() && ref.textValue().startsWith("#/")) {
                if (doc.at(ref.textValue().substring(1)).isMissingNode()) {
                    out.add("$ref to nothing: " + ref.textValue());
                }
            }
            n.forEach(c -> collectRefs(c, out));
        } else if (n.isArray()) {
            n.forEach(c -> collectRefs(c, out));
        }
    }

    /** How many responses were checked so far. */
    synchronized int checked() {
        return checked;
    }

    /** Checks one response of {@code method} to {@code uri} against the document; fails the test on any mismatch. */
    void check(String method, URI uri, HttpResponse<String> r) {
        String path = uri.getRawPath();
        String described = method + " " + path + " -> " + r.statusCode() + " " + r.body();
        String contentType = r.headers().firstValue("Content-Type").orElse(null);
        String media =
                contentType == null ? null : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        String template = template(path, method.toLowerCase(Locale.ROOT));
        JsonNode op = template == null ? null : doc.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
        if (op == null || op.isMissingNode()) {
            // not an operation: the server's own 404 or 405, a problem either way
            assertThat(r.statusCode()).as(described).isIn(404, 405);
            assertThat(media).as(described).isEqualTo("application/problem+json");
            validate("problem", r.body(), described);
            count();
            return;
        }
        JsonNode response = op.path("responses").path(Integer.toString(r.statusCode()));
        assertThat(response.isMissingNode())
                .as("status not declared: " + described)
                .isFalse();
        response = resolve(response);
        JsonNode content = response.path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            assertThat(r.body()).as("no body declared: " + described).isEmpty();
            count();
            return;
        }
        assertThat(content.has(media))
                .as("content type " + contentType + " not declared: " + described)
                .isTrue();
        JsonNode schema = content.get(media).path("schema");
        if (media.startsWith("text/") || media.equals("image/svg+xml")) {
            // text (metrics, the web console's page, scripts and style sheet, the agent's server-sent events): a string
            assertThat(schema.path("type").asText()).isEqualTo("string");
        } else {
            validate(
                    responseSchemas.get(key(method, template, Integer.toString(r.statusCode()), media)),
                    r.body(),
                    described);
        }
        count();
    }

    private synchronized void count() {
        checked++;
    }

    /** The schema errors of {@code body} as the answer of an operation (for checking this contract itself). */
    List<Error> errors(String method, String template, int status, String media, String body) throws IOException {
        String def = responseSchemas.get(key(method, template, Integer.toString(status), media));
        return registry.getSchema(SchemaLocation.of(DOC_ID + "#/$defs/" + def)).validate(JSON.readTree(body));
    }

    private void validate(String def, String body, String described) {
        Schema s;
        synchronized (schemas) {
            s = schemas.computeIfAbsent(def, d -> registry.getSchema(SchemaLocation.of(DOC_ID + "#/$defs/" + d)));
        }
        JsonNode n;
        try {
            n = JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("body is not JSON: " + described, e);
        }
        List<Error> errors = s.validate(n);
        assertThat(errors)
                .as("response does not match its schema: " + described)
                .isEmpty();
    }

    /** The path template that {@code path} matches and that has {@code method}, else any it matches, else null. */
    private String template(String path, String method) {
        String any = null;
        String[] given = path.split("/", -1);
        for (Iterator<String> it = doc.path("paths").fieldNames(); it.hasNext(); ) {
            String t = it.next();
            String[] parts = t.split("/", -1);
            if (parts.length != given.length) {
                continue;
            }
            boolean match = true;
            for (int i = 0; i < parts.length && match; i++) {
                match = parts[i].startsWith("{") ? !given[i].isEmpty() : parts[i].equals(given[i]);
            }
            if (match && doc.path("paths").path(t).has(method)) {
                return t;
            }
            if (match && any == null) {
                any = t;
            }
        }
        return any;
    }
}
