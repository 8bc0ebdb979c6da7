package dev.toolscout.bench.eval;

import java.util.regex.Pattern;

/**
 * The text the bundled query adapter was trained on: each training query without its numbers ({@code
 * QueryAdapterTrainer} calls {@link #withoutNumbers}, and the adapter's provenance says so). The product
 * embeds queries with their numbers: dropping them helped one development set only, toolink, and was removed
 * from the default ranking (docs/FITTED_RULES.md). It lives beside the trainer, in the never-shipped bench
 * module, so the bundled adapter can be reproduced.
 */
public final class QueryText {
    /**
     * A number standing alone: digits, maybe with decimal or group separators, not part of a word.
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
