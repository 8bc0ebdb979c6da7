package dev.toolscout.learning;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The content words of a message, which a learned message must share with a request to count ({@link
 * UsageMemory.Match#content}): lower-cased ({@link Locale#ROOT}), split at anything but letters and digits; words
 * under three letters, words with a digit (amounts, dates, ids: the particulars of one request, not what it is
 * about) and phrasing words (pronouns, modal verbs, politeness, question words) dropped; a plural or verb ending
 * removed ({@code -s}, {@code -es}, {@code -ed}, {@code -ing}), so "songs" and "song", "played" and "play" meet.
 */
final class ContentWords {
    /**
     * Words that say how something is asked, not what: a request phrased like a learned message shares these
     * whatever it is about. Every other common word is weighed down by {@link Weights} instead.
     */
    private static final Set<String> PHRASING = Set.of(
            "the",
            "and",
            "for",
            "with",
            "that",
            "this",
            "these",
            "those",
            "from",
            "into",
            "onto",
            "then",
            "than",
            "please",
            "pls",
            "kindly",
            "thanks",
            "thank",
            "hey",
            "hello",
            "can",
            "could",
            "would",
            "should",
            "will",
            "shall",
            "may",
            "might",
            "must",
            "you",
            "your",
            "yours",
            "our",
            "ours",
            "his",
            "her",
            "hers",
            "their",
            "them",
            "they",
            "its",
            "mine",
            "myself",
            "yourself",
            "want",
            "wanna",
            "need",
            "like",
            "love",
            "wish",
            "help",
            "able",
            "let",
            "lets",
            "what",
            "when",
            "where",
            "which",
            "who",
            "whom",
            "whose",
            "why",
            "how",
            "are",
            "was",
            "were",
            "been",
            "being",
            "have",
            "has",
            "had",
            "having",
            "does",
            "did",
            "doing",
            "done",
            "not",
            "but",
            "all",
            "any",
            "some",
            "also",
            "just",
            "now",
            "there",
            "here",
            "about",
            "out",
            "very",
            "really",
            "going",
            "gonna",
            "get",
            "got",
            "know",
            "tell",
            "give",
            "make",
            "sure",
            "possible",
            "something",
            "anything",
            "thing",
            "things",
            "way",
            "use",
            "using",
            "one",
            "ones",
            "via",
            "per",
            "each",
            "every");

    private ContentWords() {}

    /** The content words of {@code text}, once each, in order. */
    static Set<String> of(String text) {
        Set<String> out = new LinkedHashSet<>();
        String lower = text.toLowerCase(Locale.ROOT);
        int n = lower.length();
        int i = 0;
        while (i < n) {
            while (i < n && !Character.isLetterOrDigit(lower.charAt(i))) {
                i++;
            }
            int start = i;
            boolean digit = false;
            while (i < n && Character.isLetterOrDigit(lower.charAt(i))) {
                digit |= Character.isDigit(lower.charAt(i));
                i++;
            }
            String w = lower.substring(start, i);
            if (w.length() >= 3 && !digit && !PHRASING.contains(w)) {
                out.add(stem(w));
            }
        }
        return Set.copyOf(out);
    }

    /** The word without a plural or verb ending, when at least three letters are left. */
    static String stem(String w) {
        for (String end : List.of("ing", "ed", "es", "s")) {
            if (w.endsWith(end) && w.length() - end.length() >= 3 && !w.endsWith("ss")) {
                return w.substring(0, w.length() - end.length());
            }
        }
        return w;
    }

    /**
     * How much each content word says, from the learned messages: {@code ln(1 + n / (1 + df))} for a word {@code df}
     * of the {@code n} messages use (a word none uses weighs the most). Immutable.
     */
    record Weights(Map<String, Integer> df, int n) {
        static Weights of(Collection<Set<String>> messages) {
            Map<String, Integer> df = new HashMap<>();
            messages.forEach(ws -> ws.forEach(w -> df.merge(w, 1, Integer::sum)));
            return new Weights(Map.copyOf(df), messages.size());
        }

        double weight(String word) {
            return Math.log1p((double) n / (1 + df.getOrDefault(word, 0)));
        }

        /** The length of a message's weighted word vector. */
        double norm(Set<String> words) {
            double s = 0;
            for (String w : words) {
                double x = weight(w);
                s += x * x;
            }
            return Math.sqrt(s);
        }

        /** The cosine of two messages' weighted word vectors (their norms given), 0 when either has no word. */
        double cosine(Set<String> a, double normA, Set<String> b, double normB) {
            if (normA == 0 || normB == 0) {
                return 0;
            }
            Set<String> small = a.size() <= b.size() ? a : b;
            Set<String> large = small == a ? b : a;
            double s = 0;
            for (String w : small) {
                if (large.contains(w)) {
                    double x = weight(w);
                    s += x * x;
                }
            }
            return Math.min(1, s / (normA * normB));
        }
    }
}
