package dev.toolscout.memory;

/**
 * The stem of an inflected English word, so that a question's word finds the memory's form of it: "join" and
 * "joined", "plan" and "planning", "practice" and "practicing", "hobby" and "hobbies". Light suffix stripping (plural,
 * past, gerund, a doubled final consonant, a final e), no dictionary: it never joins two words of different stems
 * that a reader would keep apart by more than their ending, and it is applied to both words before they are compared.
 * Stateless and thread-safe.
 */
final class WordForms {
    private WordForms() {}

    /** The stem of {@code w}, a lowercase word without a possessive ending. */
    static String stem(String w) {
        String s = w;
        int n = s.length();
        if (n > 4 && (s.endsWith("ies") || s.endsWith("ied"))) {
            s = s.substring(0, n - 3) + "y";
        } else if (n > 5 && s.endsWith("ing")) {
            s = s.substring(0, n - 3);
        } else if (n > 4 && s.endsWith("ed")) {
            s = s.substring(0, n - 2);
        } else if (n > 4 && (s.endsWith("ses") || s.endsWith("xes") || s.endsWith("ches") || s.endsWith("shes"))) {
            s = s.substring(0, n - 2);
        } else if (n > 3 && s.endsWith("s") && !s.endsWith("ss")) {
            s = s.substring(0, n - 1);
        }
        n = s.length();
        if (n > 3 && s.charAt(n - 1) == s.charAt(n - 2) && "lsz".indexOf(s.charAt(n - 1)) < 0) {
            s = s.substring(0, n - 1); // "planning" -> "plann" -> "plan"
        }
        n = s.length();
        if (n > 3 && s.endsWith("e")) {
            s = s.substring(0, n - 1); // "practice" and "practic(ing)"
        }
        return s;
    }
}
