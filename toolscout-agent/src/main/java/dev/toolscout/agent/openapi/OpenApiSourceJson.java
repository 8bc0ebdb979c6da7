package dev.toolscout.agent.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.agent.openapi.OpenApiOperation.In;
import dev.toolscout.agent.openapi.OpenApiOperation.Param;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stored form of an {@link OpenApiSource}: one JSON object, kept by the state store as it is given.
 *
 * <pre>
 * {"format": 1, "name": "petstore", "document": "petstore.yaml", "base_url": "https://api.example.com/v1",
 *  "auth": {"type": "bearer", "secret_env": "PETSTORE_TOKEN"},
 *  "operations": {"petstore__getPet": {"method": "GET", "path": "/pets/{petId}",
 *    "params": [{"argument": "petId", "name": "petId", "in": "path"}], "body": null}}}
 * </pre>
 *
 * A credential's secret is only ever the name of an environment variable ({@code secret_env}) or a value
 * already sealed ({@code secret_sealed}, {@code enc:v1:...}). Stateless and thread-safe.
 */
public final class OpenApiSourceJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int FORMAT = 1;

    private OpenApiSourceJson() {}

    /** The stored JSON of {@code source}. */
    public static String write(OpenApiSource source) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("name", source.name());
        root.put("document", source.document());
        root.put("base_url", source.baseUrl().toString());
        OpenApiAuth a = source.auth();
        if (a != null) {
            ObjectNode auth = root.putObject("auth");
            auth.put("type", a.type().id());
            if (a.header() != null) {
                auth.put("header", a.header());
            }
            if (a.username() != null) {
                auth.put("username", a.username());
            }
            if (a.secretEnv() != null) {
                auth.put("secret_env", a.secretEnv());
            } else {
                auth.put("secret_sealed", a.sealedSecret());
            }
        }
        ObjectNode ops = root.putObject("operations");
        for (Map.Entry<String, OpenApiOperation> e : source.operations().entrySet()) {
            OpenApiOperation op = e.getValue();
            ObjectNode o = ops.putObject(e.getKey());
            o.put("method", op.method());
            o.put("path", op.path());
            ArrayNode params = o.putArray("params");
            for (Param p : op.params()) {
                ObjectNode pn = params.addObject()
                        .put("argument", p.argument())
                        .put("name", p.name())
                        .put("in", p.in().id());
                if (p.explode()) {
                    pn.put("explode", true);
                }
                if (p.deepObject()) {
                    pn.put("deep_object", true);
                }
            }
            o.put("body", op.bodyArgument());
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an OpenAPI source cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /**
     * The source stored as {@code json}.
     *
     * @throws IllegalArgumentException when the JSON is not a stored source (naming the field)
     */
    public static OpenApiSource read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("stored OpenAPI source is not valid JSON: " + e.getOriginalMessage(), e);
        }
        String name = text(root, "name", "?");
        String where = "stored OpenAPI source '" + name + "'";
        if (root.path("format").asInt(-1) != FORMAT) {
            throw new IllegalArgumentException(where + ": format must be " + FORMAT + ", got: " + root.get("format"));
        }
        OpenApiAuth auth = null;
        JsonNode a = root.get("auth");
        if (a != null && !a.isNull()) {
            OpenApiAuth.Type type;
            try {
                type = OpenApiAuth.Type.valueOf(text(a, "type", where).toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        where + ": auth.type must be bearer, header or basic, got: " + a.get("type"), e);
            }
            auth = new OpenApiAuth(
                    type,
                    a.path("header").asText(null),
                    a.path("username").asText(null),
                    a.path("secret_env").asText(null),
                    a.path("secret_sealed").asText(null));
        }
        Map<String, OpenApiOperation> ops = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.path("operations").properties()) {
            JsonNode o = e.getValue();
            List<Param> params = new ArrayList<>();
            for (JsonNode p : o.path("params")) {
                params.add(new Param(
                        text(p, "argument", where),
                        text(p, "name", where),
                        In.of(text(p, "in", where)),
                        p.path("explode").asBoolean(false),
                        p.path("deep_object").asBoolean(false)));
            }
            JsonNode body = o.get("body");
            ops.put(
                    e.getKey(),
                    new OpenApiOperation(
                            text(o, "method", where),
                            text(o, "path", where),
                            params,
                            body == null || body.isNull() ? null : body.asText()));
        }
        return new OpenApiSource(
                name, text(root, "document", where), URI.create(text(root, "base_url", where)), auth, ops);
    }

    private static String text(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(where + ": " + field + " must be a string, got: " + v);
        }
        return v.asText();
    }
}
