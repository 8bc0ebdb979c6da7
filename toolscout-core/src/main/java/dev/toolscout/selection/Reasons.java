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

  private Reasons() {}

  static String of(ToolSpec spec, Ranked r, boolean core, String message) {
    List<String> parts = new ArrayList<>();
    if (core) {
      parts.add("core tool");
    }
    if (r != null) {
      List<String> words = matchedWords(spec, message);
      if (r.lexicalRank() > 0 && !words.isEmpty()) {
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

  /** Message words (stop words dropped) that also occur in the tool's text, comparing 5-letter stems. */
  static List<String> matchedWords(ToolSpec spec, String message) {
    Set<String> toolStems = new HashSet<>();
    String text = ToolText.nameWords(spec) + " " + spec.description() + " " + ToolText.labels(spec) + " "
        + ToolText.parameterText(spec);
    for (String w : words(text)) {
      toolStems.add(stem(w));
    }
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String w : words(message)) {
      if (w.length() > 2 && !STOP.contains(w) && toolStems.contains(stem(w))) {
        out.add(w);
        if (out.size() == MAX_WORDS) {
          break;
        }
      }
    }
    return List.copyOf(out);
  }

  private static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  private static String stem(String w) {
    return w.length() > 5 ? w.substring(0, 5) : w;
  }
}
