package dev.toolscout.selection;

import dev.toolscout.index.ToolText;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Human-readable reasons for a selected tool: which words of the message it matched, how similar it is. */
final class Reasons {
  private static final Set<String> STOP =
      Set.of("the", "and", "for", "with", "that", "this", "from", "into", "please", "can", "you", "want", "need",
          "would", "like", "some", "about", "what", "when", "where", "which", "who", "how", "are", "was", "will",
          "have", "has", "had", "not", "but", "all", "any", "our", "your", "his", "her", "their", "them", "its",
          "let", "get", "out", "one", "tomorrow", "today", "at", "on", "in", "to", "of", "a", "an", "me", "my");
  private static final int MAX_WORDS = 3;
  private static final int MAX_CLAUSE_CHARS = 60;

  private Reasons() {}

  /** The message's content words (stop words and words under 3 letters dropped), in order, once per request. */
  static List<String> queryWords(String message) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String w : words(message)) {
      if (w.length() > 2 && !STOP.contains(w)) {
        out.add(w);
      }
    }
    return List.copyOf(out);
  }

  static String of(ToolSpec spec, Ranked r, boolean core, List<String> queryWords) {
    List<String> parts = new ArrayList<>();
    if (core) {
      parts.add("core tool");
    }
    if (r != null) {
      if (r.clause() != null) {
        parts.add("for the part '" + abbreviate(r.clause()) + "'");
      }
      List<String> asked = r.clause() != null ? queryWords(r.clause()) : queryWords;
      List<String> words = r.lexicalRank() > 0 ? matchedWords(spec, asked) : List.of();
      if (!words.isEmpty()) {
        parts.add("matches " + String.join(", ", words.stream().map(w -> "'" + w + "'").toList())
            + " (keyword rank " + r.lexicalRank() + ")");
      } else if (r.lexicalRank() > 0) {
        parts.add("keyword rank " + r.lexicalRank());
      }
      if (r.denseRank() > 0) {
        parts.add(String.format(Locale.ROOT, "similar in meaning (%.2f, rank %d)", r.similarity(), r.denseRank()));
      }
    }
    if (parts.isEmpty()) {
      parts.add("no match for this message");
    }
    return String.join("; ", parts);
  }

  /** A clause for a reason: at most {@value #MAX_CLAUSE_CHARS} characters, cut at a word. */
  static String abbreviate(String clause) {
    if (clause.length() <= MAX_CLAUSE_CHARS) {
      return clause;
    }
    int cut = clause.lastIndexOf(' ', MAX_CLAUSE_CHARS - 3);
    return clause.substring(0, cut > 20 ? cut : MAX_CLAUSE_CHARS - 3) + "...";
  }

  /** Query words that also occur in the tool's text, comparing 5-letter stems; at most three. */
  static List<String> matchedWords(ToolSpec spec, List<String> queryWords) {
    if (queryWords.isEmpty()) {
      return List.of();
    }
    Set<String> toolStems = new HashSet<>();
    for (String text : List.of(ToolText.nameWords(spec), spec.description(), ToolText.labels(spec),
        ToolText.parameterText(spec))) {
      for (String w : words(text)) {
        toolStems.add(stem(w));
      }
    }
    List<String> out = new ArrayList<>(MAX_WORDS);
    for (String w : queryWords) {
      if (toolStems.contains(stem(w))) {
        out.add(w);
        if (out.size() == MAX_WORDS) {
          break;
        }
      }
    }
    return out;
  }

  /** Lower-case runs of letters and digits (a plain scan: this runs for every selected tool). */
  private static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    int n = text.length();
    int i = 0;
    while (i < n) {
      while (i < n && !Character.isLetterOrDigit(text.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && Character.isLetterOrDigit(text.charAt(i))) {
        i++;
      }
      if (i > start) {
        out.add(text.substring(start, i).toLowerCase(Locale.ROOT));
      }
    }
    return out;
  }

  private static String stem(String w) {
    return w.length() > 5 ? w.substring(0, 5) : w;
  }
}
