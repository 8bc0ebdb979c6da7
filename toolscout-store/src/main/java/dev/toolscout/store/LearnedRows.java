package dev.toolscout.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.learning.LearnedStore.StoredLearned;
import java.time.Instant;

/**
 * Learned (message, tool) pairs as rows of the {@code meta} key-value table, as both stores keep them: key {@code
 * learned:<tool>:<message hash>}, the rest as a JSON value. A tool name never holds {@code :} (wire names are
 * {@code [a-zA-Z0-9_-]}), so a tool's pairs are the keys from {@code learned:<tool>:} up to {@code learned:<tool>;}
 * ({@code ;} follows {@code :}), compared byte by byte (SQLite's default; PostgreSQL's {@code COLLATE "C"}). In
 * {@code meta}, as imported APIs' configurations are, rather than a table of their own: no schema migration.
 */
final class LearnedRows {
    static final String PREFIX = "learned:";

    /** The end of every learned key's range (exclusive). */
    static final String END = "learned;";

    private static final ObjectMapper JSON = new ObjectMapper();

    private LearnedRows() {}

    static String key(StoredLearned p) {
        return PREFIX + p.tool() + ":" + p.messageHash();
    }

    /** The first key of {@code tool}'s pairs (inclusive). */
    static String from(String tool) {
        return PREFIX + tool + ":";
    }

    /** The end of {@code tool}'s pairs (exclusive). */
    static String to(String tool) {
        return PREFIX + tool + ";";
    }

    static String value(StoredLearned p) {
        ObjectNode n = JSON.createObjectNode();
        n.put("message", p.message());
        n.put("tool_hash", p.toolHash());
        n.put("principal", p.principal());
        n.put("conversation", p.conversationId());
        n.put("at", p.at().toEpochMilli());
        try {
            return JSON.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a learned pair as JSON", e);
        }
    }

    /** The pair of one row. */
    static StoredLearned read(String key, String value) {
        String rest = key.substring(PREFIX.length());
        int colon = rest.lastIndexOf(':');
        try {
            JsonNode n = JSON.readTree(value);
            return new StoredLearned(
                    rest.substring(0, colon),
                    rest.substring(colon + 1),
                    n.path("message").asText(),
                    n.path("tool_hash").asText(),
                    text(n, "principal"),
                    text(n, "conversation"),
                    Instant.ofEpochMilli(n.path("at").asLong()));
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalStateException("the stored learned pair '" + key + "' is invalid: " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
