package dev.toolscout.access;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The JSON form of an {@link AccessPolicy} (the {@code --policy} file, also stored as is):
 *
 * <pre>{@code
 * {
 *   "default": "allow",
 *   "spaces": {"kitchen": "home", "home": null},
 *   "rules": [
 *     {"effect": "deny", "source": "gmail", "group": "kids"},
 *     {"effect": "allow", "tool": "gmail__list_emails", "user": "ann"},
 *     {"effect": "deny", "category": "admin", "space": "home"}
 *   ]
 * }
 * }</pre>
 *
 * Each rule names exactly one target ({@code tool}, {@code source} or {@code category}) and at most one
 * subject ({@code user}, {@code group} or {@code space}; none means everyone).
 */
public final class AccessPolicyJson {
    private static final Set<String> RULE_KEYS =
            Set.of("effect", "tool", "source", "category", "user", "group", "space");

    private AccessPolicyJson() {}

    /**
     * Reads a policy. {@code where} names the input in errors (a file name).
     *
     * @throws IllegalArgumentException naming the input, the rule index, the field and the bad value
     */
    public static AccessPolicy fromJson(JsonNode root, String where) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(where + ": policy must be a JSON object, got: " + root);
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!Set.of("default", "spaces", "rules").contains(k)) {
                throw new IllegalArgumentException(
                        where + ": unknown policy field '" + k + "' (allowed: default, spaces, rules)");
            }
        }
        Effect def = Effect.ALLOW;
        if (root.hasNonNull("default")) {
            def = effect(root.get("default"), where + ": default");
        }
        Map<String, String> parents = new LinkedHashMap<>();
        JsonNode spaces = root.path("spaces");
        if (!spaces.isMissingNode() && !spaces.isNull()) {
            if (!spaces.isObject()) {
                throw new IllegalArgumentException(
                        where + ": spaces must map each space to its parent, got: " + spaces);
            }
            spaces.properties().forEach(e -> {
                JsonNode p = e.getValue();
                if (p.isNull()) {
                    return;
                }
                if (!p.isTextual() || p.asText().isBlank()) {
                    throw new IllegalArgumentException(
                            where + ": spaces." + e.getKey() + " must be a parent space name or null, got: " + p);
                }
                parents.put(e.getKey(), p.asText());
            });
        }
        List<AccessRule> rules = new ArrayList<>();
        JsonNode rs = root.path("rules");
        if (!rs.isMissingNode() && !rs.isNull()) {
            if (!rs.isArray()) {
                throw new IllegalArgumentException(where + ": rules must be a list, got: " + rs);
            }
            int i = 0;
            for (JsonNode r : rs) {
                rules.add(rule(r, where + ": rules[" + i + "]"));
                i++;
            }
        }
        try {
            return new AccessPolicy(def, parents, rules);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code root} is a policy object that says nothing: no {@code default} and no rule ({@code spaces} alone
     * restrict nothing). Read as a policy it lets every principal use every tool, which is what an empty or
     * half-sent body would do by accident: a caller replacing a policy with it must say so ({@code PUT /v1/policy
     * ?replace=empty}).
     */
    public static boolean saysNothing(JsonNode root) {
        if (root == null || !root.isObject()) {
            return false;
        }
        JsonNode rules = root.path("rules");
        boolean noRules = rules.isMissingNode() || rules.isNull() || rules.isArray() && rules.isEmpty();
        return noRules && !root.hasNonNull("default");
    }

    private static AccessRule rule(JsonNode r, String at) {
        if (!r.isObject()) {
            throw new IllegalArgumentException(at + " must be an object, got: " + r);
        }
        for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!RULE_KEYS.contains(k)) {
                throw new IllegalArgumentException(at + ": unknown field '" + k + "' (allowed: " + RULE_KEYS + ")");
            }
        }
        if (!r.has("effect")) {
            throw new IllegalArgumentException(at + ": effect is required (allow or deny)");
        }
        Effect effect = effect(r.get("effect"), at + ".effect");
        Target target = null;
        String targetValue = null;
        for (Target t : Target.values()) {
            String key = t.name().toLowerCase(Locale.ROOT);
            if (r.has(key)) {
                if (target != null) {
                    throw new IllegalArgumentException(
                            at + " must name exactly one of tool, source, category; got several");
                }
                target = t;
                targetValue = text(r.get(key), at + "." + key);
            }
        }
        if (target == null) {
            throw new IllegalArgumentException(at + " must name exactly one of tool, source, category; got none");
        }
        Subject subject = Subject.EVERYONE;
        String subjectValue = null;
        for (Subject s : List.of(Subject.USER, Subject.GROUP, Subject.SPACE)) {
            String key = s.name().toLowerCase(Locale.ROOT);
            if (r.has(key)) {
                if (subject != Subject.EVERYONE) {
                    throw new IllegalArgumentException(at + " may name at most one of user, group, space; got several");
                }
                subject = s;
                subjectValue = text(r.get(key), at + "." + key);
            }
        }
        return new AccessRule(effect, target, targetValue, subject, subjectValue);
    }

    private static String text(JsonNode n, String at) {
        if (!n.isTextual() || n.asText().isBlank()) {
            throw new IllegalArgumentException(at + " must be a non-blank string, got: " + n);
        }
        return n.asText();
    }

    private static Effect effect(JsonNode n, String at) {
        String v = n.isTextual() ? n.asText().strip().toUpperCase(Locale.ROOT) : "";
        try {
            return Effect.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + " must be 'allow' or 'deny', got: " + n, e);
        }
    }

    public static ObjectNode toJson(AccessPolicy p) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("default", p.defaultEffect().name().toLowerCase(Locale.ROOT));
        ObjectNode spaces = root.putObject("spaces");
        new java.util.TreeMap<>(p.spaceParents()).forEach(spaces::put);
        ArrayNode rules = root.putArray("rules");
        for (AccessRule r : p.rules()) {
            ObjectNode o = rules.addObject();
            o.put("effect", r.effect().name().toLowerCase(Locale.ROOT));
            o.put(r.target().name().toLowerCase(Locale.ROOT), r.targetValue());
            if (r.subject() != Subject.EVERYONE) {
                o.put(r.subject().name().toLowerCase(Locale.ROOT), r.subjectValue());
            }
        }
        return root;
    }
}
