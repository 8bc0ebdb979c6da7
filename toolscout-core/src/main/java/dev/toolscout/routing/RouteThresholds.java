package dev.toolscout.routing;

import java.util.Map;
import java.util.Optional;

/**
 * The cosine each route needs, for one embedding model: each model spreads its cosines differently, so each has
 * its own. {@code NaN} disables a route (it never fires): a route that could not reach useful precision on the
 * labelled route set is disabled by default.
 *
 * <p>Calibrated, not guessed (docs/ROUTING.md, "Calibration"): produced by {@code toolscout calibrate routes
 * ../shared/datasets} (toolscout-eval's RouteCalibration) on the labelled route set, which also prints each route's
 * precision and recall. The cosine is between vectors of the message and of the stored
 * text, both embedded as documents (like for like; no query adapter or instruction).
 *
 * @param directMemory the cosine of the nearest readable memory for {@link Route#DIRECT_MEMORY}
 * @param skillExecute the cosine of the nearest tool, one with no required parameters, for {@link
 *     Route#SKILL_EXECUTE}
 * @param skillHint the cosine of the nearest tool or skill for {@link Route#SKILL_HINT}
 * @param toolFilter the cosine of the nearest tool below which nothing in the catalog is taken as relevant ({@link
 *     Route#LLM_REQUIRED})
 */
public record RouteThresholds(
        String modelId, double directMemory, double skillExecute, double skillHint, double toolFilter) {
    public static final double DISABLED = Double.NaN;

    /**
     * Fitted by RouteCalibration (docs/ROUTING.md has its tables). BGE's direct_memory is disabled: with the subject
     * check and LoCoMo's calibration conversations it never reaches 95% precision (2026-12-07). The BGE instruct variant embeds documents (and so
     * the router's message) exactly as plain BGE: the same cosines, the same thresholds.
     */
    private static final Map<String, RouteThresholds> BY_MODEL = Map.of(
            "all-minilm-l6-v2-q", new RouteThresholds("all-minilm-l6-v2-q", 0.75, 0.72, 0.65, 0.23),
            "bge-small-en-v1.5-q", new RouteThresholds("bge-small-en-v1.5-q", DISABLED, 0.84, 0.79, 0.55),
            "bge-small-en-v1.5-q-instruct",
                    new RouteThresholds("bge-small-en-v1.5-q-instruct", DISABLED, 0.84, 0.79, 0.55));

    public RouteThresholds {
        if (modelId == null || modelId.isBlank()) {
            throw new IllegalArgumentException("modelId must not be blank, got: '" + modelId + "'");
        }
        for (double t : new double[] {directMemory, skillExecute, skillHint, toolFilter}) {
            if (!Double.isNaN(t) && (t < -1 || t > 1)) {
                throw new IllegalArgumentException(
                        "a route threshold is a cosine between -1 and 1 (or NaN, disabled), got: " + t);
            }
        }
    }

    /** The calibrated thresholds of {@code modelId}, or empty when it was never calibrated (every route disabled). */
    public static Optional<RouteThresholds> forModel(String modelId) {
        return Optional.ofNullable(modelId == null ? null : BY_MODEL.get(modelId));
    }

    /** Every route disabled: for a model never calibrated. */
    public static RouteThresholds disabled(String modelId) {
        return new RouteThresholds(modelId, DISABLED, DISABLED, DISABLED, DISABLED);
    }

    /** Every calibrated model's thresholds. */
    public static Map<String, RouteThresholds> all() {
        return BY_MODEL;
    }

    /** Whether {@code cosine} clears {@code threshold} (never, for a disabled one). */
    public static boolean clears(double cosine, double threshold) {
        return !Double.isNaN(threshold) && cosine >= threshold;
    }
}
