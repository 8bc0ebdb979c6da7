package dev.toolscout.conversation;

import dev.toolscout.model.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What ToolScout remembers of one conversation: the skills activated in it, whose tools every later selection
 * carries, and the tools discovery disclosed to it (an MCP gateway session lists them). It belongs to one
 * principal: another principal using the same id has a conversation of its own. Immutable.
 *
 * @param id the id its caller gave it
 * @param principal whom it belongs to
 * @param activeSkills skill names, in activation order
 * @param disclosedTools tool names, oldest first
 * @param createdAt when it started
 * @param lastUsedAt when it was last used (to the minute: see {@link Conversations}); it expires an idle time
 *     after this
 */
public record Conversation(
        String id,
        Principal principal,
        List<String> activeSkills,
        List<String> disclosedTools,
        Instant createdAt,
        Instant lastUsedAt) {
    public Conversation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(principal, "principal");
        activeSkills = List.copyOf(activeSkills);
        disclosedTools = List.copyOf(disclosedTools);
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(lastUsedAt, "lastUsedAt");
    }
}
