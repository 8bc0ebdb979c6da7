package dev.toolscout.selection;

import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Human-readable reasons for a selected tool: which words of the message it matched, how similar it is. */
final class Reasons {
    private static final Set<String> STOP = Set.of(
            "the",
            "and",
            "for",
            "with",
            "that",
            "this",
            "from",
            "into",
            "please",
            "can",
            "you",
            "want",
            "need",
            "would",
            "like",
            "some",
            "about",
            "what",
            "when",
            "where",
            "which",
            "who",
            "how",
            "are",
            "was",
            "will",
            "have",
            "has",
            "had",
            "not",
            "but",
            "all",
            "any",
            "our",
            "your",
            "his",
            "her",
            "their",
            "them",
            "its",
            "let",
            "get",
            "out",
            "one",
            "tomorrow",
            "today",
            "at",
            "on",
            "in",
            "to",
            "of",
            "a",
            "an",
            "me",
            "my");
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

    /** The reason of a tool nothing in the message matched. */
    static final String NO_MATCH = "no match for this message";

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
                parts.add("matches "
                        + String.join(
                                ", ", words.stream().map(w -> "'" + w + "'").toList()) + " (keyword rank "
                        + r.lexicalRank() + ")");
            } else if (r.lexicalRank() > 0) {
                parts.add("keyword rank " + r.lexicalRank());
            }
            if (r.denseRank() > 0) {
                parts.add(String.format(
                        Locale.ROOT, "similar in meaning (%.2f, rank %d)", r.similarity(), r.denseRank()));
            }
        }
        if (parts.isEmpty()) {
            parts.add(NO_MATCH);
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

    /**
     * Query words that also occur in the tool's text, comparing 5-letter stems; at most three, in the query's
     * order. The tool's text is scanned word by word against the few query stems, without building its words:
     * this runs for every selected tool of every request, and building a set of a long description's stems cost
     * 0.1 ms a tool, most of a selection's time beyond its embedding on short messages.
     */
    static List<String> matchedWords(ToolSpec spec, List<String> queryWords) {
        if (queryWords.isEmpty()) {
            return List.of();
        }
        String[] stems = new String[queryWords.size()];
        for (int i = 0; i < stems.length; i++) {
            stems[i] = stem(queryWords.get(i));
        }
        boolean[] found = new boolean[stems.length];
        int left = stems.length;
        left = mark(ToolText.nameWords(spec), stems, found, left);
        if (left > 0) {
            left = mark(spec.description(), stems, found, left);
        }
        if (left > 0) {
            left = mark(ToolText.labels(spec), stems, found, left);
        }
        if (left > 0) {
            mark(ToolText.parameterText(spec), stems, found, left);
        }
        List<String> out = new ArrayList<>(MAX_WORDS);
        for (int i = 0; i < stems.length && out.size() < MAX_WORDS; i++) {
            if (found[i]) {
                out.add(queryWords.get(i));
            }
        }
        return out;
    }

    /**
     * Marks the query stems that the stem of some word of {@code text} equals ({@link #words} then {@link #stem},
     * compared in place for an ASCII word); returns how many are still unmarked.
     */
    private static int mark(String text, String[] stems, boolean[] found, int left) {
        int n = text.length();
        int i = 0;
        while (i < n && left > 0) {
            while (i < n && !Character.isLetterOrDigit(text.charAt(i))) {
                i++;
            }
            int start = i;
            boolean ascii = true;
            while (i < n && Character.isLetterOrDigit(text.charAt(i))) {
                ascii &= text.charAt(i) < 128;
                i++;
            }
            if (i == start) {
                continue;
            }
            // a non-ASCII word is lower-cased whole first, as words() does: its case mapping may change its length
            String stem = ascii ? null : stem(text.substring(start, i).toLowerCase(Locale.ROOT));
            int len = ascii ? Math.min(5, i - start) : stem.length();
            for (int k = 0; k < stems.length; k++) {
                if (!found[k]
                        && stems[k].length() == len
                        && (ascii ? asciiLowerEquals(text, start, stems[k]) : stems[k].equals(stem))) {
                    found[k] = true;
                    left--;
                }
            }
        }
        return left;
    }

    private static boolean asciiLowerEquals(String text, int from, String lower) {
        for (int j = 0; j < lower.length(); j++) {
            char c = text.charAt(from + j);
            if ((c >= 'A' && c <= 'Z' ? (char) (c + 32) : c) != lower.charAt(j)) {
                return false;
            }
        }
        return true;
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
