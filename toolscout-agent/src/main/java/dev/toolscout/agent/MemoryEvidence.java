package dev.toolscout.agent;

import dev.toolscout.memory.MemoryIntent;
import dev.toolscout.routing.Route;
import dev.toolscout.routing.RouteDecision;

/** What the agent loop tells the model about the memories the router found near a message. Stateless. */
final class MemoryEvidence {
    private MemoryEvidence() {}

    /**
     * How far under the direct-memory threshold a memory may be and still be shown to the model as evidence: the model
     * judges it, so this errs on the side of showing (for MiniLM, 0.49: about where the direct answer was set before
     * the subject check, on the hand-written set alone).
     */
    static final double MARGIN = 0.30;

    /** The rendered selection's system prompt, then {@link #prompt}. */
    static String system(com.fasterxml.jackson.databind.JsonNode rendered, String message, RouteDecision route) {
        return rendered.path("system").asText() + prompt(message, route);
    }

    /**
     * The memories the router found near the message but did not answer with (the message is a request, or the
     * memory is about another subject, or not near enough): offered to the model as evidence to check, with their ids
     * (a request to forget or correct one needs it), never as the answer; for a message with a memory intent the
     * three nearest, else those within {@link #MARGIN} under the direct-memory threshold. Empty when there are
     * none. The router's evidence holds only memories the principal may read.
     */
    static String prompt(String message, RouteDecision route) {
        if (route == null || route.route() == Route.DIRECT_MEMORY) {
            return "";
        }
        // a request to store, correct, forget or recall is about the memories nearest it, however near: all are shown
        double floor = MemoryIntent.of(message).tool() != null
                ? Double.NEGATIVE_INFINITY
                : route.thresholds().directMemory();
        StringBuilder b = new StringBuilder();
        for (RouteDecision.Evidence e : route.evidence()) {
            if (e.kind() == RouteDecision.Kind.MEMORY && (Double.isNaN(floor) || e.cosine() >= floor - MARGIN)) {
                b.append("\n- ").append(e.name()).append(": ").append(e.text());
            }
        }
        return b.isEmpty()
                ? ""
                : "\n\nStored memories near this message (check whether one is about what the user asks before using"
                        + " it; to forget or correct one, use its id with memory__forget or memory__store):" + b;
    }
}
