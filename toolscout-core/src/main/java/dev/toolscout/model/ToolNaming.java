package dev.toolscout.model;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Wire names for upstream tools: {@code <server>__<tool>}, matching {@code ^[a-zA-Z0-9_-]{1,64}$}.
 *
 * <p>The rule, deterministic whatever order a server lists its tools in: characters outside {@code
 * [a-zA-Z0-9_-]} become {@code _} (accents are dropped first, so {@code café} is {@code cafe}); a name too
 * long is cut and ends in {@code _} plus six hex digits of the original's hash; when several originals land
 * on the same name, the one that needed no change keeps it (else the first in code-point order) and each
 * other gets the hash suffix (hashed again, with a counter, in the rare case that this name is taken too, so
 * the wire names of one server are always distinct). The original name is kept for calls.
 */
public final class ToolNaming {
    private static final int MAX = 64;
    private static final int SUFFIX = 7; // "_" + 6 hex digits

    /** Orders strings by Unicode code point (String's own order is by UTF-16 unit). */
    private static final Comparator<String> CODE_POINT_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    private ToolNaming() {}

    /**
     * The source part for a server: lower-cased, runs of other characters as one {@code _}, no leading or
     * trailing {@code _}, and never a double underscore (it separates source from action). Empty when the
     * name has no letter or digit.
     */
    public static String serverPrefix(String serverName) {
        String s = ascii(serverName).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "_");
        s = s.replaceAll("^_+|_+$", "");
        return s.length() > 40 ? s.substring(0, 40).replaceAll("_+$", "") : s;
    }

    /**
     * Maps each original tool name of one server to its wire name. The wire names are distinct, even when a
     * server lists a name that is literally another one's sanitized or hash-suffixed form.
     *
     * @return original name to full wire name, in the order given
     */
    public static Map<String, String> wireNames(String prefix, List<String> originals) {
        int room = MAX - prefix.length() - ToolName.SEPARATOR.length();
        if (room < SUFFIX + 1) {
            throw new IllegalArgumentException("server prefix '" + prefix + "' leaves no room for tool names");
        }
        Map<String, String> candidate = new HashMap<>();
        for (String o : originals) {
            candidate.put(o, sanitize(o, room));
        }
        // Claims are made in an order that does not depend on the server's: names that need no change first (so
        // they are never renamed), then the rest in code-point order. A name that is taken gets the hash suffix;
        // if that is taken too (a server can list any string, such as another tool's suffixed name), the hash is
        // taken again over the name and a counter, until the name is free.
        List<String> order = new ArrayList<>(new LinkedHashSet<>(originals));
        order.sort(
                Comparator.comparing((String o) -> !o.equals(candidate.get(o))).thenComparing(CODE_POINT_ORDER));
        Set<String> taken = new HashSet<>();
        Map<String, String> action = new HashMap<>();
        for (String o : order) {
            String c = candidate.get(o);
            String a = c;
            for (int n = 0; !taken.add(a); n++) {
                a = withSuffix(c, n == 0 ? o : o + "#" + n, room);
            }
            action.put(o, a);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String o : originals) {
            out.put(o, prefix + ToolName.SEPARATOR + action.get(o));
        }
        return out;
    }

    private static String sanitize(String original, int room) {
        String s = ascii(original).replaceAll("[^a-zA-Z0-9_-]", "_");
        if (s.isEmpty()) {
            s = "tool";
        }
        return s.length() > room ? withSuffix(s, original, room) : s;
    }

    private static String withSuffix(String base, String original, int room) {
        String hash = Hashing.sha256Hex(original).substring(0, 6);
        String head = base.length() > room - SUFFIX ? base.substring(0, room - SUFFIX) : base;
        return head + "_" + hash;
    }

    private static String ascii(String s) {
        return Normalizer.normalize(s, Normalizer.Form.NFKD).replaceAll("\\p{M}+", "");
    }
}
