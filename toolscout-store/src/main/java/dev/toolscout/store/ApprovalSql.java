package dev.toolscout.store;

import dev.toolscout.approval.ApprovalStore;
import dev.toolscout.store.PostgresStateStore.Area;
import dev.toolscout.store.SqlDialect.ApprovalRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Update;

/** The approval requests' SQL ({@link ApprovalStore}). Thread-safe as the store it belongs to. */
interface ApprovalSql extends ApprovalStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    private static String approvalColumns() {
        return "id, requester, tool, arguments_json, arguments_hash, created_at_millis, status, decided_by, "
                + "decided_at_millis, channel, scope";
    }

    @Override
    default void saveApproval(StoredApproval a) {
        Objects.requireNonNull(a, "approval");
        boolean inserted = db().write(
                        "save approval request '" + a.id() + "'",
                        h -> db().changedIf(
                                                h,
                                                h.createUpdate("INSERT INTO approvals (" + approvalColumns()
                                                                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                                                                + "ON CONFLICT (id) DO NOTHING")
                                                        .bind(0, a.id())
                                                        .bind(1, a.requester())
                                                        .bind(2, a.tool())
                                                        .bind(3, a.argumentsJson())
                                                        .bind(4, a.argumentsHash())
                                                        .bind(5, a.createdAt().toEpochMilli())
                                                        .bind(6, a.status().name())
                                                        .bind(7, a.decidedBy())
                                                        .bind(8, SqlDialect.millis(a.decidedAt()))
                                                        .bind(9, a.channel())
                                                        .bind(10, a.scope())
                                                        .execute(),
                                                Area.APPROVALS)
                                > 0);
        if (!inserted) {
            throw new IllegalArgumentException("an approval request with id '" + a.id() + "' is already stored");
        }
    }

    @Override
    default Optional<StoredApproval> loadApproval(String id) {
        Objects.requireNonNull(id, "id");
        return approvals(db().query(
                                "load approval request '" + id + "'",
                                h -> h.createQuery("SELECT " + approvalColumns() + " FROM approvals WHERE id = ?")
                                        .bind(0, id)
                                        .map(approvalRow())
                                        .list()))
                .stream()
                .findFirst();
    }

    @Override
    default List<StoredApproval> loadApprovals() {
        List<StoredApproval> all = approvals(db().query(
                        "load the approval requests",
                        h -> h.createQuery("SELECT " + approvalColumns()
                                        + " FROM approvals ORDER BY created_at_millis, id")
                                .map(approvalRow())
                                .list()));
        // id order as Java compares strings, whatever collation the database sorted by
        all.sort(Comparator.comparing(StoredApproval::createdAt).thenComparing(StoredApproval::id));
        return List.copyOf(all);
    }

    @Override
    default boolean transitionApproval(
            String id, ApprovalStatus from, ApprovalStatus to, String decidedBy, Instant decidedAt) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        boolean keep = decidedBy == null && decidedAt == null;
        return db().write("move approval request '" + id + "' from " + from.id() + " to " + to.id(), h -> {
            // the WHERE on the old status is the compare-and-set: of two racing moves, the second finds the row moved
            // once the first commits and updates nothing
            Update u = keep
                    ? h.createUpdate("UPDATE approvals SET status = ? WHERE id = ? AND status = ?")
                            .bind(0, to.name())
                            .bind(1, id)
                            .bind(2, from.name())
                    : h.createUpdate(
                                    "UPDATE approvals SET status = ?, decided_by = ?, decided_at_millis = ? WHERE id = ? "
                                            + "AND status = ?")
                            .bind(0, to.name())
                            .bind(1, decidedBy)
                            .bind(2, SqlDialect.millis(decidedAt))
                            .bind(3, id)
                            .bind(4, from.name());
            return db().changedIf(h, u.execute(), Area.APPROVALS) > 0;
        });
    }

    private List<StoredApproval> approvals(List<ApprovalRow> rows) {
        List<StoredApproval> out = new ArrayList<>(rows.size());
        for (ApprovalRow r : rows) {
            try {
                out.add(new StoredApproval(
                        r.id(),
                        r.requester(),
                        r.tool(),
                        r.argumentsJson(),
                        r.argumentsHash(),
                        Instant.ofEpochMilli(r.createdAt()),
                        ApprovalStatus.valueOf(r.status()),
                        r.decidedBy(),
                        r.decidedAt() == null ? null : Instant.ofEpochMilli(r.decidedAt()),
                        r.channel(),
                        r.scope()));
            } catch (IllegalArgumentException | NullPointerException e) {
                // only a row edited by hand (or a newer ToolScout's status) gets here
                throw db().invalidRow("approval request", r.id(), e);
            }
        }
        return out;
    }

    private static RowMapper<ApprovalRow> approvalRow() {
        return (rs, ctx) -> {
            long decided = rs.getLong(9);
            Long decidedAt = rs.wasNull() ? null : decided;
            return new ApprovalRow(
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getString(4),
                    rs.getString(5),
                    rs.getLong(6),
                    rs.getString(7),
                    rs.getString(8),
                    decidedAt,
                    rs.getString(10),
                    rs.getString(11));
        };
    }
}
