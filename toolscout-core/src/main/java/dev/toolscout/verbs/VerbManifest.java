package dev.toolscout.verbs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InvalidSpecException;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolName;
import dev.toolscout.model.ToolSchemas;
import dev.toolscout.model.ToolSpec;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An action verb, as seed 002's verb manifests describe one: what it does, what it can do, requests it serves,
 * and its inputs and outputs. Immutable; the schemas are private copies that callers must not mutate.
 *
 * <p>A verb is stored as a catalog tool named {@code verbs__<VERB>} of kind {@link SourceKind#VERB} ({@link
 * #toSpec()}), so it is indexed, searched and access-controlled exactly like a tool: an access rule on source
 * {@code verbs} covers every verb, one on tool {@code verbs__SEARCH_WEB} that verb.
 *
 * <p>Rules (each an {@link InvalidVerbException} naming the verb, the field, the rule and the bad value):
 *
 * <ul>
 *   <li>{@code verb}: upper snake case, {@code ^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$}, at most 57 ({@link #MAX_VERB})
 *       characters (so that {@code verbs__<VERB>} fits the 64-character wire rule of tool names). {@link
 *       #normalizeVerb} turns {@code search-web} or {@code search web} into {@code SEARCH_WEB} first;
 *   <li>{@code description}: required, at most {@value ToolSpec#MAX_DESCRIPTION} characters;
 *   <li>{@code capabilities}: at most {@value ToolSpec#MAX_TAGS} labels of at most {@value ToolSpec#MAX_LABEL}
 *       characters (lower-cased, duplicates dropped);
 *   <li>{@code category}: {@code [a-z0-9_.-]}, at most {@value ToolSpec#MAX_LABEL} characters after
 *       lower-casing ({@value ToolSpec#DEFAULT_CATEGORY} when absent);
 *   <li>{@code examples}: at most {@value ToolSpec#MAX_EXAMPLES}, each at most {@value ToolSpec#MAX_EXAMPLE}
 *       characters;
 *   <li>{@code inputDefinitions}, {@code outputDefinitions}: object JSON Schemas (read from the seed's lists of
 *       {@code {name, type, description, required}} by {@link ToolSchemas}) of at most {@value #MAX_DEFINITIONS}
 *       properties each; outputs may be absent ({@code null}).
 * </ul>
 *
 * @param verb the verb, e.g. {@code SEARCH_WEB}
 * @param description what the verb does
 * @param capabilities what it can do, as labels ({@code web_search}); searched as the tool's tags
 * @param category a grouping for listings and access rules
 * @param examples requests it serves, in a user's words; searched and embedded with the description
 * @param inputDefinitions its inputs, the catalog tool's parameter schema
 * @param outputDefinitions its outputs, kept as the catalog tool's output schema, or {@code null}
 */
public record VerbManifest(
        String verb,
        String description,
        List<String> capabilities,
        String category,
        List<String> examples,
        ObjectNode inputDefinitions,
        ObjectNode outputDefinitions) {

    /** The source part of every verb's tool name: {@code verbs__SEARCH_WEB}. */
    public static final String SOURCE = "verbs";

    /** The longest verb: the tool name {@code verbs__<VERB>} must fit in 64 characters. */
    public static final int MAX_VERB = 64 - SOURCE.length() - ToolName.SEPARATOR.length();

    /** The most inputs (and the most outputs) a verb declares. */
    public static final int MAX_DEFINITIONS = 64;

    /** The verb naming rule, checked after {@link #normalizeVerb}. */
    public static final Pattern VERB = Pattern.compile("^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$");

    private static final Pattern SEPARATORS = Pattern.compile("[\\s.-]+");

    public VerbManifest {
        String v = verb == null ? "null" : verb;
        if (verb == null || !VERB.matcher(verb).matches()) {
            throw new InvalidVerbException(
                    v,
                    "verb",
                    "must be upper snake case matching " + VERB.pattern() + " (e.g. SEARCH_WEB), got: '"
                            + InvalidVerbException.shown(v) + "'");
        }
        if (verb.length() > MAX_VERB) {
            throw new InvalidVerbException(
                    v,
                    "verb",
                    "must be at most " + MAX_VERB + " characters (verbs__<VERB> is a"
                            + " tool name of at most 64), got: " + verb.length());
        }
        if (description == null || description.isBlank()) {
            throw new InvalidVerbException(v, "description", "is required and must not be blank");
        }
        capabilities = capabilities == null
                ? List.of()
                : List.copyOf(new LinkedHashSet<>(capabilities.stream()
                        .filter(c -> c != null && !c.isBlank())
                        .map(c -> c.strip().toLowerCase(Locale.ROOT))
                        .toList()));
        examples = examples == null
                ? List.of()
                : examples.stream().filter(Objects::nonNull).toList();
        inputDefinitions = definitions(v, "inputDefinitions", inputDefinitions);
        outputDefinitions = outputDefinitions == null ? null : definitions(v, "outputDefinitions", outputDefinitions);
        // the remaining rules are the catalog tool's: check them here, under the manifest's field names
        ToolSpec spec = spec(verb, description, capabilities, category, examples, inputDefinitions, outputDefinitions);
        description = spec.description();
        category = spec.category();
        examples = spec.examples();
    }

    /**
     * A manifest read from JSON values as the seed writes them: {@code inputDefinitions} and {@code
     * outputDefinitions} may be lists of {@code {name, type, description, required}} or JSON Schema objects
     * ({@link ToolSchemas}); the verb goes through {@link #normalizeVerb}.
     *
     * @throws InvalidVerbException when a definition cannot be read or a rule is broken
     */
    public static VerbManifest of(
            String verb,
            String description,
            List<String> capabilities,
            String category,
            List<String> examples,
            JsonNode inputDefinitions,
            JsonNode outputDefinitions) {
        String v = normalizeVerb(verb);
        return new VerbManifest(
                v,
                description,
                capabilities,
                category,
                examples,
                read(v, "inputDefinitions", inputDefinitions),
                outputDefinitions == null || outputDefinitions.isNull()
                        ? null
                        : read(v, "outputDefinitions", outputDefinitions));
    }

    /**
     * The verb as the rule wants it, for input written loosely: stripped, upper-cased ({@link Locale#ROOT}), runs
     * of white space, {@code -} and {@code .} turned into one {@code _}. {@code search-web} becomes {@code
     * SEARCH_WEB}; anything else the rule refuses is left for it to name. {@code null} stays {@code null}.
     */
    public static String normalizeVerb(String verb) {
        if (verb == null) {
            return null;
        }
        return SEPARATORS.matcher(verb.strip()).replaceAll("_").toUpperCase(Locale.ROOT);
    }

    /** The catalog tool name of a verb: {@code verbs__SEARCH_WEB}. */
    public static String toolName(String verb) {
        return SOURCE + ToolName.SEPARATOR + verb;
    }

    /** This verb's catalog tool name. */
    public String toolName() {
        return toolName(verb);
    }

    /**
     * The catalog tool this verb is stored and indexed as: named {@link #toolName()}, kind {@link
     * SourceKind#VERB}, the description, category and examples as they are, the capabilities as tags, the inputs
     * as parameters and the outputs as the output schema; AI access {@code execute} and side effect {@code read}
     * (a manifest does not say; an access policy hides or blocks verbs like any tool).
     */
    public ToolSpec toSpec() {
        return spec(verb, description, capabilities, category, examples, inputDefinitions, outputDefinitions);
    }

    /** Whether {@code spec} is a verb's catalog tool. */
    public static boolean isVerb(ToolSpec spec) {
        return spec.sourceKind() == SourceKind.VERB && spec.name().source().equals(SOURCE);
    }

    /**
     * The manifest a verb's catalog tool was made from ({@link #toSpec()} reversed).
     *
     * @throws IllegalArgumentException when {@code spec} is not a verb's tool ({@link #isVerb})
     */
    public static VerbManifest fromSpec(ToolSpec spec) {
        if (!isVerb(spec)) {
            throw new IllegalArgumentException("tool '" + spec.fullName() + "' is not a verb (kind "
                    + spec.sourceKind().name().toLowerCase(Locale.ROOT) + ", source "
                    + spec.name().source() + ")");
        }
        return new VerbManifest(
                spec.name().action(),
                spec.description(),
                spec.tags(),
                spec.category(),
                spec.examples(),
                spec.parameters(),
                spec.outputSchema());
    }

    private static ToolSpec spec(
            String verb,
            String description,
            List<String> capabilities,
            String category,
            List<String> examples,
            ObjectNode inputs,
            ObjectNode outputs) {
        try {
            return ToolSpec.builder(toolName(verb), description)
                    .sourceKind(SourceKind.VERB)
                    .category(category)
                    .tags(capabilities)
                    .examples(examples)
                    .parameters(inputs)
                    .outputSchema(outputs)
                    .aiAccess(AiAccess.EXECUTE)
                    .sideEffect(SideEffect.READ)
                    .build();
        } catch (InvalidSpecException e) {
            throw new InvalidVerbException(verb, manifestField(e.field()), detail(e));
        }
    }

    /** The manifest's name for a catalog tool's field. */
    private static String manifestField(String field) {
        if (field.equals("tags")) {
            return "capabilities";
        }
        if (field.startsWith("parameters")) {
            return "inputDefinitions" + field.substring("parameters".length());
        }
        if (field.startsWith("output_schema")) {
            return "outputDefinitions" + field.substring("output_schema".length());
        }
        return field;
    }

    /** The rule and the value of a catalog tool's error, without its {@code tool '...': field} prefix. */
    private static String detail(InvalidSpecException e) {
        String prefix = "tool '" + e.tool() + "': " + e.field() + " ";
        String m = e.getMessage();
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    private static ObjectNode read(String verb, String field, JsonNode definitions) {
        ToolSchemas.Read r = ToolSchemas.read(definitions);
        if (!r.readable()) {
            throw new InvalidVerbException(
                    verb == null ? "null" : verb,
                    field,
                    "must be a list of {name, type, description, required} or a JSON Schema object: " + r.problem());
        }
        return r.schema();
    }

    private static ObjectNode definitions(String verb, String field, ObjectNode schema) {
        if (schema == null) {
            return read(verb, field, null);
        }
        JsonNode props = schema.path("properties");
        if (props.size() > MAX_DEFINITIONS) {
            throw new InvalidVerbException(
                    verb, field, "must declare at most " + MAX_DEFINITIONS + " properties, got: " + props.size());
        }
        return schema.deepCopy();
    }
}
