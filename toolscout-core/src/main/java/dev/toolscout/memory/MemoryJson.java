package dev.toolscout.memory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** A memory's JSON: what the store keeps (opaque there) and what the tools, the CLI and HTTP answer with. */
public final class MemoryJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private MemoryJson() {}

    /** The wire form: id, scope, type, content, conversation_id, created_at, updated_at (the owner is left out). */
    public static ObjectNode toJson(Memory m) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", m.id());
        n.put("scope", m.scope().id());
        n.put("type", m.type().id());
        n.put("content", m.content());
        if (m.conversationId() != null) {
            n.put("conversation_id", m.conversationId());
        }
        n.put("created_at", m.createdAt().toString());
        n.put("updated_at", m.updatedAt().toString());
        return n;
    }

    /** The stored form: the wire form with the owner and who stored it. */
    static String toStoredJson(Memory m) {
        ObjectNode n = toJson(m);
        n.put("owner", m.owner());
        if (m.createdBy() != null) {
            n.put("created_by", m.createdBy());
        }
        return n.toString();
    }

    /**
     * Reads the stored form.
     *
     * @throws IllegalStateException naming the memory when the JSON cannot be read
     */
    static Memory fromStoredJson(String id, String json) {
        try {
            JsonNode n = JSON.readTree(json);
            return new Memory(
                    n.path("id").asText(),
                    MemoryScope.of("scope", n.path("scope").asText()),
                    n.path("owner").asText(),
                    MemoryType.of("type", n.path("type").asText()),
                    n.path("content").asText(),
                    n.hasNonNull("created_by") ? n.get("created_by").asText() : null,
                    n.hasNonNull("conversation_id") ? n.get("conversation_id").asText() : null,
                    Instant.parse(n.path("created_at").asText()),
                    Instant.parse(n.path("updated_at").asText()));
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalStateException(
                    "the stored memory '" + id + "' cannot be read: " + e.getMessage()
                            + " (forget it with `toolscout memory forget " + id + "`)",
                    e);
        }
    }
}
