package dev.toolscout.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One tool in the catalog. Immutable once built; {@link #parameters()} and {@link #outputSchema()} are private
 * copies that callers must not mutate.
 *
 * <p>Limits (each a clear {@link InvalidSpecException} when broken): description 1-{@value
 * #MAX_DESCRIPTION} characters; category {@value #MAX_LABEL} characters of {@code [a-z0-9_.-]} after
 * lower-casing; at most {@value #MAX_TAGS} tags of at most {@value #MAX_LABEL} characters; parameters a JSON
 * Schema object whose {@code type}, when present, is {@code "object"}; at most {@value #MAX_EXAMPLES} examples of
 * 1-{@value #MAX_EXAMPLE} characters; an output schema, when given, an object schema like the parameters.
 *
 * @param name the full name, {@code <source>__<action>}
 * @param sourceKind integration, skill, mcp, openapi or verb
 * @param description what the tool does, for the model and for search
 * @param category a grouping for {@code list_all} and access rules ({@code "general"} when absent)
 * @param tags extra search words
 * @param parameters the input JSON Schema (an object schema)
 * @param aiAccess execute, propose or blocked
 * @param sideEffect read, write or delete
 * @param dependsOn names of tools this one needs (a selected tool may bring them along)
 * @param originalName the name at the source (an MCP server's tool name, a dataset id) when it differs, or
 *     {@code null}
 * @param examples requests this tool serves, in the user's words ("Find competitor websites"): searched and
 *     embedded with the description; empty for most tools
 * @param outputSchema what the tool returns, as an object JSON Schema (a verb's output definitions, an MCP
 *     tool's {@code outputSchema}), or {@code null}; kept and shown, not searched
 */
public record ToolSpec(
        ToolName name,
        SourceKind sourceKind,
        String description,
        String category,
        List<String> tags,
        ObjectNode parameters,
        AiAccess aiAccess,
        SideEffect sideEffect,
        List<String> dependsOn,
        String originalName,
        List<String> examples,
        ObjectNode outputSchema) {

    public static final int MAX_DESCRIPTION = 16_384;
    public static final int MAX_LABEL = 64;
    public static final int MAX_TAGS = 32;
    public static final int MAX_EXAMPLES = 16;
    public static final int MAX_EXAMPLE = 512;
    public static final String DEFAULT_CATEGORY = "general";
    private static final Pattern CATEGORY = Pattern.compile("^[a-z0-9_.-]{1,64}$");

    public ToolSpec {
        Objects.requireNonNull(name, "name");
        String tool = name.full();
        if (sourceKind == null) {
            sourceKind = SourceKind.INTEGRATION;
        }
        if (description == null || description.isBlank()) {
            throw new InvalidSpecException(tool, "description", "is required and must not be blank");
        }
        description = description.strip();
        if (description.length() > MAX_DESCRIPTION) {
            throw new InvalidSpecException(
                    tool,
                    "description",
                    "must be at most " + MAX_DESCRIPTION + " characters, got: " + description.length());
        }
        category = category == null || category.isBlank()
                ? DEFAULT_CATEGORY
                : category.strip().toLowerCase(Locale.ROOT);
        if (!CATEGORY.matcher(category).matches()) {
            throw new InvalidSpecException(
                    tool,
                    "category",
                    "must match " + CATEGORY.pattern() + " after lower-casing, got: '" + category + "'");
        }
        tags = normalizeLabels(tool, "tags", tags);
        if (tags.size() > MAX_TAGS) {
            throw new InvalidSpecException(
                    tool, "tags", "must hold at most " + MAX_TAGS + " tags, got: " + tags.size());
        }
        parameters = validateSchema(tool, "parameters", parameters);
        if (aiAccess == null) {
            aiAccess = AiAccess.EXECUTE;
        }
        if (sideEffect == null) {
            sideEffect = SideEffect.READ;
        }
        dependsOn = dependsOn == null ? List.of() : List.copyOf(new LinkedHashSet<>(dependsOn));
        for (String dep : dependsOn) {
            if (dep == null || dep.isBlank()) {
                throw new InvalidSpecException(tool, "depends_on", "must not hold blank names");
            }
        }
        originalName = originalName == null || originalName.equals(tool) ? null : originalName;
        examples = normalizeExamples(tool, examples);
        outputSchema = outputSchema == null ? null : validateSchema(tool, "output_schema", outputSchema);
    }

    /** Starts a builder with the two required fields. */
    public static Builder builder(String name, String description) {
        return new Builder(ToolName.parse(name), description);
    }

    public static Builder builder(ToolName name, String description) {
        return new Builder(name, description);
    }

    /** A builder that starts from this spec. */
    public Builder toBuilder() {
        return new Builder(name, description)
                .sourceKind(sourceKind)
                .category(category)
                .tags(tags)
                .parameters(parameters)
                .aiAccess(aiAccess)
                .sideEffect(sideEffect)
                .dependsOn(dependsOn)
                .originalName(originalName)
                .examples(examples)
                .outputSchema(outputSchema);
    }

    /** The full name, {@code source__action}. */
    public String fullName() {
        return name.full();
    }

    /** The name the source knows this tool by: {@link #originalName()} or the full name. */
    public String sourceName() {
        return originalName != null ? originalName : name.full();
    }

    /** A SHA-256 of the canonical JSON of every field: equal specs have equal hashes across runs and JVMs. */
    public String contentHash() {
        return Hashing.sha256Hex(ToolSpecJson.canonical(ToolSpecJson.toJson(this)));
    }

    /** Parameter names in schema order (top-level properties only). */
    public List<String> parameterNames() {
        JsonNode props = parameters.path("properties");
        List<String> out = new ArrayList<>();
        props.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Required parameter names. */
    public List<String> requiredParameters() {
        List<String> out = new ArrayList<>();
        for (JsonNode n : parameters.path("required")) {
            out.add(n.asText());
        }
        return out;
    }

    private static List<String> normalizeLabels(String tool, String field, List<String> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String s : in) {
            if (s == null || s.isBlank()) {
                continue;
            }
            String v = s.strip().toLowerCase(Locale.ROOT);
            if (v.length() > MAX_LABEL) {
                throw new InvalidSpecException(
                        tool, field, "entries must be at most " + MAX_LABEL + " characters, got: '" + v + "'");
            }
            out.add(v);
        }
        return List.copyOf(out);
    }

    /** Stripped, blank ones dropped, duplicates dropped (first kept), in order; capped in count and length. */
    private static List<String> normalizeExamples(String tool, List<String> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String s : in) {
            if (s == null || s.isBlank()) {
                continue;
            }
            String v = s.strip();
            if (v.length() > MAX_EXAMPLE) {
                throw new InvalidSpecException(
                        tool, "examples", "entries must be at most " + MAX_EXAMPLE + " characters, got: " + v.length());
            }
            out.add(v);
        }
        if (out.size() > MAX_EXAMPLES) {
            throw new InvalidSpecException(
                    tool, "examples", "must hold at most " + MAX_EXAMPLES + " examples, got: " + out.size());
        }
        return List.copyOf(out);
    }

    private static ObjectNode validateSchema(String tool, String field, ObjectNode in) {
        ObjectNode schema = in == null ? JsonNodeFactory.instance.objectNode() : in.deepCopy();
        JsonNode type = schema.get("type");
        if (type == null) {
            schema.put("type", "object");
        } else if (!type.isTextual() || !type.asText().equals("object")) {
            throw new InvalidSpecException(tool, field + ".type", "must be \"object\", got: " + type);
        }
        JsonNode props = schema.get("properties");
        if (props == null) {
            schema.putObject("properties");
        } else if (!props.isObject()) {
            throw new InvalidSpecException(
                    tool, field + ".properties", "must be an object, got: " + props.getNodeType());
        } else {
            for (Map.Entry<String, JsonNode> e : props.properties()) {
                if (!e.getValue().isObject()) {
                    throw new InvalidSpecException(
                            tool, field + ".properties." + e.getKey(), "must be a schema object, got: " + e.getValue());
                }
            }
        }
        JsonNode required = schema.get("required");
        if (required != null) {
            if (!required.isArray()) {
                throw new InvalidSpecException(
                        tool, field + ".required", "must be an array of names, got: " + required);
            }
            for (JsonNode r : required) {
                if (!r.isTextual() || !schema.get("properties").has(r.asText())) {
                    throw new InvalidSpecException(
                            tool, field + ".required", "names a parameter that is not in properties: " + r);
                }
            }
        }
        return schema;
    }

    /** Builds a {@link ToolSpec}; required fields first, the rest defaulted. */
    public static final class Builder {
        private final ToolName name;
        private final String description;
        private SourceKind sourceKind = SourceKind.INTEGRATION;
        private String category;
        private List<String> tags = List.of();
        private ObjectNode parameters;
        private AiAccess aiAccess = AiAccess.EXECUTE;
        private SideEffect sideEffect = SideEffect.READ;
        private List<String> dependsOn = List.of();
        private String originalName;
        private List<String> examples = List.of();
        private ObjectNode outputSchema;

        private Builder(ToolName name, String description) {
            this.name = name;
            this.description = description;
        }

        public Builder sourceKind(SourceKind v) {
            this.sourceKind = v;
            return this;
        }

        public Builder category(String v) {
            this.category = v;
            return this;
        }

        public Builder tags(List<String> v) {
            this.tags = v;
            return this;
        }

        public Builder parameters(ObjectNode v) {
            this.parameters = v;
            return this;
        }

        public Builder aiAccess(AiAccess v) {
            this.aiAccess = v;
            return this;
        }

        public Builder sideEffect(SideEffect v) {
            this.sideEffect = v;
            return this;
        }

        public Builder dependsOn(List<String> v) {
            this.dependsOn = v;
            return this;
        }

        public Builder originalName(String v) {
            this.originalName = v;
            return this;
        }

        public Builder examples(List<String> v) {
            this.examples = v;
            return this;
        }

        public Builder outputSchema(ObjectNode v) {
            this.outputSchema = v;
            return this;
        }

        public ToolSpec build() {
            return new ToolSpec(
                    name,
                    sourceKind,
                    description,
                    category,
                    tags,
                    parameters,
                    aiAccess,
                    sideEffect,
                    dependsOn,
                    originalName,
                    examples,
                    outputSchema);
        }
    }
}
