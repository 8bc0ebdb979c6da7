package dev.toolscout.store;

import dev.toolscout.runs.UsageStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The usage records' SQL ({@link UsageStore}). No change-log entry: no replica caches them. Thread-safe as the store
 * it belongs to.
 */
interface UsageSql extends UsageStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default void saveUsage(StoredUsage u) {
        Objects.requireNonNull(u, "usage");
        db().write(
                        "save usage record '" + u.id() + "'",
                        h -> h.createUpdate(
                                        "INSERT INTO usage_records (id, at_millis, principal, conversation_id, record_json) VALUES (?, ?, ?, ?, ?) "
                                                + "ON CONFLICT (id) DO UPDATE SET at_millis = excluded.at_millis, record_json = excluded.record_json")
                                .bind(0, u.id())
                                .bind(1, u.at().toEpochMilli())
                                .bind(2, u.principal())
                                .bind(3, u.conversationId())
                                .bind(4, u.json())
                                .execute());
    }

    @Override
    default List<StoredUsage> loadUsage(Instant since, int limit) {
        Objects.requireNonNull(since, "since");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got: " + limit);
        }
        List<StoredUsage> out = new ArrayList<>(db().query(
                        "load the usage records since " + since,
                        h -> h.createQuery(
                                        "SELECT id, at_millis, principal, conversation_id, record_json FROM usage_records WHERE at_millis >= ? "
                                                + "ORDER BY at_millis, id LIMIT ?")
                                .bind(0, since.toEpochMilli())
                                .bind(1, limit)
                                .map((rs, ctx) -> new StoredUsage(
                                        rs.getString(1),
                                        Instant.ofEpochMilli(rs.getLong(2)),
                                        rs.getString(3),
                                        rs.getString(4),
                                        rs.getString(5)))
                                .list()));
        out.sort(Comparator.comparing(StoredUsage::at).thenComparing(StoredUsage::id));
        return List.copyOf(out);
    }
}
