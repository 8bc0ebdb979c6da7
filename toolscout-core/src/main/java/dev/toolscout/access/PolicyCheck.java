package dev.toolscout.access;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the rules of a policy that match nothing: a target (tool, source, category) no known tool has, or a
 * subject (user, group, space) no known principal has. Such a rule changes no decision, so a misspelt deny
 * ({@code "source": "sqll"}) or a deny for a source that was renamed leaves access wider than its author meant,
 * silently. Each finding names the rule's index, the field and the value, with the closest known value when one
 * is close enough to be a likely misspelling or a renamed source.
 *
 * <p>Stateless and thread-safe.
 */
public final class PolicyCheck {
    private PolicyCheck() {}

    /**
     * What is known to exist. A {@code null} set means "not known": rules of that kind are not checked (users and
     * groups are known only from an API keys file, say).
     */
    public record Known(
            Set<String> tools,
            Set<String> sources,
            Set<String> categories,
            Set<String> users,
            Set<String> groups,
            Set<String> spaces) {
        public Known {
            tools = tools == null ? null : Set.copyOf(tools);
            sources = sources == null ? null : Set.copyOf(sources);
            categories = categories == null ? null : Set.copyOf(categories);
            users = users == null ? null : Set.copyOf(users);
            groups = groups == null ? null : Set.copyOf(groups);
            spaces = spaces == null ? null : Set.copyOf(spaces);
        }

        /**
         * The tools, sources and categories of {@code snapshot} (every tool, blocked ones too: a rule about a
         * blocked tool still matches it), the spaces of {@code policy}'s own tree plus {@code spaces}, and the
         * given users and groups.
         *
         * @param users known users, or {@code null} when unknown (not checked)
         * @param groups known groups, or {@code null} when unknown (not checked)
         * @param spaces spaces known besides the policy's tree, or {@code null}; when neither names any space,
         *     space rules are not checked
         */
        public static Known of(
                Catalog.Snapshot snapshot,
                AccessPolicy policy,
                Set<String> users,
                Set<String> groups,
                Set<String> spaces) {
            Set<String> tools = new TreeSet<>();
            Set<String> sources = new TreeSet<>();
            Set<String> categories = new TreeSet<>();
            for (CatalogEntry e : snapshot.entries()) {
                tools.add(e.name());
                sources.add(e.spec().name().source());
                categories.add(e.spec().category());
            }
            Set<String> allSpaces = new TreeSet<>(policy.spaceParents().keySet());
            allSpaces.addAll(policy.spaceParents().values());
            if (spaces != null) {
                allSpaces.addAll(spaces);
            }
            return new Known(tools, sources, categories, users, groups, allSpaces.isEmpty() ? null : allSpaces);
        }
    }

    /**
     * One rule part that matches nothing known.
     *
     * @param rule the rule's index in the policy's rules
     * @param field {@code tool}, {@code source}, {@code category}, {@code user}, {@code group} or {@code space}
     * @param value the value that matches nothing
     * @param suggestion the closest known value of that field, or {@code null} when none is close
     */
    public record Unmatched(int rule, String field, String value, String suggestion) {
        /** {@code rules[0].source: 'sqll' matches no known source (did you mean 'sql'?)}. */
        public String message() {
            return "rules[" + rule + "]." + field + ": '" + value + "' matches no known " + field
                    + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)");
        }
    }

    /** Every unmatched part of every rule, in rule order (target before subject). */
    public static List<Unmatched> check(AccessPolicy policy, Known known) {
        List<Unmatched> out = new ArrayList<>();
        List<AccessRule> rules = policy.rules();
        for (int i = 0; i < rules.size(); i++) {
            AccessRule r = rules.get(i);
            Set<String> targets = switch (r.target()) {
                case TOOL -> known.tools();
                case SOURCE -> known.sources();
                case CATEGORY -> known.categories();
            };
            check(i, r.target().name(), r.targetValue(), targets, out);
            Set<String> subjects = switch (r.subject()) {
                case USER -> known.users();
                case GROUP -> known.groups();
                case SPACE -> known.spaces();
                case EVERYONE -> null;
            };
            if (r.subject() != AccessRule.Subject.EVERYONE) {
                check(i, r.subject().name(), r.subjectValue(), subjects, out);
            }
        }
        return out;
    }

    private static void check(int rule, String kind, String value, Set<String> known, List<Unmatched> out) {
        if (known == null || known.contains(value)) {
            return;
        }
        out.add(new Unmatched(rule, kind.toLowerCase(Locale.ROOT), value, closest(value, known)));
    }

    /**
     * The known value most like {@code value}: one that contains it or is contained in it (a source renamed from
     * {@code filesystem} to {@code filesystem_mcp}), the nearest in length first, else the nearest by edit distance when at
     * most about a third of the value's length (at most 3 edits) differs; ties by name. {@code null} when none qualifies.
     */
    static String closest(String value, Set<String> known) {
        String v = value.toLowerCase(Locale.ROOT);
        String best = null;
        int bestScore = Integer.MAX_VALUE;
        int limit = Math.max(1, Math.min(3, (v.length() + 1) / 3));
        for (String k : new TreeSet<>(known)) {
            String kl = k.toLowerCase(Locale.ROOT);
            int score;
            if (kl.equals(v)) {
                score = 0; // differs only in case
            } else if (Math.min(v.length(), kl.length()) >= 3 && (kl.contains(v) || v.contains(kl))) {
                score = 1 + Math.min(8, Math.abs(kl.length() - v.length())); // containment beats any misspelling
            } else {
                int d = distance(v, kl, limit);
                if (d > limit) {
                    continue;
                }
                score = 10 + d;
            }
            if (score < bestScore) {
                bestScore = score;
                best = k;
            }
        }
        return best;
    }

    /**
     * Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment: the usual
     * typo), or {@code limit + 1} once it must exceed {@code limit}. Names are short, so a full table is fine.
     */
    static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return Math.min(d[a.length()][b.length()], limit + 1);
    }
}
