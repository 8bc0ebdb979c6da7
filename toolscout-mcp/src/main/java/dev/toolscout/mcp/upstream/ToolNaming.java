package dev.toolscout.mcp.upstream;

import dev.toolscout.model.Hashing;
import dev.toolscout.model.ToolName;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Wire names for upstream tools: {@code <server>__<tool>}, matching {@code ^[a-zA-Z0-9_-]{1,64}$}.
 *
 * <p>The rule, deterministic whatever order a server lists its tools in: characters outside {@code
 * [a-zA-Z0-9_-]} become {@code _} (accents are dropped first, so {@code café} is {@code cafe}); a name too
 * long is cut and ends in {@code _} plus six hex digits of the original's hash; when several originals land
 * on the same name, the one that needed no change keeps it (else the first in code-point order) and each
 * other gets the hash suffix. The original name is kept for calls.
 */
public final class ToolNaming {
  private static final int MAX = 64;
  private static final int SUFFIX = 7; // "_" + 6 hex digits

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
   * Maps each original tool name of one server to its wire name.
   *
   * @return original name to full wire name, in the order given
   */
  public static Map<String, String> wireNames(String prefix, List<String> originals) {
    int room = MAX - prefix.length() - ToolName.SEPARATOR.length();
    if (room < SUFFIX + 1) {
      throw new IllegalArgumentException("server prefix '" + prefix + "' leaves no room for tool names");
    }
    Map<String, List<String>> byCandidate = new HashMap<>();
    Map<String, String> candidate = new HashMap<>();
    for (String o : originals) {
      String c = sanitize(o, room);
      candidate.put(o, c);
      byCandidate.computeIfAbsent(c, k -> new ArrayList<>()).add(o);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String o : originals) {
      String c = candidate.get(o);
      List<String> rivals = byCandidate.get(c);
      String keeper = rivals.contains(c) ? c : rivals.stream().sorted().findFirst().orElseThrow();
      String action = o.equals(keeper) ? c : withSuffix(c, o, room);
      out.put(o, prefix + ToolName.SEPARATOR + action);
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
