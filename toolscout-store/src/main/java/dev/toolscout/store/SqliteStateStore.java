package dev.toolscout.store;

import dev.toolscout.state.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link StateStore} in one SQLite file: the embedded default, no server needed. The SQL is {@link SqlStateStore}'s;
 * this class gives what is SQLite's own: one connection under a lock, explicit transactions, {@code IN} lists, and
 * the log checkpoint that forgetting a memory needs.
 *
 * <p>The file runs in WAL mode with {@code synchronous=FULL}, so a change is on disk when its method returns
 * (the WAL is synced on every commit). The schema is created and upgraded by {@link Migrations} when the
 * store opens; a file written by a newer ToolScout is refused rather than guessed at.
 *
 * <p>Thread-safe: one JDBC connection, used under a lock; every write is one transaction. Other processes
 * may open the same file (SQLite locks it); they wait up to {@value #BUSY_TIMEOUT_MILLIS} ms for a lock.
 * JSON is serialized and parsed outside the lock.
 */
public final class SqliteStateStore extends SqlStateStore {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteStateStore.class);

    /** How long a statement waits for another connection's lock before failing. */
    public static final int BUSY_TIMEOUT_MILLIS = 10_000;

    /** Hashes per {@code IN (...)} list: well under SQLite's bound-parameter limit. */
    static final int IN_BATCH = 500;

    private final Path file;
    private final Connection conn;
    private final Jdbi jdbi;
    private final boolean readOnly;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean closed;

    private SqliteStateStore(Path file, Connection conn, boolean readOnly) {
        this.file = file;
        this.conn = conn;
        this.readOnly = readOnly;
        // the one connection outlives every handle: a handle's close must not close it
        this.jdbi = jdbi(new ConnectionFactory() {
            @Override
            public Connection openConnection() {
                return conn;
            }

            @Override
            public void closeConnection(Connection c) {}
        });
    }

    /**
     * Opens the store in {@code file}, creating the file and its parent directories when absent, and brings
     * its schema up to date.
     *
     * @throws IllegalStateException when the file was written by a newer schema version than this code knows
     * @throws StoreException when the file cannot be created or is not an SQLite database
     */
    public static SqliteStateStore open(Path file) {
        Path path = file.toAbsolutePath().normalize();
        try {
            Path dir = path.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new StoreException(path, "create the directory " + path.getParent(), e);
        }
        Connection c;
        try {
            c = DriverManager.getConnection("jdbc:sqlite:" + path);
        } catch (SQLException e) {
            throw new StoreException(path, "open the database", e);
        }
        try {
            configure(c, path);
            migrate(c, path);
            return new SqliteStateStore(path, c, false);
        } catch (SQLException e) {
            closeQuietly(c, path);
            throw new StoreException(path, "open the database", e);
        } catch (RuntimeException e) {
            closeQuietly(c, path);
            throw e;
        }
    }

    /**
     * Opens an existing store for reading only, beside a process that may be writing it: the connection is
     * SQLite's read-only one (no write reaches the database file, whatever is called), nothing is migrated and
     * the journal mode is left as it is. Every write method throws {@link IllegalStateException}. Each read sees
     * the last change committed before it.
     *
     * <p>A reader of a WAL-mode database uses SQLite's shared-memory index {@code state.db-shm} and the log
     * {@code state.db-wal} beside it: those of the writer when one has the file open (the reader records its
     * read position in the -shm), else SQLite creates them (an empty log) and leaves them at close, for the next
     * writer to remove. They hold no data of their own; the database file is never written.
     *
     * @throws StoreException when the file does not exist or is not an SQLite database
     * @throws IllegalStateException when the file's schema version is not this code's, older or newer: a
     *     read-only store cannot migrate, and a newer one is refused rather than guessed at
     */
    public static SqliteStateStore openReadOnly(Path file) {
        Path path = file.toAbsolutePath().normalize();
        if (!Files.isRegularFile(path)) {
            // SQLite would create an empty database in read-write mode; in read-only mode it fails less clearly
            throw new StoreException(
                    path,
                    "open the database read-only",
                    new java.nio.file.NoSuchFileException(path.toString(), null, "no such file"));
        }
        Connection c;
        try {
            org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
            config.setReadOnly(true);
            config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
            c = DriverManager.getConnection("jdbc:sqlite:" + path, config.toProperties());
        } catch (SQLException e) {
            throw new StoreException(path, "open the database read-only", e);
        }
        try {
            checkSchema(c, path);
            return new SqliteStateStore(path, c, true);
        } catch (SQLException e) {
            closeQuietly(c, path);
            throw new StoreException(path, "open the database read-only", e);
        } catch (RuntimeException e) {
            closeQuietly(c, path);
            throw e;
        }
    }

    /** Whether this store was opened with {@link #openReadOnly}. */
    public boolean readOnly() {
        return readOnly;
    }

    /** The store file (absolute). */
    public Path file() {
        return file;
    }

    // --- what is SQLite's own ---

    @Override
    String where() {
        return file.toString();
    }

    @Override
    <T> T query(String operation, Work<T> work) {
        return locked(operation, () -> {
            try (Handle h = jdbi.open()) {
                return work.run(h);
            }
        });
    }

    @Override
    <T> T snapshot(String operation, Work<T> work) {
        return locked(operation, () -> inTransaction(conn, "BEGIN", work));
    }

    @Override
    <T> T write(String operation, Work<T> work) {
        if (readOnly) {
            throw new IllegalStateException("state store " + file + " is open read-only; cannot " + operation);
        }
        return locked(operation, () -> inTransaction(conn, "BEGIN IMMEDIATE", work));
    }

    /** {@code BEGIN IMMEDIATE} already holds the database's write lock: no row locks. */
    @Override
    String forUpdate() {
        return "";
    }

    /** SQLite compares text by its bytes (BINARY collation) already. */
    @Override
    String metaKey() {
        return "key";
    }

    @Override
    String rowOf() {
        return "row of ";
    }

    @Override
    int inBatch() {
        return IN_BATCH;
    }

    /** Full chunks share one statement; only the last, shorter chunk needs its own. */
    @Override
    <R> void whereIn(Handle h, String sql, String first, List<String> values, RowMapper<R> mapper, Consumer<R> sink) {
        for (int from = 0; from < values.size(); from += IN_BATCH) {
            List<String> chunk = values.subList(from, Math.min(values.size(), from + IN_BATCH));
            Query q = h.createQuery(sql.replace(
                            "${IN}", "IN (" + String.join(", ", Collections.nCopies(chunk.size(), "?")) + ")"))
                    .bind(0, first);
            for (int i = 0; i < chunk.size(); i++) {
                q.bind(i + 1, chunk.get(i));
            }
            q.map(mapper).forEach(sink);
        }
    }

    /** The saved hashes go through a temporary table: SQLite has no array parameter. */
    @Override
    void pruneTokenCounts(Handle h, Collection<String> saved) {
        h.execute("CREATE TEMP TABLE IF NOT EXISTS saved_token_hashes (content_hash TEXT PRIMARY KEY)");
        h.execute("DELETE FROM saved_token_hashes");
        PreparedBatch batch = h.prepareBatch("INSERT OR IGNORE INTO saved_token_hashes (content_hash) VALUES (?)");
        saved.forEach(hash -> batch.bind(0, hash).add());
        batch.execute();
        h.execute(TokenCountRows.PRUNE.replace("${SAVED}", "SELECT content_hash FROM saved_token_hashes"));
        h.execute("DELETE FROM saved_token_hashes");
    }

    /**
     * A forgotten memory's text must not stay readable in the file: {@code secure_delete} overwrites the deleted
     * content in the database pages; then the write-ahead log, which still holds the old page images, is checkpointed
     * and truncated. A reader holding an old snapshot (another process) can keep the log from being truncated until
     * it finishes; the next delete or the close truncates it then.
     */
    @Override
    void forgotten(String what) {
        locked("checkpoint the log after " + what, () -> {
            try (Statement st = conn.createStatement()) {
                st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            }
            return null;
        });
    }

    /** Closes the connection; SQLite checkpoints the WAL into the main file. Idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            conn.close();
        } catch (SQLException e) {
            throw new StoreException(file, "close the database", e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "SqliteStateStore[" + file + "]";
    }

    // --- internals ---

    private static void configure(Connection c, Path path) throws SQLException {
        try (Statement st = c.createStatement()) {
            // First, so that the statements below already wait for another process's lock.
            st.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS);
            String mode;
            try (ResultSet rs = st.executeQuery("PRAGMA journal_mode = WAL")) {
                mode = rs.next() ? rs.getString(1) : "?";
            }
            if (!"wal".equalsIgnoreCase(mode)) {
                // Some file systems (network shares) cannot do WAL; synchronous=FULL keeps changes durable anyway.
                LOG.warn(
                        "state store {}: journal_mode stays '{}' (WAL unavailable here); readers will wait for writers",
                        path,
                        mode);
            }
            st.execute("PRAGMA synchronous = FULL");
            st.execute("PRAGMA foreign_keys = ON");
            // a forgotten memory's text must not stay in free pages (docs/MEMORY.md); see deleteMemory
            st.execute("PRAGMA secure_delete = ON");
        }
    }

    private static void migrate(Connection c, Path path) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(Migrations.SCHEMA_VERSION_TABLE);
        }
        // Each step re-reads the version inside its write transaction: another process may be migrating too.
        while (Boolean.TRUE.equals(explicitTransaction(
                c,
                "BEGIN IMMEDIATE",
                () -> Migrations.step(
                        c,
                        path.toString(),
                        "schema_version",
                        "schema version",
                        Migrations.latestVersion(),
                        n -> Migrations.statements(n, Migrations.Dialect.SQLITE),
                        "run a newer ToolScout or point it at another data directory")))) {
            // one migration per transaction
        }
    }

    /** A read-only store must be at exactly this code's schema version: it can neither migrate nor guess. */
    private static void checkSchema(Connection c, Path path) throws SQLException {
        int found;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")) {
            found = rs.next() && rs.getInt(1) > 0 ? Migrations.version(c, "schema_version") : 0;
        }
        int latest = Migrations.latestVersion();
        if (found > latest) {
            throw new IllegalStateException("state store " + path + " has schema version " + found
                    + ", newer than this ToolScout supports (up to " + latest
                    + "); read it with the newer ToolScout that "
                    + "wrote it");
        }
        if (found < latest) {
            throw new IllegalStateException("state store " + path + " has schema version " + found
                    + ", older than this ToolScout's " + latest
                    + ", and a read-only opening does not migrate it; open the "
                    + "data directory once for writing (when no other process holds it), or read it with the ToolScout "
                    + "that wrote it");
        }
    }

    private <T> T locked(String operation, SqlWork<T> work) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("state store " + file + " is closed; cannot " + operation);
            }
            return work.run();
        } catch (SQLException e) {
            throw new StoreException(file, operation, e);
        } catch (JdbiException e) {
            throw e.getCause() instanceof SQLException sql
                    ? new StoreException(file, operation, sql)
                    : new StoreException(file, operation, e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code work} between {@code begin} and COMMIT, rolling back on any failure. The connection stays in
     * JDBC auto-commit mode and transactions are explicit SQL: the driver's own auto-commit-off mode keeps a
     * transaction open between calls, which would pin an old WAL snapshot and stop checkpoints.
     * {@code BEGIN IMMEDIATE} takes the write lock up front, so a writer never fails half-way upgrading a read
     * lock that another process also holds.
     */
    private <T> T inTransaction(Connection c, String begin, Work<T> work) throws SQLException {
        return explicitTransaction(c, begin, () -> {
            try (Handle h = jdbi.open()) {
                return work.run(h);
            }
        });
    }

    private static <T> T explicitTransaction(Connection c, String begin, SqlWork<T> work) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(begin);
        }
        try {
            T result = work.run();
            try (Statement st = c.createStatement()) {
                st.execute("COMMIT");
            }
            return result;
        } catch (Throwable t) {
            try (Statement st = c.createStatement()) {
                st.execute("ROLLBACK");
            } catch (SQLException rollbackFailure) {
                t.addSuppressed(rollbackFailure);
            }
            throw t;
        }
    }

    private static void closeQuietly(Connection c, Path path) {
        try {
            c.close();
        } catch (SQLException e) {
            LOG.warn("state store {}: closing after a failed open also failed", path, e);
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T run() throws SQLException;
    }
}
