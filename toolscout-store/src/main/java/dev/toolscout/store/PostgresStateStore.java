package dev.toolscout.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.model.Hashing;
import dev.toolscout.state.StateStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link StateStore} in PostgreSQL, shared by several ToolScout replicas. The SQL is {@link SqlStateStore}'s;
 * this class gives what is PostgreSQL's own: the pool and isolation levels, array parameters, row and advisory
 * locks, and the change log. The tables are those of {@link
 * Migrations} (the same scripts as SQLite's, rendered for PostgreSQL), plus what replicas need and one node does
 * not, created by this class's own numbered steps ({@code pg_schema_version}):
 *
 * <ul>
 *   <li>{@code changes}: the change log. Every write appends one row (its {@link Area}) and sends {@code NOTIFY
 *       toolscout_changes} in the same transaction, so a listener hears of a change only once it is committed,
 *       and a replica that missed a notification (a reconnect, a restart) reads what it missed from here ({@link
 *       #changesSince}). Writers take one advisory lock just before appending, so sequence numbers become
 *       visible in order and a reader never steps over one that commits later.
 *   <li>{@code tool_removals}: the catalog version at which each tool was removed, so {@link #catalogSince}
 *       names removals as well as upserts.
 * </ul>
 *
 * <p>Vectors are shared: {@link #vectors} embeds a text only when no replica has, holding an advisory lock per
 * text hash while it embeds, so replicas starting at once on new tools embed each text once between them.
 *
 * <p>Durability is PostgreSQL's (a change is committed when its method returns). Thread-safe: a HikariCP pool;
 * every write is one transaction. A store that cannot reach the server throws {@link StoreException} naming the
 * address (without the password) and the operation.
 */
public final class PostgresStateStore extends SqlStateStore {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresStateStore.class);

    /** The channel every write notifies, with the payload {@code <area>:<sequence number>}. */
    public static final String CHANNEL = "toolscout_changes";

    /** Connections in the pool of one store. */
    public static final int POOL_SIZE = 8;

    /** How long a call waits for a connection (the server down, the pool busy) before failing. */
    public static final long CONNECTION_TIMEOUT_MILLIS = 3_000;

    /** Change-log rows kept behind the newest; a replica further behind reloads everything. */
    static final long CHANGES_KEPT = 10_000;

    private static final String PRUNED_BELOW_KEY = "changes_pruned_below";
    /** Advisory lock keys (any 64-bit numbers that no other application on the database uses). */
    private static final long MIGRATION_LOCK = 0x546f6f6c53636f01L;

    private static final long CHANGE_LOCK = 0x546f6f6c53636f02L;

    /** What a change touched; a replica reloads that part. */
    public enum Area {
        CATALOG,
        POLICY,
        SERVERS,
        SKILLS,
        CONVERSATIONS,
        APPROVALS,
        MEMORIES,
        /** What selection learned from use ({@code toolscout learn}). */
        LEARNED;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The PostgreSQL-only steps, after the portable ones; append, never edit one that shipped. */
    private static final List<List<String>> PG_STEPS = List.of(List.of(
            "CREATE TABLE changes (seq BIGSERIAL PRIMARY KEY, area TEXT NOT NULL, at_millis BIGINT NOT NULL)",
            "CREATE TABLE tool_removals (name TEXT PRIMARY KEY, removed_version BIGINT NOT NULL)",
            "INSERT INTO meta (key, value) VALUES ('" + PRUNED_BELOW_KEY + "', '0')"));

    private final PostgresUrl url;
    private final HikariDataSource pool;
    private final Jdbi jdbi;
    private volatile boolean closed;

    private PostgresStateStore(PostgresUrl url, HikariDataSource pool) {
        this.url = url;
        this.pool = pool;
        this.jdbi = jdbi(pool::getConnection);
    }

    /**
     * Connects to the store at {@code address} ({@link PostgresUrl}), creating its schema when missing, and brings
     * the tables up to date. Several processes may open the same store at once: migrations are serialized by an
     * advisory lock.
     *
     * @throws IllegalArgumentException when the address is not one ({@link PostgresUrl#parse})
     * @throws IllegalStateException when the store was written by a newer ToolScout
     * @throws StoreException when the server cannot be reached or refuses the connection
     */
    public static PostgresStateStore open(String address) {
        return open(PostgresUrl.parse(address));
    }

    /** Same as {@link #open(String)}. */
    public static PostgresStateStore open(PostgresUrl url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url.jdbcUrl());
        if (url.user() != null) {
            config.setUsername(url.user());
        }
        if (url.password() != null) {
            config.setPassword(url.password());
        }
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        config.setValidationTimeout(1_000);
        config.setPoolName("toolscout-store");
        // fail at open when the server is unreachable, rather than on the first call
        config.setInitializationFailTimeout(CONNECTION_TIMEOUT_MILLIS);
        config.setAutoCommit(true);
        createSchema(url);
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw connectFailure(url, "connect", e);
        }
        PostgresStateStore store = new PostgresStateStore(url, ds);
        try {
            store.migrate();
            return store;
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
    }

    /** The schema comes first: the pool's connections name it as their current schema. */
    private static void createSchema(PostgresUrl url) {
        try (Connection c = connect(url);
                Statement st = c.createStatement()) {
            // the name is checked by PostgresUrl (a-z 0-9 _), so quoting it is safe
            st.execute("CREATE SCHEMA IF NOT EXISTS \"" + url.schema() + "\"");
        } catch (SQLException e) {
            if (!"42501"
                    .equals(e.getSQLState())) { // no right to create it: it may exist, which the migration finds out
                throw connectFailure(url, "connect and create schema " + url.schema(), e);
            }
        }
    }

    /**
     * A failed connection, its message naming the rule the address set when that is why: a server that does not offer
     * SSL refuses (SQLSTATE 08004) a client whose {@code sslmode} demands it.
     */
    private static StoreException connectFailure(PostgresUrl url, String operation, Exception e) {
        String sslmode = url.driverParameter("sslmode");
        boolean sslRequired = "require".equals(sslmode) || "verify-ca".equals(sslmode) || "verify-full".equals(sslmode);
        for (Throwable t = e; t != null && sslRequired; t = t.getCause()) {
            if (t instanceof SQLException sql && "08004".equals(sql.getSQLState())) {
                return new StoreException(
                        url.display(), operation + " with sslmode=" + sslmode + " (the server must offer SSL)", e);
            }
        }
        return new StoreException(url.display(), operation, e);
    }

    /** A connection outside the pool (the schema's creation, a listener). */
    static Connection connect(PostgresUrl url) throws SQLException {
        java.util.Properties p = new java.util.Properties();
        if (url.user() != null) {
            p.setProperty("user", url.user());
        }
        if (url.password() != null) {
            p.setProperty("password", url.password());
        }
        p.setProperty("connectTimeout", Long.toString(CONNECTION_TIMEOUT_MILLIS / 1000));
        p.setProperty("tcpKeepAlive", "true");
        return new org.postgresql.Driver().connect(url.jdbcUrl(), p);
    }

    /** The address, without a password. */
    public PostgresUrl url() {
        return url;
    }

    /** Whether the server answers now (a quick query on a pooled connection). */
    public boolean reachable() {
        try (Connection c = pool.getConnection();
                Statement st = c.createStatement()) {
            st.setQueryTimeout(2);
            st.execute("SELECT 1");
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /**
     * What changed in the catalog after {@code version}: the tools stored now that were upserted since (as they are
     * now) and the names removed since that are not stored now, with the version they bring the catalog to. Read in
     * one snapshot.
     */
    public Catalog.StoredChange catalogSince(long version) {
        record Rows(long version, List<Parsed> upserts, List<String> removals) {}
        Rows rows = snapshot("read the catalog changes since version " + version, h -> {
            long now = CatalogSql.catalogVersion(this, h, false);
            if (now <= version) {
                return new Rows(now, List.of(), List.of());
            }
            return new Rows(
                    now,
                    CatalogSql.toolsSince(this, h, version),
                    h.createQuery(
                                    "SELECT r.name FROM tool_removals r WHERE "
                                            + "r.removed_version > ? AND NOT EXISTS (SELECT 1 FROM tools t WHERE t.name = r.name)")
                            .bind(0, version)
                            .mapTo(String.class)
                            .list());
        });
        return new Catalog.StoredChange(
                rows.version(),
                rows.upserts().stream().map(Parsed::spec).toList(),
                rows.upserts().stream().map(Parsed::contentHash).toList(),
                rows.removals().stream().sorted().toList());
    }

    /** A tombstone per removed tool, so {@link #catalogSince} names removals as well as upserts. */
    @Override
    void removedTools(Handle h, List<String> names, long version) {
        var batch = h.prepareBatch("INSERT INTO tool_removals (name, removed_version) VALUES (?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET removed_version = excluded.removed_version");
        names.forEach(name -> batch.bind(0, name).bind(1, version).add());
        batch.execute();
    }

    /**
     * The vectors of {@code modelId} for these texts (by text hash): those stored, and for the rest what {@code embed}
     * returns (one vector per text, in order), stored before this returns. Across every process sharing the store a
     * text is embedded at most once: a process embeds only the hashes whose advisory lock it takes; for those
     * another holds, it waits until that one commits and reads its vectors (embedding them itself only when that one
     * failed before storing them).
     */
    @Override
    public Map<String, float[]> vectors(
            String modelId, Map<String, String> textByHash, Function<List<String>, List<float[]>> embed) {
        requireModelId(modelId);
        Map<String, float[]> out = new HashMap<>(loadVectors(modelId, textByHash.keySet()));
        List<String> missing = textByHash.keySet().stream()
                .filter(h -> !out.containsKey(h))
                .sorted()
                .toList();
        if (missing.isEmpty()) {
            return out;
        }
        // first the texts no one else is embedding, without waiting; then the rest, waiting for their locks
        List<String> busy = embedLocked(modelId, missing, textByHash, embed, false, out);
        if (!busy.isEmpty()) {
            embedLocked(modelId, busy, textByHash, embed, true, out);
        }
        return out;
    }

    /**
     * One transaction: locks, reads what was stored meanwhile, embeds and stores the rest; returns what it could not
     * lock.
     */
    private List<String> embedLocked(
            String modelId,
            List<String> hashes,
            Map<String, String> textByHash,
            Function<List<String>, List<float[]>> embed,
            boolean wait,
            Map<String, float[]> out) {
        return write("embed and store vectors of model '" + modelId + "'", h -> {
            List<String> mine = new ArrayList<>();
            List<String> busy = new ArrayList<>();
            for (String hash : hashes) {
                boolean got = h.createQuery(
                                wait
                                        ? "SELECT pg_advisory_xact_lock(?) IS NULL"
                                        : "SELECT pg_try_advisory_xact_lock(?)")
                        .bind(0, lockKey(modelId, hash))
                        .mapTo(Boolean.class)
                        .one();
                (wait || got ? mine : busy).add(hash);
            }
            if (mine.isEmpty()) {
                return busy;
            }
            out.putAll(VectorSql.readVectors(this, h, modelId, mine));
            List<String> todo = mine.stream().filter(x -> !out.containsKey(x)).toList();
            if (!todo.isEmpty()) {
                List<float[]> vs =
                        embed.apply(todo.stream().map(textByHash::get).toList());
                if (vs.size() != todo.size()) {
                    throw new IllegalStateException(
                            "the embedding model returned " + vs.size() + " vectors for " + todo.size() + " texts");
                }
                Map<String, float[]> fresh = new LinkedHashMap<>();
                for (int i = 0; i < todo.size(); i++) {
                    fresh.put(todo.get(i), vs.get(i));
                }
                VectorSql.insertVectors(h, modelId, VectorSql.vectorRows(fresh));
                out.putAll(fresh);
            }
            return busy;
        });
    }

    private static long lockKey(String modelId, String textHash) {
        return Long.parseUnsignedLong(
                Hashing.sha256Hex(modelId + "\n" + textHash).substring(0, 16), 16);
    }

    /**
     * Runs {@code work} holding the advisory lock of upstream server {@code name}, if no other process holds it:
     * of several replicas syncing the same server's {@code list_changed}, one writes the catalog change.
     *
     * @return true when {@code work} ran, false when another process held the lock (nothing ran)
     */
    public boolean whileHoldingServerLock(String name, Runnable work) {
        Objects.requireNonNull(name, "name");
        long key = lockKey("mcp-server", name);
        try (Connection c = pool.getConnection()) {
            boolean got;
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    got = rs.next() && rs.getBoolean(1);
                }
            }
            if (!got) {
                return false;
            }
            try {
                work.run();
                return true;
            } finally {
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    ps.setLong(1, key);
                    ps.execute();
                }
            }
        } catch (SQLException e) {
            throw new StoreException(url.display(), "take the lock of server '" + name + "'", e);
        }
    }

    // --- what is PostgreSQL's own ---

    @Override
    String where() {
        return url.display();
    }

    @Override
    <T> T query(String operation, Work<T> work) {
        return tx(operation, TransactionIsolationLevel.READ_COMMITTED, false, work);
    }

    /** REPEATABLE READ: every query of {@code work} sees one snapshot. */
    @Override
    <T> T snapshot(String operation, Work<T> work) {
        return tx(operation, TransactionIsolationLevel.REPEATABLE_READ, false, work);
    }

    @Override
    <T> T write(String operation, Work<T> work) {
        return tx(operation, TransactionIsolationLevel.READ_COMMITTED, true, work);
    }

    /** The row lock on the catalog version serializes catalog changes across replicas. */
    @Override
    String forUpdate() {
        return " FOR UPDATE";
    }

    /** Byte order whatever the database's collation, as SQLite compares. */
    @Override
    String metaKey() {
        return "key COLLATE \"C\"";
    }

    @Override
    String rowOf() {
        return "";
    }

    @Override
    int inBatch() {
        return 10_000;
    }

    /** One array parameter, whatever the count: no statement per chunk size. */
    @Override
    <R> void whereIn(Handle h, String sql, String first, List<String> values, RowMapper<R> mapper, Consumer<R> sink) {
        String any = sql.replace("${IN}", "= ANY (?)");
        for (int from = 0; from < values.size(); from += inBatch()) {
            List<String> chunk = values.subList(from, Math.min(values.size(), from + inBatch()));
            h.createQuery(any)
                    .setFetchSize(2_000)
                    .bind(0, first)
                    .bindArray(1, String.class, chunk.toArray())
                    .map(mapper)
                    .forEach(sink);
        }
    }

    @Override
    void pruneTokenCounts(Handle h, Collection<String> saved) {
        h.createUpdate(TokenCountRows.PRUNE.replace("${SAVED}", "SELECT unnest(CAST(? AS text[]))"))
                .bindArray(0, String.class, saved.toArray())
                .execute();
    }

    // --- the change log ---

    /**
     * The areas changed after change {@code after} (a sequence number; 0 for none seen), and the newest sequence
     * number. {@link Changes#gap()} is true when rows after {@code after} were pruned: reload everything.
     */
    public Changes changesSince(long after) {
        long readAt = System.currentTimeMillis();
        long t0 = System.nanoTime();
        record Row(long seq, String area, long atMillis) {}
        return snapshot("read the changes since " + after, h -> {
            long prunedBelow = Long.parseLong(meta(h, PRUNED_BELOW_KEY, false));
            Set<Area> areas = EnumSet.noneOf(Area.class);
            long last = after;
            long firstAt = 0;
            for (Row row : h.createQuery("SELECT seq, area, at_millis FROM changes WHERE seq > ? ORDER BY seq")
                    .bind(0, after)
                    .map((rs, ctx) -> new Row(rs.getLong(1), rs.getString(2), rs.getLong(3)))
                    .list()) {
                last = row.seq();
                firstAt = firstAt == 0 ? row.atMillis() : firstAt;
                try {
                    areas.add(Area.valueOf(row.area()));
                } catch (IllegalArgumentException newer) {
                    // an area a newer ToolScout writes: reload everything this one knows
                    areas.addAll(EnumSet.allOf(Area.class));
                }
            }
            if (last == after) {
                last = Math.max(after, newestChange(h));
            }
            return new Changes(Set.copyOf(areas), last, after < prunedBelow, firstAt, readAt, System.nanoTime() - t0);
        });
    }

    /** The newest change's sequence number (0 when none). */
    public long lastChange() {
        return query("read the newest change", PostgresStateStore::newestChange);
    }

    private static long newestChange(Handle h) {
        return h.createQuery("SELECT COALESCE(MAX(seq), 0) FROM changes")
                .mapTo(Long.class)
                .one();
    }

    /**
     * What changed after a sequence number, and when (for a replica's catch-up figures).
     *
     * @param areas the areas changed
     * @param last the newest sequence number seen (read the next changes after it)
     * @param gap true when changes after the number asked for were pruned: every area must be reloaded
     * @param firstWrittenAtMillis the wall-clock time (the writer's clock) the oldest of these changes was appended
     *     to the log, just before its commit; 0 when there were none
     * @param readAtMillis the wall-clock time (this process's clock) this read began
     * @param readNanos how long the read took
     */
    public record Changes(
            Set<Area> areas, long last, boolean gap, long firstWrittenAtMillis, long readAtMillis, long readNanos) {}

    /** Appends the change and notifies, in the caller's transaction (so both happen at its commit, or neither). */
    @Override
    void changed(Handle h, Area area) {
        // held to the commit: sequence numbers become visible in the order they were drawn
        h.createQuery("SELECT pg_advisory_xact_lock(?) IS NULL")
                .bind(0, CHANGE_LOCK)
                .mapTo(Boolean.class)
                .one();
        long seq = h.createQuery("INSERT INTO changes (area, at_millis) VALUES (?, ?) RETURNING seq")
                .bind(0, area.name())
                .bind(1, System.currentTimeMillis())
                .mapTo(Long.class)
                .one();
        h.createQuery("SELECT pg_notify(?, ?) IS NULL")
                .bind(0, CHANNEL)
                .bind(1, area.id() + ":" + seq)
                .mapTo(Boolean.class)
                .one();
        if (seq % 1_000 == 0 && seq > CHANGES_KEPT) {
            long below = seq - CHANGES_KEPT;
            h.createUpdate("DELETE FROM changes WHERE seq < ?").bind(0, below).execute();
            setMeta(h, PRUNED_BELOW_KEY, Long.toString(below));
        }
    }

    // --- lifecycle ---

    /** Closes the pool. Idempotent. */
    @Override
    public void close() {
        closed = true;
        pool.close();
    }

    @Override
    public String toString() {
        return "PostgresStateStore[" + url.display() + "]";
    }

    // --- internals ---

    private void migrate() {
        rawTx("create the schema version tables", c -> {
            lock(c, MIGRATION_LOCK);
            try (Statement st = c.createStatement()) {
                st.execute(Migrations.SCHEMA_VERSION_TABLE);
                st.execute(Migrations.SCHEMA_VERSION_TABLE.replace("schema_version", "pg_schema_version"));
            }
            return false;
        });
        // one migration per transaction, re-reading the version under the lock: another replica may be migrating
        while (step(
                "schema_version",
                Migrations.latestVersion(),
                n -> Migrations.statements(n, Migrations.Dialect.POSTGRESQL))) {
            // the portable steps
        }
        while (step("pg_schema_version", PG_STEPS.size(), n -> PG_STEPS.get(n - 1))) {
            // then the PostgreSQL-only ones
        }
    }

    private boolean step(String table, int latest, java.util.function.IntFunction<List<String>> statements) {
        return rawTx("migrate the schema (" + table + ")", c -> {
            lock(c, MIGRATION_LOCK);
            return Migrations.step(
                    c,
                    url.display(),
                    table,
                    table,
                    latest,
                    statements,
                    "run a newer ToolScout or use another database or schema");
        });
    }

    private static void lock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        }
    }

    private boolean rawTx(String operation, MigrationWork work) {
        return tx(operation, TransactionIsolationLevel.READ_COMMITTED, true, h -> work.run(h.getConnection()));
    }

    /**
     * Runs {@code work} in one transaction on a pooled connection, rolling back on any failure. A read at
     * REPEATABLE READ sees one snapshot in all its queries.
     */
    private <T> T tx(String operation, TransactionIsolationLevel isolation, boolean write, Work<T> work) {
        if (closed) {
            throw new IllegalStateException("state store " + url.display() + " is closed; cannot " + operation);
        }
        try (Handle h = jdbi.open()) {
            h.getConnection().setReadOnly(!write);
            return h.inTransaction(isolation, work::run);
        } catch (SQLException e) {
            throw new StoreException(url.display(), operation, e);
        } catch (JdbiException e) {
            throw e.getCause() instanceof SQLException sql
                    ? new StoreException(url.display(), operation, sql)
                    : new StoreException(url.display(), operation, e);
        }
    }

    @FunctionalInterface
    private interface MigrationWork {
        boolean run(Connection c) throws SQLException;
    }
}
