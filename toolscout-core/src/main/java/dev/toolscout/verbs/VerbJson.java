package dev.toolscout.verbs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The JSON that verb discovery and resolution answer with, one shape for the CLI and the HTTP API (docs/VERBS.md):
 * a candidate is {@code {name, kind, verb?, description, confidence, score}} ({@code kind} {@code verb} or {@code
 * tool}, {@code verb} only for verbs; {@code confidence} a cosine, {@code null} when the candidate is not among
 * the nearest by meaning; both rounded to four decimals). Stateless and thread-safe.
 */
public final class VerbJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private VerbJson() {}

    /** One candidate. */
    public static ObjectNode candidate(VerbCandidate c) {
        ObjectNode n = F.objectNode();
        n.put("name", c.name());
        n.put("kind", c.isVerb() ? "verb" : "tool");
        if (c.isVerb()) {
            n.put("verb", c.name().substring(VerbManifest.SOURCE.length() + 2));
        }
        n.put("description", c.description());
        if (Double.isNaN(c.confidence())) {
            n.putNull("confidence");
        } else {
            n.put("confidence", round(c.confidence()));
        }
        n.put("score", round(c.score()));
        return n;
    }

    /**
     * Discovery's answer: {@code {description, model, threshold, count, candidates}}; {@code threshold} is what a
     * substitution would need ({@code null} when the model has none).
     */
    public static ObjectNode discovery(
            String description, String modelId, OptionalDouble threshold, List<VerbCandidate> candidates) {
        ObjectNode n = F.objectNode();
        n.put("description", description);
        n.put("model", modelId);
        if (threshold.isPresent()) {
            n.put("threshold", threshold.getAsDouble());
        } else {
            n.putNull("threshold");
        }
        n.put("count", candidates.size());
        ArrayNode a = n.putArray("candidates");
        candidates.forEach(c -> a.add(candidate(c)));
        return n;
    }

    /**
     * A resolution: {@code {result: "substitution", target, confidence, threshold, model, alternatives}} or {@code
     * {result: "no_match", reason, threshold, model, nearest}} ({@code threshold} {@code null} for a model without
     * one).
     */
    public static ObjectNode resolution(Resolution r) {
        ObjectNode n = F.objectNode();
        switch (r) {
            case Resolution.Substitution s -> {
                n.put("result", "substitution");
                n.set("target", candidate(s.target()));
                n.put("confidence", round(s.confidence()));
                n.put("threshold", s.threshold());
                n.put("model", s.modelId());
                ArrayNode a = n.putArray("alternatives");
                s.alternatives().forEach(c -> a.add(candidate(c)));
            }
            case Resolution.NoMatch m -> {
                n.put("result", "no_match");
                n.put("reason", m.reason());
                if (Double.isNaN(m.threshold())) {
                    n.putNull("threshold");
                } else {
                    n.put("threshold", m.threshold());
                }
                n.put("model", m.modelId());
                ArrayNode a = n.putArray("nearest");
                m.nearest().forEach(c -> a.add(candidate(c)));
            }
        }
        return n;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
