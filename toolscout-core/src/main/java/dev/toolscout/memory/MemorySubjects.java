package dev.toolscout.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a memory is about what a question asks about (docs/ROUTING.md, "Subject check"): a memory near a question
 * in meaning is often about a neighbouring subject ("my cat" for "my dog", "my wife's birthday" for "my birthday",
 * "Gina" for "Jon"), and answering with it is wrong. Read from the words, no model:
 *
 * <ul>
 *   <li>every person or thing the question names (a capitalised word inside the sentence, not a month, a day or a
 *       question word) is named in the memory;
 *   <li>every thing the question says is someone's ("my dog", "my wife's birthday", "Jon's shop", "our office") is
 *       in the memory (each word of its phrase, singular or plural, but generic words like "name" or "favourite"),
 *       and not there as someone else's: the memory's "my wife's birthday" is not the
 *       question's "my birthday".
 * </ul>
 *
 * Stateless and thread-safe.
 */
public final class MemorySubjects {
    private MemorySubjects() {}

    /**
     * The share of the question's own words (not function words, not the words of asking) the memory must hold, as
     * words, five-letter prefixes or the same stem ({@link WordForms}): four fifths, chosen on LoCoMo's calibration
     * conversations (docs/EVALUATION.md, Routes; two thirds before the stems were compared).
     */
    static final double MIN_COVERAGE = 0.8;

    /**
     * A question that asks for a guess ("What might John's degree be in?", "Would Melanie enjoy Vivaldi?", "What is
     * Maria likely to do?"): no stored fact states the answer, so no memory answers it directly (LoCoMo's inference
     * questions); the model answers, with the near memories as evidence.
     */
    private static final Pattern GUESS =
            Pattern.compile("\\b(?:might|likely|probably|possibly)\\b|^would\\s+(?!you\\b|u\\b)");

    private static Set<String> set(String... words) {
        return Set.copyOf(java.util.Arrays.asList(words));
    }

    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+(?:[-'][\\p{L}\\p{N}]+)*");
    /** Capitalised words that name no one: question words, pronouns, months, days, and the like. */
    private static final Set<String> NOT_NAMES = set(
            "i",
            "i'm",
            "i've",
            "i'd",
            "i'll",
            "what",
            "when",
            "where",
            "who",
            "whom",
            "whose",
            "which",
            "how",
            "why",
            "is",
            "are",
            "was",
            "were",
            "do",
            "does",
            "did",
            "can",
            "could",
            "will",
            "would",
            "should",
            "have",
            "has",
            "had",
            "the",
            "a",
            "an",
            "my",
            "your",
            "our",
            "his",
            "her",
            "their",
            "its",
            "according",
            "in",
            "on",
            "at",
            "and",
            "or",
            "but",
            "if",
            "then",
            "tell",
            "please",
            "remember",
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
            "today",
            "tomorrow",
            "yesterday",
            "mr",
            "mrs",
            "ms",
            "dr",
            "ok",
            "okay",
            "hey",
            "hi",
            "yes",
            "no",
            "english",
            "french",
            "german",
            "spanish");
    /** Words that end a noun phrase after "my": verbs, articles, prepositions, conjunctions. */
    private static final Set<String> PHRASE_END = set(
            "is", "are", "was", "were", "be", "been", "being", "am", "called", "named", "do", "does", "did", "have",
            "has", "had", "will", "would", "can", "could", "should", "may", "might", "must", "shall", "in", "on", "at",
            "to", "for", "of", "with", "and", "or", "but", "the", "a", "an", "from", "by", "about", "that", "this",
            "these", "those", "who", "which", "what", "when", "where", "how", "why", "if", "than", "as", "like", "live",
            "lives", "go", "goes", "went", "take", "takes", "took", "get", "gets", "got", "i", "you", "we", "he", "she",
            "they", "it", "me", "him", "her", "us", "them", "now", "still", "again", "ever", "usually", "not", "never",
            "so", "too", "also", "just", "really", "there", "here", "any", "some", "up", "out", "into", "onto", "over",
            "under", "after", "before", "since", "until", "while", "during", "per", "via", "always", "often", "start",
            "starts", "end", "ends", "run", "runs", "expire", "expires");
    /** Words too general to name a subject alone: the phrase's other words stand for them. */
    private static final Set<String> NAME_WORDS = set("name", "names", "named", "called");

    private static final Set<String> GENERIC = set(
            "number",
            "numbers",
            "thing",
            "things",
            "one",
            "ones",
            "kind",
            "type",
            "sort",
            "stuff",
            "details",
            "info",
            "information",
            "favourite",
            "favorite",
            "preferred",
            "new",
            "old",
            "current",
            "usual");

    /** Words that say nothing of what is asked: function words and the words of asking and recalling. */
    private static final Set<String> STOP = set(
            "what",
            "what's",
            "whats",
            "when",
            "when's",
            "where",
            "where's",
            "who",
            "who's",
            "whom",
            "whose",
            "which",
            "how",
            "why",
            "my",
            "our",
            "your",
            "his",
            "her",
            "their",
            "its",
            "me",
            "i",
            "you",
            "we",
            "he",
            "she",
            "they",
            "it",
            "tell",
            "told",
            "say",
            "said",
            "remember",
            "remind",
            "know",
            "mention",
            "mentioned",
            "please",
            "again",
            "recall",
            "did",
            "does",
            "do",
            "s",
            "t",
            "don't",
            "doesn't",
            "didn't",
            "isn't",
            "aren't",
            "wasn't",
            "according",
            "yet",
            "ago",
            "kind",
            "much",
            "many",
            "long",
            "lot",
            "lots",
            "something",
            "anything",
            "everything",
            "someone",
            "anyone",
            "one",
            "would",
            "could",
            "likely",
            "both",
            "each",
            "other",
            "all",
            "some",
            "any",
            "no",
            "yes",
            "very",
            "well",
            "there",
            "then",
            "else",
            "being",
            "become",
            "became",
            "make",
            "made",
            "makes",
            "go",
            "went",
            "going",
            "gone",
            "do",
            "doing",
            "done",
            "get",
            "getting",
            "give",
            "gave",
            "like",
            "liked",
            "used",
            "use",
            "first",
            "last",
            "recently",
            "ever",
            "time",
            "times",
            "day",
            "days",
            "year",
            "years",
            "week",
            "weeks",
            "month",
            "months");

    private static final Set<String> OWNERS = set("my", "our", "your", "his", "her", "their", "its");

    /**
     * Why {@code memory} is not about what {@code question} asks, or empty when it is (as far as words tell).
     *
     * @return a short reason naming the missing or other subject, e.g. {@code "the question asks about 'my dog',
     *     which the memory does not mention"}
     */
    public static Optional<String> mismatch(String question, String memory) {
        return mismatch(question, memory, MIN_COVERAGE);
    }

    /** Whether {@code question} asks for a guess rather than for what was stored ({@link #GUESS}). */
    public static boolean asksForGuess(String question) {
        return question != null
                && GUESS.matcher(question.strip().toLowerCase(Locale.ROOT).replace('\u2019', '\''))
                        .find();
    }

    /** As {@link #mismatch(String, String)}, with another share of the question's words the memory must hold. */
    static Optional<String> mismatch(String question, String memory, double minCoverage) {
        List<String> q = tokens(question);
        List<String> qLower = lower(q);
        List<String> mLower = lower(tokens(memory));
        // names: capitalised words inside the question
        for (int i = 1; i < q.size(); i++) {
            String w = q.get(i);
            String lw = stripPossessive(qLower.get(i));
            if (Character.isUpperCase(w.charAt(0)) && !NOT_NAMES.contains(lw) && !containsWord(mLower, lw)) {
                return Optional.of(
                        "the question asks about '" + stripPossessive(w) + "', whom the memory does not name");
            }
        }
        // possessed things: "my X", "our X", "NAME's X", "my X's Y"
        for (int i = 0; i < qLower.size(); i++) {
            String w = qLower.get(i);
            String owner;
            if (w.equals("my") || w.equals("our")) {
                owner = "my";
            } else if (w.endsWith("'s") && w.length() > 2 && i > 0) {
                owner = w.substring(0, w.length() - 2); // a name's thing: "jon's shop"
            } else {
                continue;
            }
            List<String> phrase = new ArrayList<>();
            int j = i + 1;
            boolean possessive = false;
            while (j < qLower.size() && phrase.size() < 4) {
                String t = qLower.get(j);
                if (t.endsWith("'s") && t.length() > 2) {
                    phrase.add(t.substring(0, t.length() - 2));
                    possessive = true;
                    break;
                }
                if (PHRASE_END.contains(t) || OWNERS.contains(t)) {
                    break;
                }
                phrase.add(t);
                j++;
            }
            if (phrase.isEmpty()) {
                continue;
            }
            // every word of the phrase: without a tagger, "my wife prefer" (a verb after the noun) reads as one
            // phrase, and its noun must still be there
            for (String h : phrase) {
                if (GENERIC.contains(h)) {
                    continue;
                }
                List<Integer> at = positions(mLower, h);
                if (at.isEmpty() && NAME_WORDS.contains(h)) {
                    // "my dog's name": "My dog is called Rex" says it
                    for (String n : NAME_WORDS) {
                        at = at.isEmpty() ? positions(mLower, n) : at;
                    }
                }
                String said = (owner.equals("my") ? w : owner + "'s") + " " + String.join(" ", phrase);
                if (at.isEmpty()) {
                    return Optional.of("the question asks about '" + said + "', which the memory does not mention");
                }
                if (owner.equals("my") && at.stream().allMatch(p -> ownedByOther(mLower, p))) {
                    return Optional.of(
                            "the question asks about '" + said + "', which the memory mentions only as someone else's");
                }
            }
            if (possessive) {
                i = j - 1; // "my wife's birthday": "wife's" is read next as the owner of "birthday"
            }
        }
        // what is asked about it: "How old is my cat?" is about the cat, but "My cat is called Tom." does not say
        List<String> content = new ArrayList<>();
        for (String w : qLower) {
            String t = stripPossessive(w);
            if (!STOP.contains(t) && !PHRASE_END.contains(t) && !NAME_WORDS.contains(t)) {
                content.add(t);
            }
        }
        List<String> missing = new ArrayList<>();
        Set<String> mStems = new java.util.HashSet<>();
        mLower.forEach(w -> mStems.add(WordForms.stem(stripPossessive(w))));
        for (String t : content) {
            if (!containsWord(mLower, t) && !sharesStem(mLower, t) && !mStems.contains(WordForms.stem(t))) {
                missing.add(t);
            }
        }
        if (!content.isEmpty() && (content.size() - missing.size()) < minCoverage * content.size() - 1e-9) {
            return Optional.of("the memory does not say " + String.join(", ", missing) + " (of what the question asks"
                    + " about, it must hold " + Math.round(100 * minCoverage) + "%)");
        }
        return Optional.empty();
    }

    /** Whether a word of the memory begins with the first five letters of {@code w}: "attended" and "attend". */
    private static boolean sharesStem(List<String> m, String w) {
        if (w.length() < 5) {
            return false;
        }
        String stem = w.substring(0, 5);
        return m.stream().anyMatch(x -> x.startsWith(stem));
    }

    /** Whether the word at {@code p} of the memory is someone else's: "wife's birthday", "her birthday". */
    private static boolean ownedByOther(List<String> m, int p) {
        for (int k = p - 1; k >= Math.max(0, p - 4); k--) {
            String t = m.get(k);
            if (t.equals("my") || t.equals("our") || t.equals("i")) {
                return false;
            }
            if (t.endsWith("'s") || t.equals("your") || t.equals("his") || t.equals("her") || t.equals("their")) {
                return true;
            }
            if (PHRASE_END.contains(t)) {
                return false;
            }
        }
        return false;
    }

    private static List<Integer> positions(List<String> m, String w) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            if (same(stripPossessive(m.get(i)), w)) {
                out.add(i);
            }
        }
        return out;
    }

    private static boolean containsWord(List<String> m, String w) {
        return !positions(m, w).isEmpty();
    }

    /** The same word, singular or plural: "dog" and "dogs", "city" and "cities", "class" and "classes". */
    static boolean same(String a, String b) {
        return a.equals(b) || singular(a).equals(singular(b));
    }

    private static String singular(String w) {
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.length() > 4 && (w.endsWith("ses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes"))) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    private static String stripPossessive(String w) {
        if (w.endsWith("'s") && w.length() > 2) {
            return w.substring(0, w.length() - 2);
        }
        return w.endsWith("'") && w.length() > 1 ? w.substring(0, w.length() - 1) : w;
    }

    private static List<String> tokens(String s) {
        List<String> out = new ArrayList<>();
        if (s == null) {
            return out;
        }
        Matcher m = TOKEN.matcher(s.replace('\u2019', '\'').replace('\u2018', '\''));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static List<String> lower(List<String> t) {
        return t.stream().map(w -> w.toLowerCase(Locale.ROOT)).toList();
    }
}
