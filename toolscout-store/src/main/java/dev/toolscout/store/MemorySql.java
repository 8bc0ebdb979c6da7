package dev.toolscout.store;

import dev.toolscout.memory.MemoryStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The memories' SQL ({@link MemoryStore}), each with the vector of its text. Thread-safe as the store it belongs to.
 */
interface MemorySql extends MemoryStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default List<StoredMemory> loadMemories() {
        record Row(String id, String scope, String owner, String json, String model, byte[] bytes) {}
        List<Row> rows = db().query(
                        "load the memories",
                        h -> h.createQuery(
                                        "SELECT id, scope, owner, memory_json, model_id, vector FROM memories ORDER BY id")
                                .map((rs, ctx) -> new Row(
                                        rs.getString(1),
                                        rs.getString(2),
                                        rs.getString(3),
                                        rs.getString(4),
                                        rs.getString(5),
                                        rs.getBytes(6)))
                                .list());
        List<StoredMemory> memories = new ArrayList<>(rows.size());
        for (Row r : rows) {
            try {
                memories.add(new StoredMemory(
                        r.id(),
                        r.scope(),
                        r.owner(),
                        r.json(),
                        r.model(),
                        r.model() == null || r.bytes() == null
                                ? null
                                : VectorCodec.decode(r.bytes(), r.bytes().length / Float.BYTES)));
            } catch (IllegalArgumentException e) {
                throw db().invalidRow(db().rowOf() + "memory", r.id(), e);
            }
        }
        memories.sort(Comparator.comparing(StoredMemory::id));
        return List.copyOf(memories);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Saving a memory again (a correction) leaves no readable copy of the old text where the database can help
     * it ({@code forgotten}).
     */
    @Override
    default void saveMemory(StoredMemory m) {
        Objects.requireNonNull(m, "memory");
        boolean replaced = db().write("save memory '" + m.id() + "'", h -> {
            boolean existed = h.createQuery("SELECT 1 FROM memories WHERE id = ?")
                    .bind(0, m.id())
                    .mapTo(Integer.class)
                    .findOne()
                    .isPresent();
            h.createUpdate(
                            "INSERT INTO memories (id, scope, owner, memory_json, model_id, vector) VALUES (?, ?, ?, ?, ?, ?)"
                                    + " ON CONFLICT (id) DO UPDATE SET scope = excluded.scope, owner = excluded.owner, "
                                    + "memory_json = excluded.memory_json, model_id = excluded.model_id, vector = excluded.vector")
                    .bind(0, m.id())
                    .bind(1, m.scope())
                    .bind(2, m.owner())
                    .bind(3, m.json())
                    .bind(4, m.modelId())
                    .bind(5, m.vector() == null ? null : VectorCodec.encode(m.vector()))
                    .execute();
            db().changed(h, Area.MEMORIES);
            return existed;
        });
        if (replaced) {
            db().forgotten("correcting memory '" + m.id() + "'");
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>The row is gone for every reader at once; what the database keeps of its bytes is cleared by
     * {@code forgotten} where it can be (SQLite overwrites deleted content and checkpoints its log; PostgreSQL keeps them
     * in the table's pages until a vacuum lets them be overwritten).
     */
    @Override
    default boolean deleteMemory(String id) {
        Objects.requireNonNull(id, "id");
        boolean deleted = db().write(
                        "delete memory '" + id + "'",
                        h -> db().changedIf(
                                                h,
                                                SqlDialect.update(h, "DELETE FROM memories WHERE id = ?", id),
                                                Area.MEMORIES)
                                > 0);
        if (deleted) {
            db().forgotten("deleting memory '" + id + "'");
        }
        return deleted;
    }
}
