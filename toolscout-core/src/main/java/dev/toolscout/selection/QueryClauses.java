package dev.toolscout.selection;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
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
 *
 * <p>Cost: linear in the message's length, whatever it holds. The split points never backtrack over a run
 * of white space (they start only where one begins, and take it whole), each piece is trimmed and counted
 * in one pass, and reading stops at the {@value #MAX_CANDIDATES}th clause: the rest of a longer message is
 * not split (no request has that many parts; the whole-message search reads only its beginning too). Before
 * this, a run of white space or punctuation was rescanned from every position in it, and a message of many
 * sentences was merged pair by pair over all of them: 18.8 s of CPU for a 64 KB query.
 */
public final class QueryClauses {
    /** Clauses with fewer words than this (words with a letter) are dropped. */
    public static final int MIN_WORDS = 3;

    /**
     * At most this many clauses are searched. Four until a clause's vector came from the message's own model call
     * (issue 22): a fifth clause then cost a model call of its own for the joined pair, where now it costs its
     * searches only; and eight measured better than four on every multi-step development set (docs/EVALUATION.md,
     * "Eight clauses").
     */
    public static final int MAX_CLAUSES = 8;

    /** At most this many clauses are read from a message; the rest of it is not split. */
    public static final int MAX_CANDIDATES = 32;

    /**
     * Where the default rule splits. The possessive {@code \s++} and the look-behind {@code (?<!\s)} keep it
     * linear: a connective's white space is matched only from the start of its run, and whole.
     */
    public static final Pattern SPLIT_POINTS = Pattern.compile(
            "(?<=[.!?])\\s++|;|(?<!\\s)\\s++(?:and\\s++then|then|and\\s++also|also)\\s++", Pattern.CASE_INSENSITIVE);
    /** A connective that opens a sentence ("... event. Then check ...") is not part of the clause. */
    private static final Pattern LEADING_CONNECTIVE =
            Pattern.compile("(?:and\\s++then|then|and\\s++also|also)\\s++", Pattern.CASE_INSENSITIVE);

    private QueryClauses() {}

    /**
     * The message's clauses in order, or an empty list when it has fewer than two (it is then searched whole
     * only).
     */
    public static List<String> split(CharSequence message) {
        return split(message, SPLIT_POINTS);
    }

    /**
     * {@link #split(CharSequence)} with other split points (the evaluation compares rules); linear when the
     * pattern is.
     */
    public static List<String> split(CharSequence message, Pattern splitPoints) {
        List<String> parts = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        // the message stripped of white space at both ends, as the split points see it
        int lo = 0;
        int hi = message.length();
        while (lo < hi && Character.isWhitespace(message.charAt(lo))) {
            lo++;
        }
        while (hi > lo && Character.isWhitespace(message.charAt(hi - 1))) {
            hi--;
        }
        Matcher m = splitPoints.matcher(message).region(lo, hi);
        int from = lo;
        while (parts.size() < MAX_CANDIDATES) {
            if (!m.find()) {
                addClause(message, from, hi, parts, counts);
                break;
            }
            addClause(message, from, m.start(), parts, counts);
            from = m.end();
        }
        while (parts.size() > MAX_CLAUSES) {
            int best = 0;
            for (int i = 1; i + 1 < parts.size(); i++) {
                if (counts.get(i) + counts.get(i + 1) < counts.get(best) + counts.get(best + 1)) {
                    best = i;
                }
            }
            parts.set(best, parts.get(best) + " " + parts.get(best + 1));
            counts.set(best, counts.get(best) + counts.get(best + 1));
            parts.remove(best + 1);
            counts.remove(best + 1);
        }
        return parts.size() < 2 ? List.of() : List.copyOf(parts);
    }

    /**
     * Adds {@code message[from, to)} as a clause when, trimmed of white space and {@code ,.;:!?} at both ends
     * and of a leading connective, it has {@value #MIN_WORDS} words or more.
     */
    private static void addClause(CharSequence message, int from, int to, List<String> parts, List<Integer> counts) {
        int a = from;
        int b = to;
        while (a < b && edge(message.charAt(a))) {
            a++;
        }
        while (b > a && edge(message.charAt(b - 1))) {
            b--;
        }
        if (a == b) {
            return;
        }
        Matcher lead = LEADING_CONNECTIVE.matcher(message).region(a, b);
        if (lead.lookingAt()) {
            a = lead.end();
        }
        int words = words(message, a, b);
        if (words >= MIN_WORDS) {
            parts.add(message.subSequence(a, b).toString());
            counts.add(words);
        }
    }

    private static boolean edge(char c) {
        return Character.isWhitespace(c) || ",.;:!?".indexOf(c) >= 0;
    }

    /** White space as the split points' {@code \\s} means it. */
    private static boolean space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** The words of {@code s} that hold a letter: numbers, dates and symbols do not say what to do. */
    static int words(String s) {
        return words(s, 0, s.length());
    }

    /** The words of {@code s[from, to)} (separated by white space) that hold a letter, in one pass. */
    private static int words(CharSequence s, int from, int to) {
        int n = 0;
        boolean inWord = false;
        boolean letter = false;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (space(c)) {
                if (inWord && letter) {
                    n++;
                }
                inWord = false;
                letter = false;
            } else {
                inWord = true;
                letter |= Character.isLetter(c);
            }
        }
        return inWord && letter ? n + 1 : n;
    }
}
