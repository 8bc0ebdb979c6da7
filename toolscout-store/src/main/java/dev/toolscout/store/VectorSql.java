package dev.toolscout.store;

import dev.toolscout.embedding.VectorStore;
import dev.toolscout.store.SqlDialect.VectorRow;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/** The vectors' SQL ({@link VectorStore}), keyed by text hash and model id. Thread-safe as the store it belongs to. */
interface VectorSql extends VectorStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default Map<String, float[]> loadVectors(String modelId, Collection<String> textHashes) {
        SqlDialect.requireModelId(modelId);
        Objects.requireNonNull(textHashes, "textHashes");
        List<String> hashes = new ArrayList<>(new LinkedHashSet<>(textHashes));
        if (hashes.contains(null)) {
            throw new NullPointerException("textHashes must not hold null");
        }
        if (hashes.isEmpty()) {
            return new HashMap<>();
        }
        return db().snapshot("load vectors of model '" + modelId + "'", h -> readVectors(db(), h, modelId, hashes));
    }

    /** The stored vectors of {@code modelId} for {@code hashes}, read in {@code h}'s transaction. */
    static Map<String, float[]> readVectors(SqlDialect db, Handle h, String modelId, List<String> hashes)
            throws SQLException {
        Map<String, float[]> out = HashMap.newHashMap(hashes.size());
        record Row(String hash, int dimension, byte[] bytes) {}
        db.whereIn(
                h,
                "SELECT text_hash, dimension, vector FROM vectors WHERE model_id = ? AND text_hash ${IN}",
                modelId,
                hashes,
                (rs, ctx) -> new Row(rs.getString(1), rs.getInt(2), rs.getBytes(3)),
                r -> {
                    try {
                        out.put(
                                r.hash(),
                                VectorCodec.decode(r.bytes() == null ? new byte[0] : r.bytes(), r.dimension()));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalStateException(
                                "state store " + db.where() + ": stored vector of model '" + modelId
                                        + "' for text hash '" + r.hash() + "' is corrupt: " + e.getMessage(),
                                e);
                    }
                });
        return out;
    }

    @Override
    default void saveVectors(String modelId, Map<String, float[]> byTextHash) {
        SqlDialect.requireModelId(modelId);
        Objects.requireNonNull(byTextHash, "byTextHash");
        List<VectorRow> rows = vectorRows(byTextHash);
        if (rows.isEmpty()) {
            return;
        }
        db().write("save vectors of model '" + modelId + "'", h -> {
            insertVectors(h, modelId, rows);
            return null;
        });
    }

    static List<VectorRow> vectorRows(Map<String, float[]> byTextHash) {
        List<VectorRow> rows = new ArrayList<>(byTextHash.size());
        for (Map.Entry<String, float[]> e : byTextHash.entrySet()) {
            String hash = Objects.requireNonNull(e.getKey(), "byTextHash must not hold null hashes");
            float[] v = e.getValue();
            if (v == null || v.length == 0) {
                throw new IllegalArgumentException("vector for text hash '" + hash
                        + "' must hold at least one value, got: " + (v == null ? "null" : "an empty vector"));
            }
            rows.add(new VectorRow(hash, v.length, VectorCodec.encode(v)));
        }
        // one lock order for every writer
        rows.sort(Comparator.comparing(VectorRow::hash));
        return rows;
    }

    static void insertVectors(Handle h, String modelId, List<VectorRow> rows) {
        PreparedBatch batch = h.prepareBatch("INSERT INTO vectors (text_hash, model_id, dimension, vector) "
                + "VALUES (?, ?, ?, ?) ON CONFLICT (text_hash, model_id) DO UPDATE SET dimension = excluded.dimension, "
                + "vector = excluded.vector");
        for (VectorRow r : rows) {
            batch.bind(0, r.hash())
                    .bind(1, modelId)
                    .bind(2, r.dimension())
                    .bind(3, r.bytes())
                    .add();
        }
        batch.execute();
    }
}
