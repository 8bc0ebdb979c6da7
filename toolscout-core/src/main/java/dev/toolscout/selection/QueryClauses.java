package dev.toolscout.selection;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a message that asks for several things into its clauses, so each can be searched on its own
 * ("Find the flights to Oslo. Then book the cheapest one and also add it to my calendar" has three). The rule
 * is on the surface only: sentence ends ({@code . ! ?} followed by white space), {@code ;}, and the
 * connectives {@code and then}, {@code then}, {@code and also}, {@code also} (any case). Only words with a
 * letter count: a clause of fewer than {@value #MIN_WORDS} is dropped (a fragment, "Thanks.", or a bare value,
 * "Today is 2023-03-15."); more than {@value #MAX_CLAUSES} clauses are reduced by joining the adjacent pair
 * with the fewest words. Plain {@code and} and commas are not split
 * points: on the development sets they split one-tool requests ("convert and download the video") far more
 * often than they separate tools (docs/EVALUATION.md, "Query decomposition").
 */
public final class QueryClauses {
  /** Clauses with fewer words than this (words with a letter) are dropped. */
  public static final int MIN_WORDS = 3;

  /** At most this many clauses are searched. */
  public static final int MAX_CLAUSES = 4;

  /** Where the default rule splits. */
  public static final Pattern SPLIT_POINTS =
      Pattern.compile(
          "(?<=[.!?])\\s+|;|\\s+and\\s+then\\s+|\\s+then\\s+|\\s+and\\s+also\\s+|\\s+also\\s+",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern EDGE_PUNCTUATION = Pattern.compile("^[,.;:!?\\s]+|[,.;:!?\\s]+$");
  /** A connective that opens a sentence ("... event. Then check ...") is not part of the clause. */
  private static final Pattern LEADING_CONNECTIVE =
      Pattern.compile("^(?:and\\s+then|then|and\\s+also|also)\\s+", Pattern.CASE_INSENSITIVE);
  private static final Pattern SPACE = Pattern.compile("\\s+");

  private QueryClauses() {}

  /**
   * The message's clauses in order, or an empty list when it has fewer than two (it is then searched whole
   * only).
   */
  public static List<String> split(String message) {
    return split(message, SPLIT_POINTS);
  }

  /** {@link #split(String)} with other split points (the evaluation compares rules). */
  public static List<String> split(String message, Pattern splitPoints) {
    List<String> parts = new ArrayList<>();
    for (String s : splitPoints.split(message.strip())) {
      String c = EDGE_PUNCTUATION.matcher(s.strip()).replaceAll("");
      c = LEADING_CONNECTIVE.matcher(c).replaceFirst("");
      if (words(c) >= MIN_WORDS) {
        parts.add(c);
      }
    }
    while (parts.size() > MAX_CLAUSES) {
      int best = 0;
      for (int i = 1; i + 1 < parts.size(); i++) {
        if (words(parts.get(i)) + words(parts.get(i + 1)) < words(parts.get(best)) + words(parts.get(best + 1))) {
          best = i;
        }
      }
      parts.set(best, parts.get(best) + " " + parts.get(best + 1));
      parts.remove(best + 1);
    }
    return parts.size() < 2 ? List.of() : List.copyOf(parts);
  }

  /** The words of {@code s} that hold a letter: numbers, dates and symbols do not say what to do. */
  static int words(String s) {
    String t = s.strip();
    if (t.isEmpty()) {
      return 0;
    }
    int n = 0;
    for (String w : SPACE.split(t)) {
      if (w.chars().anyMatch(Character::isLetter)) {
        n++;
      }
    }
    return n;
  }
}
