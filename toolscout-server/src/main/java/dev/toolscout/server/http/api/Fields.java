package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the fields of one JSON object of a request, strictly: a field the object may not have is refused
 * (naming it and the allowed ones), since a misspelt {@code tokenBudget} silently ignored would return a
 * different answer than the caller asked for. Each getter checks the type and the rule and throws {@link
 * ApiProblem#invalid} naming the field (with its position, e.g. {@code upserts[2].name}), the rule and the
 * value. Not thread-safe; one per request.
 */
public final class Fields {
    private final JsonNode node;
    private final String at;

    private Fields(JsonNode node, String at) {
        this.node = node;
        this.at = at;
    }

    /**
     * The fields of {@code node}, which must be an object with no fields but {@code allowed}.
     *
     * @param at the object's position for messages ({@code ""} for the body itself, {@code "upserts[2]"})
     */
    public static Fields of(JsonNode node, String at, Set<String> allowed) {
        String what = at.isEmpty() ? "the request body" : at;
        if (node == null || !node.isObject()) {
            throw ApiProblem.invalid(
                    at.isEmpty() ? "body" : at,
                    "a JSON object",
                    node,
                    what + " must be a JSON object, got: " + kind(node));
        }
        for (String name : (Iterable<String>) node::fieldNames) {
            if (!allowed.contains(name)) {
                List<String> sorted = new ArrayList<>(allowed);
                sorted.sort(null);
                throw ApiProblem.invalid(
                        path(at, name),
                        "a known field (" + String.join(", ", sorted) + ")",
                        JsonNodeFactory.instance.textNode(name),
                        "unknown field '" + shown(name) + "' in " + what + " (allowed: " + String.join(", ", sorted)
                                + ")");
            }
        }
        return new Fields(node, at);
    }

    /** The field as sent, or null when it is absent or JSON null. */
    public JsonNode node(String name) {
        JsonNode v = node.get(name);
        return v == null || v.isNull() ? null : v;
    }

    /** A string of 1 to {@code max} characters (after trimming), or null when absent and not required. */
    public String text(String name, boolean required, int max) {
        JsonNode v = node(name);
        String input = path(at, name);
        if (v == null) {
            if (required) {
                throw ApiProblem.invalid(input, "required", (JsonNode) null, input + " is required");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw ApiProblem.invalid(input, "a string", v, input + " must be a string, got: " + kind(v));
        }
        String s = v.textValue();
        if (s.isBlank()) {
            throw ApiProblem.invalid(input, "not blank", v, input + " must not be blank");
        }
        if (s.length() > max) {
            throw ApiProblem.invalid(
                    input,
                    String.format(Locale.ROOT, "at most %,d characters", max),
                    v,
                    String.format(
                            Locale.ROOT,
                            "%s must be at most %,d characters, got: %,d characters",
                            input,
                            max,
                            s.length()));
        }
        return s;
    }

    /** An integer between {@code min} and {@code max}, or null when absent. */
    public Integer integer(String name, int min, int max) {
        JsonNode v = node(name);
        String input = path(at, name);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < min || v.intValue() > max) {
            throw ApiProblem.invalid(
                    input,
                    "an integer between " + min + " and " + max,
                    v,
                    input + " must be an integer between " + min + " and " + max + ", got: " + shown(v));
        }
        return v.intValue();
    }

    /** A boolean, or {@code dflt} when absent. */
    public boolean bool(String name, boolean dflt) {
        JsonNode v = node(name);
        if (v == null) {
            return dflt;
        }
        if (!v.isBoolean()) {
            String input = path(at, name);
            throw ApiProblem.invalid(input, "true or false", v, input + " must be true or false, got: " + shown(v));
        }
        return v.booleanValue();
    }

    /** One of {@code values} (exactly as listed), or {@code dflt} when absent. */
    public String oneOf(String name, List<String> values, String dflt) {
        JsonNode v = node(name);
        if (v == null) {
            return dflt;
        }
        String input = path(at, name);
        if (!v.isTextual() || !values.contains(v.textValue())) {
            String rule = "one of " + String.join(", ", values);
            throw ApiProblem.invalid(input, rule, v, input + " must be " + rule + ", got: " + shown(v));
        }
        return v.textValue();
    }

    /** An array (possibly empty), or an empty list when absent. */
    public List<JsonNode> array(String name, int maxItems) {
        JsonNode v = node(name);
        String input = path(at, name);
        if (v == null) {
            return List.of();
        }
        if (!v.isArray()) {
            throw ApiProblem.invalid(input, "an array", v, input + " must be an array, got: " + kind(v));
        }
        if (v.size() > maxItems) {
            throw ApiProblem.invalid(
                    input,
                    String.format(Locale.ROOT, "at most %,d items", maxItems),
                    JsonNodeFactory.instance.numberNode(v.size()),
                    String.format(Locale.ROOT, "%s must have at most %,d items, got: %,d", input, maxItems, v.size()));
        }
        List<JsonNode> out = new ArrayList<>();
        v.forEach(out::add);
        return out;
    }

    /** {@code at.name}, or {@code name} at the top. */
    static String path(String at, String name) {
        return at.isEmpty() ? name : at + "." + name;
    }

    static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        return switch (n.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    /** A value for a sentence: short scalars as JSON, anything else by its kind. */
    static String shown(JsonNode n) {
        if (n.isValueNode() && n.toString().length() <= ApiProblem.SHOWN) {
            return n.toString();
        }
        return kind(n);
    }

    static String shown(String s) {
        return s.length() <= ApiProblem.SHOWN ? s : s.substring(0, ApiProblem.SHOWN) + "...";
    }
}
