package dev.toolscout.store;

import dev.toolscout.learning.LearnedStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * What selection learned ({@link LearnedStore}): rows of {@code meta} under a key prefix. Thread-safe as the store it
 * belongs to.
 */
interface LearnedSql extends LearnedStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default void saveLearned(List<StoredLearned> pairs) {
        Objects.requireNonNull(pairs, "pairs");
        if (pairs.isEmpty()) {
            return;
        }
        db().write("save " + pairs.size() + " learned pairs", h -> {
            PreparedBatch batch = SqlDialect.upsertMeta(h);
            pairs.forEach(p -> batch.bind(0, LearnedRows.key(p))
                    .bind(1, LearnedRows.value(p))
                    .add());
            batch.execute();
            db().changed(h, Area.LEARNED);
            return null;
        });
    }

    @Override
    default List<StoredLearned> loadLearned() {
        List<String[]> rows = db().query(
                        "load the learned pairs",
                        h -> h.createQuery("SELECT key, value FROM meta WHERE " + db().metaKey() + " >= ? AND "
                                        + db().metaKey() + " < ?")
                                .bind(0, LearnedRows.PREFIX)
                                .bind(1, LearnedRows.END)
                                .map(SqlDialect.PAIR)
                                .list());
        List<StoredLearned> out = new ArrayList<>(rows.size());
        rows.forEach(r -> out.add(LearnedRows.read(r[0], r[1])));
        // by tool then message hash as Java compares strings, whatever collation the database sorted by
        out.sort(Comparator.comparing(StoredLearned::tool).thenComparing(StoredLearned::messageHash));
        return List.copyOf(out);
    }

    @Override
    default int deleteLearned(Collection<String> tools) {
        String what =
                tools == null ? "delete every learned pair" : "delete the learned pairs of " + tools.size() + " tools";
        return db().write(what, h -> {
            String sql = "DELETE FROM meta WHERE " + db().metaKey() + " >= ? AND " + db().metaKey() + " < ?";
            int n = 0;
            if (tools == null) {
                n = h.createUpdate(sql)
                        .bind(0, LearnedRows.PREFIX)
                        .bind(1, LearnedRows.END)
                        .execute();
            } else {
                for (String t : tools) {
                    n += h.createUpdate(sql)
                            .bind(0, LearnedRows.from(t))
                            .bind(1, LearnedRows.to(t))
                            .execute();
                }
            }
            return db().changedIf(h, n, Area.LEARNED);
        });
    }
}
