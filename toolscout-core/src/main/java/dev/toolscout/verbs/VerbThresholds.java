package dev.toolscout.verbs;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The confidence (cosine similarity) a substitution needs, per embedding model id: each model spreads its
 * cosines differently, so each has its own threshold. Calibrated on labelled data, never guessed (docs/VERBS.md,
 * "Calibration"): PLACEHOLDER.
 */
public final class VerbThresholds {
  private static final Map<String, Double> BY_MODEL = Map.of();

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
