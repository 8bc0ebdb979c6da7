package dev.toolscout.store;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.store.PostgresStateStore.Area;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.TemplateEngine;

/**
 * What differs between the databases under the one SQL of the per-concept parts ({@code CatalogSql},
 * {@code SkillSql}, ...): how a transaction is run, how a list of keys is bound, row locks, the collation of a key
 * range, the pruning of token counts, and the hooks one database needs (PostgreSQL's change log and tombstones,
 * SQLite's log checkpoint). The binary column type differs only in {@link Migrations}; the upsert ({@code ON
 * CONFLICT ... DO UPDATE SET ... = excluded....}) is the same in both. Also the few helpers every part shares.
 */
abstract class SqlDialect {
    static final String CATALOG_VERSION_KEY = "catalog_version";

    /** Two text columns. */
    static final RowMapper<String[]> PAIR = (rs, ctx) -> new String[] {rs.getString(1), rs.getString(2)};

    /**
     * JDBI over {@code connections}, with SQL taken as written: no template engine (a {@code <} in SQL is a
     * comparison, not an attribute), positional {@code ?} parameters.
     */
    static Jdbi jdbi(ConnectionFactory connections) {
        Jdbi jdbi = Jdbi.create(connections);
        jdbi.setTemplateEngine(TemplateEngine.NOP);
        return jdbi;
    }

    // --- the dialect: what differs between the databases ---

    /** The store named in messages: its file, or its address without a password. */
    abstract String where();

    /** Runs one statement's worth of reading (no snapshot needed across statements). */
    abstract <T> T query(String operation, Work<T> work);

    /** Runs {@code work} in one read transaction: its queries all see the same snapshot. */
    abstract <T> T snapshot(String operation, Work<T> work);

    /** Runs {@code work} in one write transaction, durable when this returns. */
    abstract <T> T write(String operation, Work<T> work);

    /** What follows a {@code SELECT} whose rows the transaction is about to update. */
    abstract String forUpdate();

    /** The {@code meta.key} column as compared in a key range (byte order). */
    abstract String metaKey();

    /** The wording of an invalid stored row: {@code "row of "} or nothing. */
    abstract String rowOf();

    /**
     * Runs {@code sql}, whose {@code ${IN}} stands for a match against {@code values}, with {@code first} bound before
     * them, giving each row to {@code sink}; in as many statements as the database's parameter limits need.
     */
    abstract <R> void whereIn(
            Handle h, String sql, String first, List<String> values, RowMapper<R> mapper, Consumer<R> sink)
            throws SQLException;

    /** How many keys {@link #whereIn} takes at once; above it, a lookup reads every row of its key instead. */
    abstract int inBatch();

    /** Deletes the token counts of content hashes no tool has, except {@code saved}. */
    abstract void pruneTokenCounts(Handle h, Collection<String> saved) throws SQLException;

    /** A write changed {@code area}, in the writer's transaction (a change log, for replicas). */
    void changed(Handle h, Area area) throws SQLException {}

    /** Tools were removed at catalog version {@code version}, in the writer's transaction. */
    void removedTools(Handle h, List<String> names, long version) throws SQLException {}

    /** A memory's old text was overwritten or deleted and is committed: clear what still holds it. */
    void forgotten(String what) {}

    // --- shared helpers ---

    int changedIf(Handle h, int rows, Area area) throws SQLException {
        if (rows > 0) {
            changed(h, area);
        }
        return rows;
    }

    static int update(Handle h, String sql, String key) {
        return h.createUpdate(sql).bind(0, key).execute();
    }

    static Long millis(Instant at) {
        return at == null ? null : at.toEpochMilli();
    }

    IllegalStateException invalidRow(String what, String key, RuntimeException e) {
        return new IllegalStateException(
                "state store " + where() + ": the stored " + what + " '" + key + "' is invalid: " + e.getMessage(), e);
    }

    static void requireModelId(String modelId) {
        if (modelId == null || modelId.isBlank()) {
            throw new IllegalArgumentException("modelId must not be blank, got: '" + modelId + "'");
        }
    }

    static PreparedBatch upsertMeta(Handle h) {
        return h.prepareBatch(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
    }

    String meta(Handle h, String key, boolean forUpdate) {
        return h.createQuery("SELECT value FROM meta WHERE key = ?" + (forUpdate ? forUpdate() : ""))
                .bind(0, key)
                .mapTo(String.class)
                .findOne()
                .orElse(null);
    }

    static void setMeta(Handle h, String key, String value) {
        h.createUpdate("UPDATE meta SET value = ? WHERE key = ?")
                .bind(0, value)
                .bind(1, key)
                .execute();
    }

    @FunctionalInterface
    interface Work<T> {
        T run(Handle h) throws SQLException;
    }

    /** An approval request's columns as read, checked when it becomes a {@code StoredApproval}. */
    record ApprovalRow(
            String id,
            String requester,
            String tool,
            String argumentsJson,
            String argumentsHash,
            long createdAt,
            String status,
            String decidedBy,
            Long decidedAt,
            String channel,
            String scope) {}

    /** A tool's row as read: its name, JSON and content hash. */
    record SpecRow(String name, String json, String contentHash) {}

    /** A parsed row: the spec, or the error that names the tool. */
    record Parsed(ToolSpec spec, String contentHash, IllegalStateException error) {}

    /** A vector to write, encoded. */
    record VectorRow(String hash, int dimension, byte[] bytes) {}
}
