package dev.toolscout.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The JSON form of a {@link ToolSpec}, used by catalog files and the state store. Field names are
 * snake_case: {@code name, source_kind, description, category, tags, parameters, ai_access, side_effect,
 * depends_on, original_name}, and {@code examples} and {@code output_schema} when the tool has them (left out
 * otherwise, so the JSON and the content hash of a tool without them are what they were before they existed).
 * Reading is lenient on spelling ({@code input_schema} and {@code inputSchema} are accepted for {@code
 * parameters}, {@code outputSchema} for {@code output_schema}; enum values in any case) and strict on meaning.
 */
public final class ToolSpecJson {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private ToolSpecJson() {}

    public static ObjectNode toJson(ToolSpec spec) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", spec.fullName());
        n.put("source_kind", spec.sourceKind().name().toLowerCase(Locale.ROOT));
        n.put("description", spec.description());
        n.put("category", spec.category());
        ArrayNode tags = n.putArray("tags");
        spec.tags().forEach(tags::add);
        n.set("parameters", spec.parameters().deepCopy());
        n.put("ai_access", spec.aiAccess().name().toLowerCase(Locale.ROOT));
        n.put("side_effect", spec.sideEffect().name().toLowerCase(Locale.ROOT));
        ArrayNode deps = n.putArray("depends_on");
        spec.dependsOn().forEach(deps::add);
        if (spec.originalName() != null) {
            n.put("original_name", spec.originalName());
        }
        if (!spec.examples().isEmpty()) {
            ArrayNode examples = n.putArray("examples");
            spec.examples().forEach(examples::add);
        }
        if (spec.outputSchema() != null) {
            n.set("output_schema", spec.outputSchema().deepCopy());
        }
        return n;
    }

    /**
     * Reads one tool. {@code defaults} fills fields the node leaves out (a catalog file's per-source
     * defaults); may be empty.
     *
     * @throws InvalidSpecException naming the tool, the field, the rule and the value
     */
    public static ToolSpec fromJson(JsonNode n, JsonNode defaults) {
        return fromJson(n, defaults, new ArrayList<>());
    }

    /**
     * Reads one tool, its parameters as {@link ToolSchemas} reads them (Python-style types, parameter maps and
     * lists). A schema that cannot be read leaves the tool with its name and description and adds a line to
     * {@code problems}, {@code "parameters: <why>"}, for the loader to count and name.
     *
     * @throws InvalidSpecException naming the tool, the field, the rule and the value
     */
    public static ToolSpec fromJson(JsonNode n, JsonNode defaults, List<String> problems) {
        if (n == null || !n.isObject()) {
            throw new InvalidSpecException(String.valueOf(n), "tool", "must be a JSON object, got: " + n);
        }
        JsonNode nameNode = n.get("name");
        if (nameNode == null || !nameNode.isTextual()) {
            throw new InvalidSpecException("?", "name", "is required and must be a string, got: " + nameNode);
        }
        String name = nameNode.asText();
        ToolName toolName = ToolName.parse(name);
        ToolSpec.Builder b = ToolSpec.builder(toolName, text(n, defaults, name, "description"));
        b.sourceKind(enumValue(SourceKind.class, n, defaults, name, "source_kind"));
        b.category(text(n, defaults, name, "category"));
        b.tags(strings(n, defaults, name, "tags"));
        ToolSchemas.Read schema = ToolSchemas.read(first(n, "parameters", "input_schema", "inputSchema"));
        if (!schema.readable()) {
            problems.add("parameters: " + schema.problem());
        }
        b.parameters(schema.schema());
        b.aiAccess(enumValue(AiAccess.class, n, defaults, name, "ai_access"));
        b.sideEffect(enumValue(SideEffect.class, n, defaults, name, "side_effect"));
        b.dependsOn(dependencyNames(name, n.get("depends_on")));
        b.originalName(text(n, null, name, "original_name"));
        b.examples(strings(n, null, name, "examples"));
        JsonNode output = first(n, "output_schema", "outputSchema");
        if (output != null && !output.isNull()) {
            ToolSchemas.Read out = ToolSchemas.read(output);
            if (out.readable()) {
                b.outputSchema(out.schema());
            } else {
                problems.add("output_schema: " + out.problem());
            }
        }
        return b.build();
    }

    /** Parses a tool from JSON text. */
    public static ToolSpec fromJson(String json) {
        try {
            return fromJson(MAPPER.readTree(json), null);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool JSON is malformed: " + e.getOriginalMessage(), e);
        }
    }

    /** Serializes with object keys sorted at every depth, so equal trees give equal text. */
    public static String canonical(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(sorted(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> m = new TreeMap<>();
            node.properties().forEach(e -> m.put(e.getKey(), sorted(e.getValue())));
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            m.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(c -> out.add(sorted(c)));
            return out;
        }
        return node;
    }

    /** {@code depends_on} is a list of names, or of objects with a {@code name} field. */
    static List<String> dependencyNames(String tool, JsonNode deps) {
        if (deps == null || deps.isNull()) {
            return List.of();
        }
        if (!deps.isArray()) {
            throw new InvalidSpecException(tool, "depends_on", "must be a list of tool names, got: " + deps);
        }
        List<String> out = new ArrayList<>();
        for (JsonNode d : deps) {
            if (d.isTextual()) {
                out.add(d.asText());
            } else if (d.isObject() && d.path("name").isTextual()) {
                out.add(d.get("name").asText());
            } else {
                throw new InvalidSpecException(
                        tool, "depends_on", "entries must be names or objects with a 'name', got: " + d);
            }
        }
        return out;
    }

    private static JsonNode first(JsonNode n, String... keys) {
        for (String k : keys) {
            if (n.has(k)) {
                return n.get(k);
            }
        }
        return null;
    }

    private static JsonNode field(JsonNode n, JsonNode defaults, String key) {
        JsonNode v = n.get(key);
        if ((v == null || v.isNull()) && defaults != null) {
            v = defaults.get(key);
        }
        return v == null || v.isNull() ? null : v;
    }

    private static String text(JsonNode n, JsonNode defaults, String tool, String key) {
        JsonNode v = field(n, defaults, key);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidSpecException(tool, key, "must be a string, got: " + v);
        }
        return v.asText();
    }

    private static List<String> strings(JsonNode n, JsonNode defaults, String tool, String key) {
        JsonNode v = field(n, defaults, key);
        if (v == null) {
            return List.of();
        }
        if (!v.isArray()) {
            throw new InvalidSpecException(tool, key, "must be a list of strings, got: " + v);
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw new InvalidSpecException(tool, key, "must be a list of strings, got entry: " + e);
            }
            out.add(e.asText());
        }
        return out;
    }

    private static <E extends Enum<E>> E enumValue(
            Class<E> type, JsonNode n, JsonNode defaults, String tool, String key) {
        String v = text(n, defaults, tool, key);
        if (v == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, v.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            List<String> allowed = new ArrayList<>();
            for (E c : type.getEnumConstants()) {
                allowed.add(c.name().toLowerCase(Locale.ROOT));
            }
            throw new InvalidSpecException(tool, key, "must be one of " + allowed + ", got: '" + v + "'");
        }
    }
}
