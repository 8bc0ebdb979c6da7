package dev.toolscout.discovery;

import com.fasterxml.jackson.databind.JsonNode;

/** What a discovery meta-tool returns: a JSON output, or an error the model can act on. */
public sealed interface DiscoveryResult {
    record Ok(JsonNode output) implements DiscoveryResult {}

    /** A tool-level error, e.g. {@code Tool not found: x}; the same text for a missing and a denied tool. */
    record Error(String message) implements DiscoveryResult {}
}
