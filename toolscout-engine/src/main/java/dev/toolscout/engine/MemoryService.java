package dev.toolscout.engine;

import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryIndex;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryType;
import dev.toolscout.model.Principal;
import java.util.List;
import java.util.Optional;

/**
 * Long-term memory through the Java API (docs/MEMORY.md): what the built-in tools {@code memory__store}, {@code
 * memory__search}, {@code memory__recall} and {@code memory__forget} do, for an application's own code. Every
 * method applies the scopes first: a principal reads its own user scope, its group's and its space's (and the
 * spaces above it); it writes only its own. A memory it may not read and a missing one are answered alike.
 *
 * <p>Thread-safe. Errors: bad input is an {@link IllegalArgumentException} naming the input, the rule and the value
 * (nothing is changed); writes on a read-only instance throw {@link IllegalStateException}.
 */
public interface MemoryService {
    /**
     * Stores a memory in {@code principal}'s own {@code scope}, durable on return ({@code memory.stored}).
     *
     * @param principal {@code null} for the anonymous one
     * @param conversationId the conversation it belongs to, or {@code null}
     * @throws IllegalArgumentException for blank content, content over {@value dev.toolscout.memory.Memories#MAX_CONTENT_CHARS}
     *     characters, a group or space scope the principal has none of, or a full scope
     */
    Memory store(Principal principal, MemoryScope scope, MemoryType type, String content, String conversationId);

    /**
     * Corrects a memory the principal may read ({@code memory.corrected}): new content, and a new type unless null.
     *
     * @return the corrected memory, or empty when it may not read it or there is none (alike)
     */
    Optional<Memory> correct(Principal principal, String id, String content, MemoryType type);

    /** The memory {@code id}, if {@code principal} may read it. */
    Optional<Memory> get(Principal principal, String id);

    /**
     * The memories {@code principal} may read nearest in meaning to {@code query}, best first, each with its cosine.
     *
     * @param type only this type, or {@code null}
     * @param limit 1-{@value dev.toolscout.memory.MemoryTools#MAX_LIMIT}
     */
    List<MemoryIndex.Hit> search(Principal principal, String query, MemoryType type, int limit);

    /**
     * The memories {@code principal} may read, most recently changed first.
     *
     * @param type only this type, or {@code null}
     * @param limit 1-{@value dev.toolscout.memory.MemoryTools#MAX_LIMIT}
     */
    List<Memory> recent(Principal principal, MemoryType type, int limit);

    /**
     * Forgets a memory for good ({@code memory.deleted}): its text and vector leave the store and the index.
     *
     * @return true when it was forgotten; false when {@code principal} may not read it or there is none (alike)
     */
    boolean forget(Principal principal, String id);
}
