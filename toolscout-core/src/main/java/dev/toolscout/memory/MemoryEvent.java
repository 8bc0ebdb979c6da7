package dev.toolscout.memory;

/**
 * A change to the memories, published after it is durable in the store (seed 003's event names): what the
 * memory index, and any other indexer, follows. {@link Stored} and {@link Corrected} carry the vector stored with
 * the memory, so an indexer need not embed the text again.
 */
public sealed interface MemoryEvent {
    /** The memory's id. */
    String id();

    /** The event's name: {@code memory.stored}, {@code memory.corrected} or {@code memory.deleted}. */
    String type();

    /** A new memory. */
    record Stored(Memory memory, String modelId, float[] vector) implements MemoryEvent {
        @Override
        public String id() {
            return memory.id();
        }

        @Override
        public String type() {
            return "memory.stored";
        }
    }

    /** A memory's content or type changed (its id stays). */
    record Corrected(Memory before, Memory after, String modelId, float[] vector) implements MemoryEvent {
        @Override
        public String id() {
            return after.id();
        }

        @Override
        public String type() {
            return "memory.corrected";
        }
    }

    /** A memory was forgotten: its text and vector are gone from the store; indexers drop it. */
    record Deleted(Memory memory) implements MemoryEvent {
        @Override
        public String id() {
            return memory.id();
        }

        @Override
        public String type() {
            return "memory.deleted";
        }
    }
}
