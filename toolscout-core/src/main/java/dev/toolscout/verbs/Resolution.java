package dev.toolscout.verbs;

import java.util.List;

/** What {@link VerbResolver#resolve} decided for a novel verb. */
public sealed interface Resolution {
    /** The embedding model the confidences are cosines of. */
    String modelId();

    /**
     * An existing verb or tool does what the novel verb asks, confidently enough to use it instead.
     *
     * @param target the verb or tool to use
     * @param threshold the model's calibrated threshold the target's confidence reached
     * @param alternatives the next candidates, best first (they did not decide anything)
     */
    record Substitution(VerbCandidate target, double threshold, String modelId, List<VerbCandidate> alternatives)
            implements Resolution {
        public Substitution {
            alternatives = List.copyOf(alternatives);
        }

        /** The target's confidence (a cosine similarity, at least {@link #threshold()}). */
        public double confidence() {
            return target.confidence();
        }
    }

    /**
     * Nothing is close enough: the caller falls back (decomposes the verb, creates a tool, asks a person).
     *
     * @param nearest the best candidates, best first, with their confidences (empty when the principal may see
     *     nothing)
     * @param threshold the model's calibrated threshold, or {@code NaN} when the model has none (then nothing is
     *     ever substituted)
     * @param reason why, in a sentence naming the best candidate, its confidence and the threshold
     */
    record NoMatch(List<VerbCandidate> nearest, double threshold, String modelId, String reason) implements Resolution {
        public NoMatch {
            nearest = List.copyOf(nearest);
        }
    }
}
