package dev.toolscout.routing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/** A {@link RouteDecision}'s JSON: one shape for {@code toolscout route}, {@code POST /v1/route} and {@code select}. */
public final class RouteJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RouteJson() {}

    /**
     * {@code route}, {@code target} (absent when none), {@code reason}, {@code discovery_suggested}, {@code
     * send_whole}, {@code words_match}, {@code score} (always {@code cosine}: what the numbers are), {@code model}, {@code thresholds}
     * (null for a disabled route) and {@code evidence} ({@code kind}, {@code name}, {@code cosine}, {@code
     * required_parameters} for a tool, {@code text}, and for an {@code index} entry the {@code tool} that searches
     * its index).
     */
    public static ObjectNode toJson(RouteDecision d) {
        ObjectNode n = F.objectNode();
        n.put("route", d.route().name());
        if (d.target() != null) {
            n.put("target", d.target());
        }
        n.put("reason", d.reason());
        n.put("discovery_suggested", d.discoverySuggested());
        n.put("send_whole", d.sendWhole());
        n.put("words_match", d.wordsMatch());
        n.put("score", "cosine");
        n.put("model", d.thresholds().modelId());
        ObjectNode t = n.putObject("thresholds");
        threshold(t, "direct_memory", d.thresholds().directMemory());
        threshold(t, "skill_execute", d.thresholds().skillExecute());
        threshold(t, "skill_hint", d.thresholds().skillHint());
        threshold(t, "tool_filter", d.thresholds().toolFilter());
        ArrayNode ev = n.putArray("evidence");
        for (RouteDecision.Evidence e : d.evidence()) {
            ObjectNode o = ev.addObject();
            o.put("kind", e.kind().name().toLowerCase(Locale.ROOT));
            o.put("name", e.name());
            o.put("cosine", e.cosine());
            if (e.kind() == RouteDecision.Kind.TOOL) {
                o.put("required_parameters", e.requiredParameters());
            }
            o.put("text", e.text());
            if (e.via() != null) {
                o.put("tool", e.via());
            }
        }
        return n;
    }

    private static void threshold(ObjectNode n, String field, double v) {
        if (Double.isNaN(v)) {
            n.putNull(field);
        } else {
            n.put(field, v);
        }
    }
}
