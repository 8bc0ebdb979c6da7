package dev.toolscout.store;

import dev.toolscout.render.TokenCountStore;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The definition token counts' SQL ({@link TokenCountStore}), by content hash and counter. Thread-safe as the store
 * it belongs to.
 */
interface TokenCountSql extends TokenCountStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes) {
        TokenCountRows.requireCounter(counter);
        List<String> hashes = TokenCountRows.distinctHashes(contentHashes);
        if (hashes.isEmpty()) {
            return new HashMap<>();
        }
        return db().snapshot("load token counts of counter '" + counter + "'", h -> {
            Map<String, Integer> out = HashMap.newHashMap(hashes.size());
            RowMapper<Map.Entry<String, Integer>> row = (rs, ctx) -> Map.entry(rs.getString(1), rs.getInt(2));
            if (hashes.size() > db().inBatch()) {
                // many (a whole catalog at open): one pass over the counter's rows, which saving keeps to about one a
                // tool, beats a statement per chunk
                Set<String> wanted = new HashSet<>(hashes);
                h.createQuery("SELECT content_hash, tokens FROM definition_tokens WHERE counter = ?")
                        .bind(0, counter)
                        .map(row)
                        .forEach(e -> {
                            if (wanted.contains(e.getKey())) {
                                out.put(e.getKey(), e.getValue());
                            }
                        });
                return out;
            }
            db().whereIn(
                            h,
                            "SELECT content_hash, tokens FROM definition_tokens WHERE counter = ? AND content_hash ${IN}",
                            counter,
                            hashes,
                            row,
                            e -> out.put(e.getKey(), e.getValue()));
            return out;
        });
    }

    @Override
    default void saveTokenCounts(String counter, Map<String, Integer> byContentHash) {
        TokenCountRows.requireCounter(counter);
        Map<String, Integer> rows = TokenCountRows.checked(byContentHash);
        if (rows.isEmpty()) {
            return;
        }
        db().write("save token counts of counter '" + counter + "'", h -> {
            PreparedBatch batch = h.prepareBatch("INSERT INTO definition_tokens (content_hash, counter, tokens) "
                    + "VALUES (?, ?, ?) ON CONFLICT (content_hash, counter) DO UPDATE SET tokens = excluded.tokens");
            rows.forEach((hash, n) ->
                    batch.bind(0, hash).bind(1, counter).bind(2, n.intValue()).add());
            batch.execute();
            // the rows just saved are kept even when no tool has their hash (the engine's own tools)
            db().pruneTokenCounts(h, rows.keySet());
            return null;
        });
    }
}
