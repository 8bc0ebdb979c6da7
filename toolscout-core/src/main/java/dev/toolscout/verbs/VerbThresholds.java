package dev.toolscout.verbs;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The confidence (a cosine similarity) a substitution needs, per embedding model id: each model spreads its
 * cosines differently, so each has its own threshold.
 *
 * <p>Calibrated, not guessed (docs/VERBS.md, "Calibration"), for {@link VerbMatch}'s confidence: the lowest
 * threshold at which {@link VerbResolver}'s substitutions are at least 95% right on the calibration cases, taken
 * apart (the higher of the two): the development sets' requests (each single-gold query resolved with its gold tool
 * in the catalog and without it, plus gibberish), and the calibration half of etom-mcp's equivalent MCP tools;
 * rounded down to four decimals (so the case that set it stays in). Produced by {@code toolscout calibrate verbs
 * ../shared/datasets} (toolscout-eval's VerbCalibration), which also measures them on the held-out half and the
 * held-out verbs set. A model not listed never substitutes. BGE's were calibrated with {@code --sets etom} (its
 * requests only from etom-mcp's levels 1 and 2; {@code -instruct} differs only in the query instruction, which the
 * confidence does not use).
 */
public final class VerbThresholds {
    private static final Map<String, Double> BY_MODEL = Map.of(
            "all-minilm-l6-v2-q", 0.9135,
            "bge-small-en-v1.5-q", 0.9412,
            "bge-small-en-v1.5-q-instruct", 0.9412);

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
