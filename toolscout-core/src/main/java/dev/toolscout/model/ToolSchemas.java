package dev.toolscout.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads tool parameter schemas as public catalogs write them into JSON Schema object schemas that every model
 * API accepts, keeping each parameter's name and description (the text the index searches).
 *
 * <p>Accepted besides JSON Schema: Python-style type names ({@code dict}, {@code str}, {@code int}, {@code
 * float}, {@code bool}, {@code list}, {@code tuple}, {@code any}, in any case, and forms such as {@code
 * List[str]} or {@code Optional[int]}); a missing {@code type}; a map of parameter name to parameter (no {@code
 * properties}); a list of {@code {name, type, description, required}}; {@code required: true} on a parameter.
 * A type name that is none of these (say {@code date}) is dropped, since an unknown type makes model APIs
 * refuse the whole request, and kept as words in the parameter's description. A {@code required} list is kept
 * as written ({@link ToolSpec} refuses one that names a missing parameter).
 *
 * <p>Unreadable: parameters that are neither an object nor a list, or a top-level type that is not an object
 * ({@code "string"}). The tool then keeps its name and description with an empty schema, and {@link
 * Read#problem()} says why, so loaders can count and name it.
 *
 * <p>Stateless and thread-safe.
 */
public final class ToolSchemas {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Set<String> JSON_TYPES =
            Set.of("string", "number", "integer", "boolean", "object", "array", "null");
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("str", "string"),
            Map.entry("text", "string"),
            Map.entry("int", "integer"),
            Map.entry("long", "integer"),
            Map.entry("float", "number"),
            Map.entry("double", "number"),
            Map.entry("bool", "boolean"),
            Map.entry("list", "array"),
            Map.entry("tuple", "array"),
            Map.entry("set", "array"),
            Map.entry("dict", "object"),
            Map.entry("map", "object"),
            Map.entry("none", "null"),
            Map.entry("nonetype", "null"));
    /** Type names meaning "anything": the {@code type} keyword is left out. */
    private static final Set<String> ANY = Set.of("any", "mixed", "");
    /** Deepest nesting read; deeper parts are kept as they are. */
    private static final int MAX_DEPTH = 8;

    private ToolSchemas() {}

    /**
     * A schema as read.
     *
     * @param schema an object schema {@link ToolSpec} accepts (empty when the input could not be read)
     * @param problem why the input could not be read, or {@code null} when it was
     */
    public record Read(ObjectNode schema, String problem) {
        public boolean readable() {
            return problem == null;
        }
    }

    /** Reads {@code params} (as found in a tool's {@code parameters}); {@code null} or JSON null is no parameters. */
    public static Read read(JsonNode params) {
        if (params == null || params.isNull() || params.isMissingNode()) {
            return new Read(emptySchema(), null);
        }
        if (params.isArray()) {
            return new Read(fromList(params), null);
        }
        if (!params.isObject()) {
            return unreadable("must be a JSON Schema object, got: " + brief(params));
        }
        JsonNode type = params.get("type");
        if (type != null && !type.isNull()) {
            String t = type.isTextual() ? jsonType(type.asText()) : null;
            if (!"object".equals(t)) {
                return unreadable("type must be an object type (object or dict), got: " + brief(type));
            }
        }
        if (!params.has("properties") && !params.has("type") && looksLikeParameterMap(params)) {
            ObjectNode wrapped = emptySchema();
            wrapped.set("properties", params.deepCopy());
            return new Read(objectSchema(wrapped, 0), null);
        }
        return new Read(objectSchema((ObjectNode) params, 0), null);
    }

    private static Read unreadable(String why) {
        return new Read(emptySchema(), why);
    }

    private static ObjectNode emptySchema() {
        ObjectNode s = F.objectNode();
        s.put("type", "object");
        s.putObject("properties");
        return s;
    }

    /** An object with no schema keywords whose values are all parameter-like objects. */
    private static boolean looksLikeParameterMap(JsonNode n) {
        if (n.isEmpty()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            JsonNode v = e.getValue();
            if (!v.isObject() || !(v.has("type") || v.has("description"))) {
                return false;
            }
        }
        return true;
    }

    /** An object schema: {@code type: object}, its properties read one by one, {@code required} kept if sound. */
    private static ObjectNode objectSchema(ObjectNode in, int depth) {
        ObjectNode s = in.deepCopy();
        s.put("type", "object");
        JsonNode props = in.get("properties");
        if (props != null && !props.isObject()) {
            return s; // no reading of it: ToolSpec names the field and the bad value
        }
        ObjectNode out = F.objectNode();
        Set<String> required = new LinkedHashSet<>(); // from parameters marked required: true
        if (props != null && props.isObject()) {
            for (Map.Entry<String, JsonNode> e : props.properties()) {
                out.set(e.getKey(), parameter(e.getValue(), depth + 1));
                if (e.getValue().isObject() && e.getValue().path("required").isBoolean()) {
                    ((ObjectNode) out.get(e.getKey())).remove("required");
                    if (e.getValue().get("required").asBoolean()) {
                        required.add(e.getKey());
                    }
                }
            }
        }
        s.set("properties", out);
        JsonNode given = in.get("required");
        // the list stays exactly as written unless parameters marked themselves required (so a stored schema reads
        // back unchanged, hash and all, and a list naming a missing parameter is still the author's error to fix)
        if (required.isEmpty() || (given != null && !given.isArray())) {
            return s;
        }
        List<String> listed = new ArrayList<>();
        for (JsonNode r : given == null ? F.arrayNode() : given) {
            listed.add(r.asText());
        }
        required.addAll(listed);
        s.remove("required");
        if (!required.isEmpty()) {
            ArrayNode a = s.putArray("required");
            required.forEach(a::add);
        }
        return s;
    }

    /** One parameter: its type mapped, nested objects and array items read; a bare string is a type or a text. */
    private static JsonNode parameter(JsonNode p, int depth) {
        // returns an ObjectNode for every object or text input
        if (p.isTextual()) {
            ObjectNode o = F.objectNode();
            String t = jsonType(p.asText());
            if (t != null) {
                o.put("type", t);
            } else if (!ANY.contains(p.asText().strip().toLowerCase(Locale.ROOT))) {
                o.put("description", p.asText());
            }
            return o;
        }
        if (!p.isObject()) {
            return p.deepCopy(); // a number, a list or a boolean is no parameter: ToolSpec names it
        }
        ObjectNode o = ((ObjectNode) p).deepCopy();
        if (depth > MAX_DEPTH) {
            return o;
        }
        JsonNode type = o.get("type");
        if (type != null) {
            if (type.isTextual()) {
                String raw = type.asText();
                String t = jsonType(raw);
                if (t != null) {
                    o.put("type", t);
                    String item = itemType(raw);
                    if (t.equals("array") && item != null && !o.has("items")) {
                        o.putObject("items").put("type", item);
                    }
                } else {
                    o.remove("type");
                    if (!ANY.contains(raw.strip().toLowerCase(Locale.ROOT))) {
                        // the type's word still describes the value (a date, an email): keep it for the index and the
                        // model
                        String d = o.path("description").isTextual()
                                ? o.get("description").asText().strip()
                                : "";
                        o.put("description", (d.isEmpty() ? "" : d + " ") + "(" + raw.strip() + ")");
                    }
                }
            } else if (type.isArray()) {
                ArrayNode kept = F.arrayNode();
                for (JsonNode t : type) {
                    String m = t.isTextual() ? jsonType(t.asText()) : null;
                    if (m != null && !contains(kept, m)) {
                        kept.add(m);
                    }
                }
                if (kept.isEmpty()) {
                    o.remove("type");
                } else {
                    o.set("type", kept.size() == 1 ? kept.get(0) : kept);
                }
            } else {
                o.remove("type");
            }
        }
        if (o.path("properties").isObject() || "object".equals(o.path("type").asText())) {
            if (o.has("properties") && !o.get("properties").isObject()) {
                o.remove("properties");
            }
            if (o.has("properties")) {
                ObjectNode nested = objectSchema(o, depth);
                if (!o.has("type")) {
                    nested.remove("type");
                }
                o = nested;
            }
        }
        JsonNode items = o.get("items");
        if (items != null && (items.isObject() || items.isTextual())) {
            o.set("items", parameter(items, depth + 1));
        }
        return o;
    }

    private static boolean contains(ArrayNode a, String v) {
        for (JsonNode n : a) {
            if (n.asText().equals(v)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The JSON Schema type a type name stands for, or {@code null} for none (unknown, or "any"). Reads {@code
     * Optional[X]} as X, {@code List[X]}, {@code list of X} and {@code X[]} as array, {@code Dict[...]} as object,
     * and {@code "str, optional"} as str.
     */
    public static String jsonType(String name) {
        String t = name.strip().toLowerCase(Locale.ROOT);
        int comma = t.indexOf(',');
        if (comma > 0 && t.substring(comma + 1).strip().equals("optional")) {
            t = t.substring(0, comma).strip();
        }
        if (t.startsWith("optional[") && t.endsWith("]")) {
            t = t.substring("optional[".length(), t.length() - 1).strip();
        }
        if (JSON_TYPES.contains(t)) {
            return t;
        }
        String alias = ALIASES.get(t);
        if (alias != null) {
            return alias;
        }
        if (t.endsWith("[]")
                || t.startsWith("list[")
                || t.startsWith("tuple[")
                || t.startsWith("set[")
                || t.startsWith("list of ")
                || t.startsWith("array")) {
            return "array";
        }
        if (t.startsWith("dict[") || t.startsWith("map[")) {
            return "object";
        }
        return null;
    }

    /** The item type of {@code List[str]}, {@code str[]} or {@code list of str}, when it is a known one. */
    private static String itemType(String name) {
        String t = name.strip().toLowerCase(Locale.ROOT);
        String inner = null;
        int open = t.indexOf('[');
        if (t.endsWith("[]")) {
            inner = t.substring(0, t.length() - 2);
        } else if (open > 0 && t.endsWith("]")) {
            inner = t.substring(open + 1, t.length() - 1);
        } else if (t.startsWith("list of ")) {
            inner = t.substring("list of ".length());
        }
        if (inner == null || inner.contains(",") || inner.contains("[")) {
            return null;
        }
        return jsonType(inner);
    }

    /** A list of {@code {name, type | schema.type, description, required}} as an object schema. */
    private static ObjectNode fromList(JsonNode list) {
        ObjectNode s = emptySchema();
        ObjectNode props = s.withObject("properties");
        List<String> required = new ArrayList<>();
        for (JsonNode p : list) {
            String name = p.path("name").isTextual() ? p.get("name").asText().strip() : "";
            if (name.isEmpty()) {
                continue;
            }
            ObjectNode prop = F.objectNode();
            JsonNode type = p.path("type").isTextual()
                    ? p.get("type")
                    : p.path("schema").path("type");
            if (type.isTextual()) {
                prop.put("type", type.asText());
            }
            if (p.path("description").isTextual()
                    && !p.get("description").asText().isBlank()) {
                prop.put("description", p.get("description").asText());
            }
            for (String k : List.of("enum", "default", "items")) {
                if (p.has(k)) {
                    prop.set(k, p.get(k).deepCopy());
                }
            }
            props.set(name, parameter(prop, 1));
            if (p.path("required").asBoolean(false)) {
                required.add(name);
            }
        }
        if (!required.isEmpty()) {
            ArrayNode a = s.putArray("required");
            required.forEach(a::add);
        }
        return s;
    }

    private static String brief(JsonNode n) {
        String s = n.toString();
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
