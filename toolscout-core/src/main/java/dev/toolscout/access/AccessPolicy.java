package dev.toolscout.access;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Access rules and the space tree they inherit along. An immutable value.
 *
 * <p>Resolution for one tool and one principal: of the rules whose subject covers the principal and whose
 * target matches the tool, the most specific wins: by subject (user, then group, then the principal's
 * space, then its parent and so on up, then everyone), then by target (tool, then source, then category);
 * at equal specificity DENY wins. No matching rule: {@link #defaultEffect()}. A {@code BLOCKED} tool is
 * denied whatever the rules say.
 *
 * @param defaultEffect what applies when no rule matches ({@code ALLOW} unless configured)
 * @param spaceParents each space's parent space; roots are absent
 * @param rules the rules, in any order (order does not matter)
 */
public record AccessPolicy(AccessRule.Effect defaultEffect, Map<String, String> spaceParents, List<AccessRule> rules) {
    /** Everyone sees every tool that is not BLOCKED. */
    public static final AccessPolicy ALLOW_ALL = new AccessPolicy(AccessRule.Effect.ALLOW, Map.of(), List.of());

    /** The deepest space chain followed; deeper trees are rejected. */
    public static final int MAX_SPACE_DEPTH = 64;

    public AccessPolicy {
        Objects.requireNonNull(defaultEffect, "default");
        spaceParents = Map.copyOf(spaceParents);
        rules = List.copyOf(rules);
        for (String space : spaceParents.keySet()) {
            Set<String> seen = new HashSet<>();
            String s = space;
            while (s != null) {
                if (!seen.add(s)) {
                    throw new IllegalArgumentException("spaces must not form a cycle, got one through: '" + s + "'");
                }
                if (seen.size() > MAX_SPACE_DEPTH) {
                    throw new IllegalArgumentException("spaces may nest at most " + MAX_SPACE_DEPTH
                            + " deep, got a deeper chain under: '" + space + "'");
                }
                s = spaceParents.get(s);
            }
        }
    }

    /** {@code space} and its ancestors, nearest first; empty for {@code null}. */
    public List<String> spaceChain(String space) {
        List<String> chain = new ArrayList<>();
        for (String s = space; s != null && chain.size() <= MAX_SPACE_DEPTH; s = spaceParents.get(s)) {
            chain.add(s);
        }
        return chain;
    }
}
