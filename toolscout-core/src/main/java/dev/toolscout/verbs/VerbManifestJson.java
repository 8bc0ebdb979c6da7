package dev.toolscout.verbs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The JSON form of a {@link VerbManifest}, with seed 002's field names: {@code verb, description, capabilities,
 * category, examples, inputDefinitions, outputDefinitions} ({@code input_definitions} and {@code
 * output_definitions} are read too). Definitions are read from the seed's lists of {@code {name, type,
 * description, required}} or from JSON Schema objects, and written as JSON Schema objects (the form they are
 * stored in). A key this format does not know is an error naming it, since it is usually a misspelt field
 * whose content would otherwise be lost. Stateless and thread-safe.
 */
public final class VerbManifestJson {
    /** The most manifests one document (a file, a request body) may hold. */
    public static final int MAX_MANIFESTS = 500;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Map<String, String> KEYS = Map.of(
            "verb",
            "verb",
            "description",
            "description",
            "capabilities",
            "capabilities",
            "category",
            "category",
            "examples",
            "examples",
            "inputDefinitions",
            "inputDefinitions",
            "input_definitions",
            "inputDefinitions",
            "outputDefinitions",
            "outputDefinitions",
            "output_definitions",
            "outputDefinitions");

    private VerbManifestJson() {}

    /** The manifest as JSON; {@code outputDefinitions} is left out when the verb declares none. */
    public static ObjectNode toJson(VerbManifest m) {
        ObjectNode n = F.objectNode();
        n.put("verb", m.verb());
        n.put("description", m.description());
        ArrayNode caps = n.putArray("capabilities");
        m.capabilities().forEach(caps::add);
        n.put("category", m.category());
        ArrayNode ex = n.putArray("examples");
        m.examples().forEach(ex::add);
        n.set("inputDefinitions", m.inputDefinitions().deepCopy());
        if (m.outputDefinitions() != null) {
            n.set("outputDefinitions", m.outputDefinitions().deepCopy());
        }
        return n;
    }

    /**
     * Reads one manifest.
     *
     * @throws InvalidVerbException naming the verb, the field, the rule and the bad value
     */
    public static VerbManifest fromJson(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new InvalidVerbException("?", "manifest", "must be a JSON object, got: " + brief(n));
        }
        JsonNode verbNode = n.get("verb");
        if (verbNode == null || !verbNode.isTextual()) {
            throw new InvalidVerbException("?", "verb", "is required and must be a string, got: " + brief(verbNode));
        }
        String verb = verbNode.asText();
        Map<String, JsonNode> fields = new java.util.HashMap<>();
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            String canonical = KEYS.get(e.getKey());
            if (canonical == null) {
                throw new InvalidVerbException(
                        verb,
                        shown(e.getKey()),
                        "is not a manifest field (known: " + new TreeSet<>(KEYS.keySet()) + ")");
            }
            if (fields.put(canonical, e.getValue()) != null) {
                throw new InvalidVerbException(
                        verb, canonical, "is given twice (as " + canonical + " and its snake_case" + " spelling)");
            }
        }
        return VerbManifest.of(
                verb,
                text(verb, fields, "description"),
                strings(verb, fields, "capabilities"),
                text(verb, fields, "category"),
                strings(verb, fields, "examples"),
                fields.get("inputDefinitions"),
                fields.get("outputDefinitions"));
    }

    /**
     * Reads a document of manifests: one manifest object, an array of them, or {@code {"verbs": [...]}}.
     *
     * @param where names the document in errors (a file name, {@code request body})
     * @throws IllegalArgumentException naming {@code where}, the manifest's position and the problem; when the
     *     document holds more than {@value #MAX_MANIFESTS} manifests, or none
     */
    public static List<VerbManifest> readAll(JsonNode root, String where) {
        JsonNode list = root;
        String path = "";
        if (root != null && root.isObject() && !root.has("verb") && root.has("verbs")) {
            list = root.get("verbs");
            path = "verbs";
        }
        if (list != null && list.isObject()) {
            return List.of(at(where, "", list));
        }
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException(where
                    + ": expected a verb manifest, an array of them or {\"verbs\": [...]}," + " got: " + brief(list));
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException(where + ": holds no verb manifest");
        }
        if (list.size() > MAX_MANIFESTS) {
            throw new IllegalArgumentException(
                    where + ": must hold at most " + MAX_MANIFESTS + " verb manifests, got: " + list.size());
        }
        List<VerbManifest> out = new ArrayList<>(list.size());
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String pos = path + "[" + i + "]";
            VerbManifest m = at(where, pos, list.get(i));
            if (!seen.add(m.verb())) {
                throw new IllegalArgumentException(where + " at " + pos + ": verb '" + m.verb() + "' is given twice");
            }
            out.add(m);
        }
        return out;
    }

    private static VerbManifest at(String where, String pos, JsonNode n) {
        try {
            return fromJson(n);
        } catch (InvalidVerbException e) {
            throw new IllegalArgumentException(where + (pos.isEmpty() ? "" : " at " + pos) + ": " + e.getMessage(), e);
        }
    }

    private static String text(String verb, Map<String, JsonNode> fields, String key) {
        JsonNode v = fields.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidVerbException(verb, key, "must be a string, got: " + brief(v));
        }
        return v.asText();
    }

    private static List<String> strings(String verb, Map<String, JsonNode> fields, String key) {
        JsonNode v = fields.get(key);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (!v.isArray()) {
            throw new InvalidVerbException(verb, key, "must be a list of strings, got: " + brief(v));
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw new InvalidVerbException(verb, key, "must be a list of strings, got entry: " + brief(e));
            }
            out.add(e.asText());
        }
        return out;
    }

    /** A value for an error message, cut to 100 characters so a hostile input cannot flood a response. */
    static String brief(JsonNode n) {
        String s = n == null ? "nothing" : n.toString();
        return shown(s);
    }

    private static String shown(String s) {
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
