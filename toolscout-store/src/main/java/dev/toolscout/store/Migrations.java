package dev.toolscout.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state store's schema, as an ordered list of migrations. Migration {@code n} (1-based) takes a store
 * from schema version {@code n - 1} to {@code n}; each runs in its own transaction together with the row it
 * adds to {@code schema_version}. Append new migrations; never edit one that has shipped.
 *
 * <p>The SQL is kept portable so that the PostgreSQL store can run the same scripts: only TEXT, BIGINT,
 * INTEGER and a binary type, which is the one thing a {@link Dialect} rewrites. Stateless and thread-safe.
 */
public final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);

    /** The placeholder for the binary column type in the scripts below. */
    private static final String BINARY = "${BINARY}";

    /**
     * Created before the migrations run (so it is not itself a migration): one row per applied migration.
     */
    static final String SCHEMA_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version ("
            + "version INTEGER PRIMARY KEY, "
            + "applied_at_millis BIGINT NOT NULL)";

    private static final List<List<String>> SCRIPTS = List.of(
            // 1: the catalog, the vectors keyed by (text hash, model), the catalog version, the policy.
            List.of(
                    "CREATE TABLE tools ("
                            + "name TEXT PRIMARY KEY, "
                            + "spec_json TEXT NOT NULL, "
                            + "content_hash TEXT NOT NULL, "
                            + "updated_version BIGINT NOT NULL)",
                    "CREATE TABLE vectors ("
                            + "text_hash TEXT NOT NULL, "
                            + "model_id TEXT NOT NULL, "
                            + "dimension INTEGER NOT NULL, "
                            + "vector " + BINARY + " NOT NULL, "
                            + "PRIMARY KEY (text_hash, model_id))",
                    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                    "INSERT INTO meta (key, value) VALUES ('catalog_version', '0')",
                    "CREATE TABLE policy (id INTEGER PRIMARY KEY, policy_json TEXT NOT NULL)"),
            // 2: registered upstream MCP servers, keyed by name; config_json is opaque here (secrets sealed).
            List.of("CREATE TABLE mcp_servers (name TEXT PRIMARY KEY, config_json TEXT NOT NULL)"),
            // 3: approval requests for tools that need one; arguments_json is redacted, arguments_hash finds the
            // identical retry.
            List.of(
                    "CREATE TABLE approvals ("
                            + "id TEXT PRIMARY KEY, "
                            + "requester TEXT NOT NULL, "
                            + "tool TEXT NOT NULL, "
                            + "arguments_json TEXT NOT NULL, "
                            + "arguments_hash TEXT NOT NULL, "
                            + "created_at_millis BIGINT NOT NULL, "
                            + "status TEXT NOT NULL, "
                            + "decided_by TEXT, "
                            + "decided_at_millis BIGINT)",
                    "CREATE INDEX approvals_by_call ON approvals (requester, tool, arguments_hash)"),
            // 4: skills (skill_json opaque here) and conversations, keyed by principal and id so that one
            // principal's id never reaches another's; a conversation's active skills and disclosed tools go with it
            // (ON DELETE CASCADE), in order.
            List.of(
                    "CREATE TABLE skills (name TEXT PRIMARY KEY, skill_json TEXT NOT NULL)",
                    "CREATE TABLE conversations ("
                            + "principal TEXT NOT NULL, "
                            + "id TEXT NOT NULL, "
                            + "created_at_millis BIGINT NOT NULL, "
                            + "last_used_at_millis BIGINT NOT NULL, "
                            + "PRIMARY KEY (principal, id))",
                    "CREATE INDEX conversations_by_last_use ON conversations (last_used_at_millis)",
                    "CREATE TABLE conversation_skills ("
                            + "principal TEXT NOT NULL, "
                            + "conversation_id TEXT NOT NULL, "
                            + "position INTEGER NOT NULL, "
                            + "skill TEXT NOT NULL, "
                            + "PRIMARY KEY (principal, conversation_id, position), "
                            + "FOREIGN KEY (principal, conversation_id) REFERENCES conversations (principal, id) "
                            + "ON DELETE CASCADE)",
                    "CREATE TABLE conversation_tools ("
                            + "principal TEXT NOT NULL, "
                            + "conversation_id TEXT NOT NULL, "
                            + "position INTEGER NOT NULL, "
                            + "tool TEXT NOT NULL, "
                            + "PRIMARY KEY (principal, conversation_id, position), "
                            + "FOREIGN KEY (principal, conversation_id) REFERENCES conversations (principal, id) "
                            + "ON DELETE CASCADE)"),
            // 5: the agent loop's runs (state_json opaque here: a paused run resumes from it after a restart) and
            // its usage records (record_json opaque here), by time.
            List.of(
                    "CREATE TABLE agent_runs ("
                            + "id TEXT PRIMARY KEY, "
                            + "principal TEXT NOT NULL, "
                            + "conversation_id TEXT NOT NULL, "
                            + "status TEXT NOT NULL, "
                            + "approval_id TEXT, "
                            + "state_json TEXT NOT NULL, "
                            + "created_at_millis BIGINT NOT NULL, "
                            + "updated_at_millis BIGINT NOT NULL)",
                    "CREATE INDEX agent_runs_by_status ON agent_runs (status)",
                    "CREATE INDEX agent_runs_by_conversation ON agent_runs (principal, conversation_id)",
                    "CREATE TABLE usage_records ("
                            + "id TEXT PRIMARY KEY, "
                            + "at_millis BIGINT NOT NULL, "
                            + "principal TEXT NOT NULL, "
                            + "conversation_id TEXT NOT NULL, "
                            + "record_json TEXT NOT NULL)",
                    "CREATE INDEX usage_records_by_time ON usage_records (at_millis)"),
            // 6: memories (memory_json opaque here), with the vector of their text beside them so that forgetting
            // one removes both in one statement; scope and owner as columns for per-scope reads.
            List.of(
                    "CREATE TABLE memories ("
                            + "id TEXT PRIMARY KEY, "
                            + "scope TEXT NOT NULL, "
                            + "owner TEXT NOT NULL, "
                            + "memory_json TEXT NOT NULL, "
                            + "model_id TEXT, "
                            + "vector " + BINARY + ")",
                    "CREATE INDEX memories_by_scope ON memories (scope, owner)"),
            // 7: upstream MCP servers an admin disabled, by name: a table of its own, not a column of mcp_servers,
            // since a server declared in a --servers file has no row there and stays disabled across restarts too.
            List.of("CREATE TABLE mcp_servers_disabled ("
                    + "name TEXT PRIMARY KEY, "
                    + "disabled_at_millis BIGINT NOT NULL)"),
            // 8: each tool definition's token count (render.TokenCounter), by content hash and counter (encoding and
            // rendering), so that a start counts no definition an earlier one counted; saving counts prunes those of
            // content hashes no tool has.
            List.of("CREATE TABLE definition_tokens ("
                    + "content_hash TEXT NOT NULL, "
                    + "counter TEXT NOT NULL, "
                    + "tokens INTEGER NOT NULL, "
                    + "PRIMARY KEY (content_hash, counter))"),
            // 9: where an approval request was made (channel: gateway, agent) and within what (scope: the agent
            // run), shown to approvers; arguments_hash is from now on the digest of exactly the call (unredacted
            // arguments, channel, scope, requester, tool), so requests stored before match no new call. Older rows
            // keep NULL in both and are read as they are.
            List.of("ALTER TABLE approvals ADD COLUMN channel TEXT", "ALTER TABLE approvals ADD COLUMN scope TEXT"));

    /** The SQL dialects the scripts are rendered for. */
    public enum Dialect {
        SQLITE("BLOB"),
        POSTGRESQL("BYTEA");

        private final String binaryType;

        Dialect(String binaryType) {
            this.binaryType = binaryType;
        }
    }

    private Migrations() {}

    /** The newest schema version this code knows. */
    public static int latestVersion() {
        return SCRIPTS.size();
    }

    /**
     * The statements of migration {@code version} (1 to {@link #latestVersion()}) for {@code dialect}.
     *
     * @throws IllegalArgumentException when there is no such migration
     */
    public static List<String> statements(int version, Dialect dialect) {
        if (version < 1 || version > SCRIPTS.size()) {
            throw new IllegalArgumentException(
                    "migration version must be between 1 and " + SCRIPTS.size() + ", got: " + version);
        }
        return SCRIPTS.get(version - 1).stream()
                .map(s -> s.replace(BINARY, dialect.binaryType))
                .toList();
    }

    /**
     * Applies the next migration of {@code table} (a version table: one row per applied step) on {@code c}, inside the
     * caller's transaction, which holds what keeps another process from migrating at once (SQLite's write lock, a
     * PostgreSQL advisory lock): the version is read again under it.
     *
     * @param what how messages name the version ({@code "schema version"}, a table's name)
     * @param otherwise what to do with a store newer than this code, said in the message
     * @return true when a step was applied, false when the store is at {@code latest}
     * @throws IllegalStateException when the store is newer than {@code latest}
     */
    static boolean step(
            Connection c,
            String where,
            String table,
            String what,
            int latest,
            IntFunction<List<String>> statements,
            String otherwise)
            throws SQLException {
        int found = version(c, table);
        if (found > latest) {
            throw new IllegalStateException("state store " + where + " has " + what + " " + found
                    + ", newer than this ToolScout supports (up to " + latest + "); " + otherwise);
        }
        if (found == latest) {
            return false;
        }
        int next = found + 1;
        try (Statement st = c.createStatement()) {
            for (String sql : statements.apply(next)) {
                st.execute(sql);
            }
        }
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO " + table + " (version, applied_at_millis) VALUES (?, ?)")) {
            ps.setInt(1, next);
            ps.setLong(2, System.currentTimeMillis());
            ps.executeUpdate();
        }
        LOG.info(
                "state store {}: migrated {} to version {}",
                where,
                what.equals("schema version") ? "schema" : what,
                next);
        return true;
    }

    /** The highest version recorded in {@code table} (0 when none). */
    static int version(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT MAX(version) FROM " + table)) {
            return rs.next() ? rs.getInt(1) : 0; // MAX of no rows is NULL, which getInt reads as 0
        }
    }
}
