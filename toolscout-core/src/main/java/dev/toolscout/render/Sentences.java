package dev.toolscout.render;

import java.util.Locale;
import java.util.Set;

/**
 * Shortens a description to its first sentence, cutting only at a sentence end: a {@code .}, {@code !} or {@code ?}
 * (closing quotes and brackets may follow) before white space, or a blank line (a paragraph's end). Not a sentence
 * end: an abbreviation ({@code e.g.}, {@code i.e.}, {@code etc.}, {@code vs.}, {@code cf.} and the others of {@link
 * #ABBREVIATIONS}), a word with a dot inside ({@code U.S.}, {@code a.m.}, {@code example.com.}), a single letter
 * (an initial), a dot inside a number ({@code 3.5}), and a dot followed by a word in lower case or a digit (whatever
 * the word before it was, a sentence does not start so). When in doubt the text runs on: a summary one sentence too
 * long loses nothing, one cut mid-sentence ("Send an email, e.g.") misleads the model. A text with no sentence end is
 * kept whole, its white space folded. Thread-safe (stateless).
 */
public final class Sentences {
    /** Abbreviations that end in a dot without ending a sentence, lower case, without their last dot. */
    static final Set<String> ABBREVIATIONS = Set.of(
            "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "excl", "esp", "resp", "viz", "al", "fig", "figs", "no",
            "nos", "vol", "ch", "sec", "p", "pp", "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "inc", "ltd", "co",
            "corp", "dept", "est", "min", "max", "avg", "ca", "eq", "ref", "ver");

    private Sentences() {}

    /** The first sentence of {@code text}, white space folded to single spaces; the whole text if it has no end. */
    public static String first(String text) {
        String t = text.strip();
        int end = firstEnd(t);
        String first = end < 0 ? t : t.substring(0, end);
        return first.strip().replaceAll("\\s+", " ");
    }

    /** The index just past the first sentence end of {@code t} (stripped), or -1 when the text has none before its end. */
    static int firstEnd(String t) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '\n' && blankLineFollows(t, i)) {
                return i; // a paragraph's end
            }
            if (c != '.' && c != '!' && c != '?') {
                continue;
            }
            int j = i + 1;
            while (j < t.length() && isCloser(t.charAt(j))) {
                j++;
            }
            if (j >= t.length()) {
                return -1; // the text ends here: nothing to cut
            }
            if (!Character.isWhitespace(t.charAt(j))) {
                continue; // inside a word or a number: "3.5", "example.com", "?q=x"
            }
            int next = j;
            while (next < t.length() && Character.isWhitespace(t.charAt(next))) {
                next++;
            }
            if (next >= t.length()) {
                return -1;
            }
            char n = t.charAt(next);
            if (Character.isLowerCase(n) || Character.isDigit(n)) {
                continue; // "e.g. slack", "approx. 5 items": a sentence does not start so
            }
            if (c == '.' && abbreviation(t, i)) {
                continue;
            }
            return j;
        }
        return -1;
    }

    /** Whether the word that ends with the dot at {@code dot} is an abbreviation, a dotted word or an initial. */
    private static boolean abbreviation(String t, int dot) {
        int start = dot;
        while (start > 0 && !Character.isWhitespace(t.charAt(start - 1))) {
            start--;
        }
        while (start < dot && isOpener(t.charAt(start))) {
            start++;
        }
        String word = t.substring(start, dot).toLowerCase(Locale.ROOT);
        if (word.isEmpty()) {
            return false;
        }
        if (word.indexOf('.') >= 0) {
            return true; // "e.g", "u.s", "a.m", "example.com", an ellipsis
        }
        if (word.length() == 1 && Character.isLetter(word.charAt(0))) {
            return true; // an initial: "J. Smith"
        }
        return ABBREVIATIONS.contains(word);
    }

    private static boolean blankLineFollows(String t, int newline) {
        for (int k = newline + 1; k < t.length(); k++) {
            char c = t.charAt(k);
            if (c == '\n') {
                return true;
            }
            if (!Character.isWhitespace(c)) {
                return false;
            }
        }
        return false;
    }

    private static boolean isCloser(char c) {
        return c == ')' || c == ']' || c == '"' || c == '\'' || c == '\u201D' || c == '\u2019';
    }

    private static boolean isOpener(char c) {
        return c == '(' || c == '[' || c == '"' || c == '\'' || c == '\u201C' || c == '\u2018';
    }
}
