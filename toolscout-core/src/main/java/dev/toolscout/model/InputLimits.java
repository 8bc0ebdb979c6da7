package dev.toolscout.model;

import java.util.Locale;

/**
 * Size limits on text that callers send in: a message to select tools for, a {@code tool_discovery__find}
 * query, a tool name to describe, a category to list. Every entry point checks them before any work, so
 * the cost of one request is bounded whoever sends it (docs/SECURITY.md, "Limits").
 *
 * <p>Why 16,384 characters for a message: the ranking reads far less of it (the embedding model reads its
 * first 512 tokens, about 2,000 characters of English; the lexical search its first 64 distinct terms; the
 * selector its first {@code Selector.MAX_MESSAGE_CHARS}), so anything longer only costs time, while a
 * request with a pasted paragraph or two still fits. A name is at most 64 characters on the wire, so 256
 * leaves room for a name with its prefix and white space and nothing else.
 */
public final class InputLimits {
  /** The longest message or query, in UTF-16 characters (Java's {@code String.length()}). */
  public static final int MAX_MESSAGE_CHARS = 16_384;

  /** The longest tool name or category an argument may hold. */
  public static final int MAX_NAME_CHARS = 256;

  private InputLimits() {}

  /**
   * The error for a message or query over {@link #MAX_MESSAGE_CHARS}, or {@code null} when it fits.
   *
   * @param input what the caller called it ({@code "query"}, {@code "message"})
   */
  public static String messageTooLong(String input, CharSequence value) {
    return tooLong(input, value, MAX_MESSAGE_CHARS);
  }

  /** The error for a name over {@link #MAX_NAME_CHARS}, or {@code null} when it fits. */
  public static String nameTooLong(String input, CharSequence value) {
    return tooLong(input, value, MAX_NAME_CHARS);
  }

  private static String tooLong(String input, CharSequence value, int limit) {
    if (value == null || value.length() <= limit) {
      return null;
    }
    return String.format(Locale.ROOT, "%s must be at most %,d characters, got: %,d characters", input, limit,
        value.length());
  }
}
