package dev.toolscout.skills;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The JSON form of a {@link Skill}, as the state store keeps it and the HTTP API and catalog files give it:
 * {@code {"name", "description", "documentation", "tools": [..], "source": {"kind", "location"}, "resources":
 * [..]}}. Reading is strict on meaning (every broken rule an {@link InvalidSkillException} naming where, the
 * skill, the field and the value) and accepts the Agent Skills spelling {@code allowed-tools} for {@code tools}.
 * Stateless and thread-safe.
 */
public final class SkillJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> KEYS =
            Set.of("name", "description", "documentation", "tools", "allowed-tools", "source", "resources");

    private SkillJson() {}

    public static ObjectNode toJson(Skill s) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", s.name());
        n.put("description", s.description());
        n.put("documentation", s.documentation());
        ArrayNode tools = n.putArray("tools");
        s.tools().forEach(tools::add);
        ObjectNode source = n.putObject("source");
        source.put("kind", s.source().kind().name().toLowerCase(Locale.ROOT));
        if (s.source().location() != null) {
            source.put("location", s.source().location());
        }
        ArrayNode resources = n.putArray("resources");
        s.resources().forEach(resources::add);
        return n;
    }

    /** The JSON text of {@code s}. */
    public static String toJsonText(Skill s) {
        return toJson(s).toString();
    }

    /**
     * Reads one skill.
     *
     * @param where the file or input it came from, for messages, or {@code null}
     * @param defaultSource the source when the node names none (the API for a request body)
     * @throws InvalidSkillException naming where, the skill, the field, the rule and the value
     */
    public static Skill fromJson(JsonNode n, String where, Skill.Source defaultSource) {
        if (n == null || !n.isObject()) {
            throw new InvalidSkillException(where, "?", "skill", "must be a JSON object, got: " + shown(n));
        }
        String name = n.path("name").isTextual() ? n.get("name").asText() : null;
        String skill = name == null ? "?" : name;
        for (String key : iterable(n)) {
            if (!KEYS.contains(key)) {
                throw new InvalidSkillException(
                        where,
                        skill,
                        key,
                        "is not a skill field (known: "
                                + String.join(", ", KEYS.stream().sorted().toList()) + ")");
            }
        }
        if (name == null) {
            throw new InvalidSkillException(
                    where, skill, "name", "is required and must be a string, got: " + shown(n.get("name")));
        }
        if (n.has("tools") && n.has("allowed-tools")) {
            throw new InvalidSkillException(
                    where, skill, "tools", "and allowed-tools are two spellings of one field; " + "give one");
        }
        String description = text(n, skill, where, "description");
        String documentation = text(n, skill, where, "documentation");
        List<String> tools = strings(n, skill, where, n.has("allowed-tools") ? "allowed-tools" : "tools");
        Skill.Source source = source(n.get("source"), skill, where, defaultSource);
        List<String> resources = strings(n, skill, where, "resources");
        try {
            return new Skill(name, description, documentation, tools, source, resources);
        } catch (InvalidSkillException e) {
            throw where == null ? e : e.inFile(where);
        }
    }

    /** Parses a skill from JSON text (as stored). */
    public static Skill fromJsonText(String json, String where) {
        try {
            return fromJson(MAPPER.readTree(json), where, Skill.Source.API);
        } catch (JsonProcessingException e) {
            throw new InvalidSkillException(where, "?", "skill", "is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static Iterable<String> iterable(JsonNode n) {
        List<String> keys = new ArrayList<>();
        n.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private static String text(JsonNode n, String skill, String where, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidSkillException(where, skill, field, "must be a string, got: " + shown(v));
        }
        return v.asText();
    }

    /** An array of strings, or (the Agent Skills spelling) one string of names separated by spaces or commas. */
    private static List<String> strings(JsonNode n, String skill, String where, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (v.isTextual()) {
            String s = v.asText().strip();
            return s.isEmpty() ? List.of() : List.of(s.split("[\\s,]+"));
        }
        if (!v.isArray()) {
            throw new InvalidSkillException(where, skill, field, "must be a list of strings, got: " + shown(v));
        }
        if (v.size() > Skill.MAX_RESOURCES) {
            // checked before the list is copied: a hostile body cannot make a large one
            throw new InvalidSkillException(
                    where, skill, field, "must hold at most " + Skill.MAX_RESOURCES + " entries, got: " + v.size());
        }
        List<String> out = new ArrayList<>(v.size());
        for (JsonNode e : v) {
            if (!e.isTextual()) {
                throw new InvalidSkillException(where, skill, field, "must hold only strings, got: " + shown(e));
            }
            out.add(e.asText());
        }
        return out;
    }

    private static Skill.Source source(JsonNode v, String skill, String where, Skill.Source fallback) {
        if (v == null || v.isNull()) {
            return fallback;
        }
        JsonNode kind = v.get("kind");
        if (!v.isObject() || kind == null || !kind.isTextual()) {
            throw new InvalidSkillException(
                    where,
                    skill,
                    "source",
                    "must be an object with a kind (folder, " + "catalog_file or api), got: " + shown(v));
        }
        Skill.Source.Kind k;
        try {
            k = Skill.Source.Kind.valueOf(kind.asText().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidSkillException(
                    where, skill, "source.kind", "must be folder, catalog_file or api, got: " + shown(kind));
        }
        JsonNode location = v.get("location");
        return new Skill.Source(k, location == null || !location.isTextual() ? null : location.asText());
    }

    private static String shown(JsonNode n) {
        String s = String.valueOf(n);
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
