package dev.toolscout.store;

import dev.toolscout.runs.RunStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The agent runs' SQL ({@link RunStore}). No change-log entry: no replica caches them; each reads the store.
 * Thread-safe as the store it belongs to.
 */
interface RunSql extends RunStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    private static String runColumns() {
        return "id, principal, conversation_id, status, approval_id, state_json, created_at_millis, updated_at_millis";
    }

    @Override
    default void saveRun(StoredRun r) {
        Objects.requireNonNull(r, "run");
        db().write(
                        "save agent run '" + r.id() + "'",
                        h -> h.createUpdate(
                                        "INSERT INTO agent_runs (" + runColumns() + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                                                + "ON CONFLICT (id) DO UPDATE SET status = excluded.status, approval_id = excluded.approval_id, "
                                                + "state_json = excluded.state_json, updated_at_millis = excluded.updated_at_millis")
                                .bind(0, r.id())
                                .bind(1, r.principal())
                                .bind(2, r.conversationId())
                                .bind(3, r.status())
                                .bind(4, r.approvalId())
                                .bind(5, r.stateJson())
                                .bind(6, r.createdAt().toEpochMilli())
                                .bind(7, r.updatedAt().toEpochMilli())
                                .execute());
    }

    @Override
    default Optional<StoredRun> loadRun(String id) {
        Objects.requireNonNull(id, "id");
        return db().query(
                        "load agent run '" + id + "'",
                        h -> h.createQuery("SELECT " + runColumns() + " FROM agent_runs WHERE id = ?")
                                .bind(0, id)
                                .map(runRow())
                                .findOne());
    }

    @Override
    default List<StoredRun> loadRunsByStatus(String status) {
        Objects.requireNonNull(status, "status");
        return sortedRuns(db().query(
                        "load the agent runs that are " + status,
                        h -> h.createQuery("SELECT " + runColumns() + " FROM agent_runs WHERE status = ?")
                                .bind(0, status)
                                .map(runRow())
                                .list()));
    }

    @Override
    default List<StoredRun> loadRuns(String principal, String conversationId) {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(conversationId, "conversationId");
        return sortedRuns(db().query(
                        "load the agent runs of conversation '" + conversationId + "'",
                        h -> h.createQuery("SELECT " + runColumns()
                                        + " FROM agent_runs WHERE principal = ? AND conversation_id = ?")
                                .bind(0, principal)
                                .bind(1, conversationId)
                                .map(runRow())
                                .list()));
    }

    private static List<StoredRun> sortedRuns(List<StoredRun> runs) {
        List<StoredRun> out = new ArrayList<>(runs);
        out.sort(Comparator.comparing(StoredRun::createdAt).thenComparing(StoredRun::id));
        return List.copyOf(out);
    }

    @Override
    default boolean deleteRun(String id) {
        Objects.requireNonNull(id, "id");
        return db().write(
                        "delete agent run '" + id + "'",
                        h -> SqlDialect.update(h, "DELETE FROM agent_runs WHERE id = ?", id) > 0);
    }

    private static RowMapper<StoredRun> runRow() {
        return (rs, ctx) -> new StoredRun(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                Instant.ofEpochMilli(rs.getLong(7)),
                Instant.ofEpochMilli(rs.getLong(8)));
    }
}
