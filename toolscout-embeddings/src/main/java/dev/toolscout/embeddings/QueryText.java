package dev.toolscout.embeddings;

import java.util.regex.Pattern;

/**
 * The text of a request as the adapted model embeds it. In a request a number is nearly always a value (an
 * amount, an id, a date, coordinates), not what the tool does; a small embedder gives it as much weight as
 * the words that name the task, and pulls the request toward tools whose descriptions are full of numbers.
 * The lexical side weighs such words down for the same reason ({@code LuceneToolIndex.NUMBER_WEIGHT}).
 */
public final class QueryText {
  /**
   * A number standing alone: digits, maybe with decimal or group separators, not part of a word. Public for the
   * evaluation's variants of the embedded text.
   */
  public static final Pattern NUMBER =
      Pattern.compile("(?<![\\p{L}\\p{N}])\\p{Nd}+(?:[.,]\\p{Nd}+)*(?![\\p{L}\\p{N}])");

  private static final Pattern SPACES = Pattern.compile("\\s+");

  private QueryText() {}

  /**
   * {@code text} without its numbers: each word made only of digits (with {@code .} or {@code ,} between
   * digit groups: {@code 3}, {@code 2,500}, {@code 48.8567}) is dropped and runs of white space become one
   * space. Digits inside a word stay ({@code mp3}, {@code ipv4}, {@code tt0121765}), and so does a text that
   * would have no letter left ("2 + 2"). A null or blank text is returned as it is, for the model's own input
   * check to reject with its message.
   */
  public static String withoutNumbers(String text) {
    if (text == null) {
      return null;
    }
    String stripped = NUMBER.matcher(text).replaceAll(" ");
    if (stripped.equals(text)) {
      return text;
    }
    String out = SPACES.matcher(stripped).replaceAll(" ").strip();
    return out.chars().anyMatch(Character::isLetter) ? out : text;
  }
}
