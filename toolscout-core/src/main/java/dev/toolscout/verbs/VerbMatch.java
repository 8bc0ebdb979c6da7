package dev.toolscout.verbs;

import dev.toolscout.indexing.ToolText;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How alike a novel verb and a candidate verb or tool are: the confidence a substitution is judged by
 * (docs/VERBS.md, "Confidence").
 *
 * <p>Two parts. What each does: the cosine of the two descriptions, each embedded alone as a document (not the
 * stored embedding text, which holds the name, examples and parameters, so a renamed copy of a manifest scored
 * 0.75 against itself with the default model); and, when the novel verb names its inputs, what they take: the
 * share of input names the two have in common (Jaccard, names compared as words, so {@code task_id} is {@code
 * taskId}). The confidence is {@code (1 - w) * descriptionCosine + w * inputOverlap} with {@code w = }{@value
 * #INPUT_WEIGHT}, or the description cosine alone when the novel verb names no inputs: 1 for a copy under any
 * name, whatever the model.
 *
 * <p>Stateless and thread-safe.
 */
public final class VerbMatch {
    /**
     * The weight of the input overlap: 0, so the confidence is the description cosine alone. Chosen on the
     * calibration split (docs/VERBS.md): of 0, 0.1, 0.2 and 0.3, the one with the most right substitutions at 95%
     * precision there. Input names do not tell siblings apart (a server's {@code sha1} and {@code sha256} take the
     * same inputs), which is where the wrong substitutions are.
     */
    public static final double INPUT_WEIGHT = 0.0;

    private VerbMatch() {}

    /**
     * The text of a novel verb that is compared with a candidate's description: its description, or its name as
     * words when it has none.
     */
    public static String text(NovelVerb verb) {
        return verb.description() != null ? verb.description() : ToolText.splitIdentifier(verb.verb());
    }

    /**
     * The share of input names two lists have in common (|A ∩ B| / |A ∪ B|), names compared as their words
     * ({@code max_results}, {@code maxResults} and {@code MAX-RESULTS} are one name); NaN when {@code novel} names
     * none (nothing is known about what it takes), 0 when only the candidate takes none.
     */
    public static double inputOverlap(List<String> novel, List<String> candidate) {
        Set<String> a = keys(novel);
        if (a.isEmpty()) {
            return Double.NaN;
        }
        Set<String> b = keys(candidate);
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        a.retainAll(b);
        return (double) a.size() / union.size();
    }

    private static Set<String> keys(List<String> names) {
        Set<String> out = new HashSet<>();
        for (String n : names) {
            String k = ToolText.splitIdentifier(n).replace(" ", "");
            if (!k.isEmpty()) {
                out.add(k);
            }
        }
        return out;
    }

    /** The confidence from its parts: see the class comment. NaN when the description cosine is. */
    public static double confidence(double descriptionCosine, double inputOverlap) {
        return confidence(descriptionCosine, inputOverlap, INPUT_WEIGHT);
    }

    /** {@link #confidence(double, double)} with another input weight (the calibration compares several). */
    public static double confidence(double descriptionCosine, double inputOverlap, double inputWeight) {
        if (Double.isNaN(inputOverlap)) {
            return descriptionCosine;
        }
        return (1 - inputWeight) * descriptionCosine + inputWeight * inputOverlap;
    }
}
