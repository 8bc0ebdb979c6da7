package dev.toolscout.selection;

import java.util.Locale;

/**
 * A message longer than the ranking reads, and how much of it was read: the selection ranks (and the router routes)
 * on its first {@link Selector#MAX_MESSAGE_CHARS} characters after white space is stripped, and says so in the
 * result rather than refusing the message (an agent's message with a pasted document is a real request). The rest
 * of the message is not lost: the agent loop still sends it whole to the model.
 *
 * @param fromChars the message's length as given, in UTF-16 characters ({@code String.length()})
 * @param toChars how many of its characters were ranked: {@link Selector#MAX_MESSAGE_CHARS} (one fewer when
 *     that would split a surrogate pair)
 */
public record Shortened(int fromChars, int toChars) {
    public Shortened {
        if (toChars < 1 || toChars >= fromChars) {
            throw new IllegalArgumentException(
                    "a shortened message keeps 1 to fromChars - 1 characters, got: " + toChars + " of " + fromChars);
        }
    }

    /** How {@code message} is shortened for the ranking, or {@code null} when the ranking reads it whole. */
    public static Shortened of(String message) {
        if (message.length() <= Selector.MAX_MESSAGE_CHARS || message.strip().length() <= Selector.MAX_MESSAGE_CHARS) {
            return null;
        }
        return new Shortened(message.length(), rankedPart(message).length());
    }

    /** The part of {@code message} the ranking reads: stripped, and cut to {@link Selector#MAX_MESSAGE_CHARS}. */
    public static String rankedPart(String message) {
        String m = message.strip();
        if (m.length() <= Selector.MAX_MESSAGE_CHARS) {
            return m;
        }
        int end = Selector.MAX_MESSAGE_CHARS;
        // never split a surrogate pair: half a character would reach the tokenizer as a replacement character
        if (Character.isHighSurrogate(m.charAt(end - 1))) {
            end--;
        }
        return m.substring(0, end);
    }

    /** The note for people, e.g. {@code ... ranked on its first 8,192 of 20,000 characters}. */
    public String note() {
        return String.format(
                Locale.ROOT,
                "the message is longer than the ranking reads; it was ranked on its first %,d of %,d characters",
                toChars,
                fromChars);
    }
}
