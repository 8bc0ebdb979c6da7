package dev.toolscout.memory;

import java.util.List;

/**
 * The stored memories (docs/MEMORY.md), each with the vector of its text. Thread-safe.
 */
public interface MemoryStore {
    /** Every stored memory, in id order; empty when none. */
    List<StoredMemory> loadMemories();

    /** Stores {@code memory}, replacing any with the same id (upsert), durable on return. */
    void saveMemory(StoredMemory memory);

    /**
     * Removes memory {@code id} for good, durable on return: its text and vector must not stay readable in the
     * store's files (SQLite overwrites deleted content and checkpoints its log; see docs/MEMORY.md).
     *
     * @return true when a memory was removed, false when none had that id
     */
    boolean deleteMemory(String id);

    /**
     * One memory as stored.
     *
     * @param id the memory's unique id (the key)
     * @param scope its scope ({@code user}, {@code group}, {@code space}), kept in a column of its own
     * @param owner the scope's user, group or space (the empty string for principals with no user)
     * @param json the memory, opaque to the store: the memory package owns its format ({@code memory.MemoryJson})
     * @param modelId the model that embedded {@code vector}, or {@code null} when it has none
     * @param vector the vector of its text, or {@code null}
     */
    record StoredMemory(String id, String scope, String owner, String json, String modelId, float[] vector) {
        public StoredMemory {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("stored memory id must not be blank, got: '" + id + "'");
            }
            if (scope == null || owner == null || json == null) {
                throw new IllegalArgumentException(
                        "stored memory '" + id + "': scope, owner and json are required, got: " + scope + ", " + owner
                                + ", " + (json == null ? null : "(json)"));
            }
            if ((modelId == null) != (vector == null)) {
                throw new IllegalArgumentException(
                        "stored memory '" + id + "': a vector needs its model id and a model id " + "its vector, got: "
                                + modelId + ", " + (vector == null ? null : vector.length + " floats"));
            }
        }

        /** Leaves the text out: a memory is private. */
        @Override
        public String toString() {
            return "StoredMemory[id=" + id + ", scope=" + scope + ", json=(" + json.length() + " chars)]";
        }
    }
}
