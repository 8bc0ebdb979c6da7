package dev.toolscout.verbs;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The confidence (a cosine similarity) a substitution needs, per embedding model id: each model spreads its
 * cosines differently, so each has its own threshold.
 *
 * <p>Calibrated, not guessed (docs/VERBS.md, "Calibration"): the lowest threshold at which {@link VerbResolver}'s
 * substitutions on the development sets' open-set cases (each single-gold query resolved with its gold tool in the
 * catalog and without it, plus gibberish) are at least 95% right, rounded down to four decimals (so the case that
 * set it stays in; rounding up once dropped a right substitution and the precision below 95%). Produced by {@code
 * toolscout calibrate verbs ../shared/datasets} (toolscout-eval's VerbCalibration), which also checks them on the
 * held-out verbs set. A model not listed never substitutes.
 */
public final class VerbThresholds {
    private static final Map<String, Double> BY_MODEL = Map.of(
            "all-minilm-l6-v2-q", 0.8310,
            "bge-small-en-v1.5-q", 0.8547,
            "bge-small-en-v1.5-q-instruct", 0.8547);

    private VerbThresholds() {}

    /** The threshold of a model id, or empty when it was never calibrated (a resolver then never substitutes). */
    public static OptionalDouble forModel(String modelId) {
        Double t = modelId == null ? null : BY_MODEL.get(modelId);
        return t == null ? OptionalDouble.empty() : OptionalDouble.of(t);
    }

    /** Every calibrated model id and its threshold. */
    public static Map<String, Double> all() {
        return BY_MODEL;
    }
}
