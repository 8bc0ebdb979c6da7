package dev.toolscout.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ToolScout's tool definitions as LangChain4j's {@link ToolSpecification}s: the JSON Schema of a tool's parameters as
 * LangChain4j's schema elements, which its provider clients write to the wire. (toolscout-agent holds a copy of
 * this conversion in its {@code internal} package: sharing this one would put AiServices on the server's class path
 * through the agent.) Keeps
 * types, properties, required, items, enums, anyOf/oneOf, $ref/$defs and descriptions; drops what the element
 * model has no place for (formats, bounds, patterns): the tool checks its own arguments, and an argument it
 * refuses goes back to the model as an error. Depth is capped (a schema is a tool's input, from outside).
 */
public final class ToolDefinitions {
    private static final int MAX_DEPTH = 32;

    private ToolDefinitions() {}

    /** The provider-facing definition of {@code spec}: its full name, description and parameters. */
    public static ToolSpecification of(ToolSpec spec) {
        return builder(spec).build();
    }

    /** {@link #of} as a builder, to add to (LangChain4j's metadata, such as its search behaviour). */
    public static ToolSpecification.Builder builder(ToolSpec spec) {
        return ToolSpecification.builder()
                .name(spec.fullName())
                .description(spec.description())
                .parameters(object(spec.parameters(), 0));
    }

    /** The JSON Schema {@code schema} (an object's) as LangChain4j's object schema; an empty one for a non-object. */
    public static JsonObjectSchema parameters(JsonNode schema) {
        return object(schema, 0);
    }

    static JsonObjectSchema object(JsonNode schema, int depth) {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        if (schema == null || !schema.isObject()) {
            return b.build();
        }
        if (schema.path("description").isTextual()) {
            b.description(schema.get("description").textValue());
        }
        Map<String, JsonSchemaElement> props = new LinkedHashMap<>();
        schema.path("properties").properties().forEach(e -> props.put(e.getKey(), element(e.getValue(), depth + 1)));
        b.addProperties(props);
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> {
            if (r.isTextual() && props.containsKey(r.textValue())) {
                required.add(r.textValue());
            }
        });
        b.required(required);
        if (schema.path("additionalProperties").isBoolean()) {
            b.additionalProperties(schema.get("additionalProperties").booleanValue());
        }
        JsonNode defs = schema.has("$defs") ? schema.get("$defs") : schema.get("definitions");
        if (defs != null && defs.isObject() && depth == 0) {
            Map<String, JsonSchemaElement> d = new LinkedHashMap<>();
            defs.properties().forEach(e -> d.put(e.getKey(), element(e.getValue(), depth + 1)));
            b.definitions(d);
        }
        return b.build();
    }

    static JsonSchemaElement element(JsonNode s, int depth) {
        if (s == null || !s.isObject() || depth > MAX_DEPTH) {
            return JsonStringSchema.builder().build();
        }
        String description =
                s.path("description").isTextual() ? s.get("description").textValue() : null;
        if (s.path("$ref").isTextual()) {
            String ref = s.get("$ref").textValue();
            int slash = ref.lastIndexOf('/');
            return JsonReferenceSchema.builder()
                    .reference(slash >= 0 ? ref.substring(slash + 1) : ref)
                    .build();
        }
        if (s.path("enum").isArray()) {
            List<String> values = new ArrayList<>();
            s.get("enum").forEach(v -> values.add(v.asText()));
            return JsonEnumSchema.builder()
                    .description(description)
                    .enumValues(values)
                    .build();
        }
        for (String key : new String[] {"anyOf", "oneOf"}) {
            if (s.path(key).isArray()) {
                List<JsonSchemaElement> any = new ArrayList<>();
                s.get(key).forEach(v -> any.add(element(v, depth + 1)));
                return JsonAnyOfSchema.builder()
                        .description(description)
                        .anyOf(any)
                        .build();
            }
        }
        JsonNode type = s.get("type");
        if (type != null && type.isArray()) {
            // ["string", "null"]: the first type that is not null
            JsonNode first = null;
            for (JsonNode t : type) {
                if (!"null".equals(t.asText())) {
                    first = t;
                    break;
                }
            }
            type = first;
        }
        String t = type == null ? (s.has("properties") ? "object" : "string") : type.asText();
        return switch (t) {
            case "object" -> object(s, depth);
            case "array" ->
                JsonArraySchema.builder()
                        .description(description)
                        .items(element(s.get("items"), depth + 1))
                        .build();
            case "integer" ->
                JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" ->
                JsonBooleanSchema.builder().description(description).build();
            case "null" -> new JsonNullSchema();
            default -> JsonStringSchema.builder().description(description).build();
        };
    }
}
