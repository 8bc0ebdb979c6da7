package dev.toolscout.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.conversation.ConversationStore.StoredConversation;
import dev.toolscout.learning.LearnedStore.StoredLearned;
import dev.toolscout.memory.MemoryStore.StoredMemory;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.runs.RunStore.StoredRun;
import dev.toolscout.runs.UsageStore.StoredUsage;
import dev.toolscout.servers.ServerStore.StoredServer;
import dev.toolscout.skills.SkillStore.StoredSkill;
import dev.toolscout.state.StateStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A database written by the store as it was before its SQL moved to JDBI (hand-written JDBC per database, the same
 * versioned migrations) opens with today's store at its version, migrates, and every row is there, read as before.
 * The rows are inserted here with the SQL the old stores ran, at the schema version the database was left at (1 to
 * 9), on SQLite and on PostgreSQL.
 */
class LegacyStoreUpgradeTest {
    private static final PostgresTestDatabase DB = new PostgresTestDatabase();
    private static final ToolSpec TOOL =
            ToolSpec.builder("demo__search", "Searches the demo").build();
    private static final float[] VECTOR = {0.25f, -1.5f, 3.0f};
    private static final StoredLearned LEARNED = new StoredLearned(
            "demo__search", "m-hash", "find the thing", "t-hash", "key:alice", "c1", Instant.ofEpochMilli(7_000));

    @TempDir
    Path dir;

    @AfterAll
    static void dropSchemas() throws SQLException {
        DB.dropAll();
    }

    @ParameterizedTest(name = "SQLite at schema version {0}")
    @ValueSource(ints = {1, 3, 5, 6, 8, 9})
    void an_sqlite_file_of_the_old_store_opens_migrated_with_every_row(int version) throws SQLException {
        Path file = dir.resolve("state.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            legacySchema(c, version, Migrations.Dialect.SQLITE);
            legacyRows(c, version);
        }
        try (StateStore store = SqliteStateStore.open(file)) {
            assertEveryRow(store, version);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            assertThat(Migrations.version(c, "schema_version")).isEqualTo(Migrations.latestVersion());
        }
    }

    @ParameterizedTest(name = "PostgreSQL at schema version {0}")
    @ValueSource(ints = {1, 3, 5, 6, 8, 9})
    void a_postgresql_schema_of_the_old_store_opens_migrated_with_every_row(int version) throws SQLException {
        String address = DB.newSchema();
        PostgresUrl url = PostgresUrl.parse(address);
        try (Connection c = PostgresStateStore.connect(url);
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"" + url.schema() + "\"");
            st.execute("SET search_path TO \"" + url.schema() + "\"");
            legacySchema(c, version, Migrations.Dialect.POSTGRESQL);
            if (version == Migrations.latestVersion()) {
                // the old PostgreSQL store's own step, as it left a schema at the latest version
                st.execute(Migrations.SCHEMA_VERSION_TABLE.replace("schema_version", "pg_schema_version"));
                st.execute(
                        "CREATE TABLE changes (seq BIGSERIAL PRIMARY KEY, area TEXT NOT NULL, at_millis BIGINT NOT NULL)");
                st.execute("CREATE TABLE tool_removals (name TEXT PRIMARY KEY, removed_version BIGINT NOT NULL)");
                st.execute("INSERT INTO meta (key, value) VALUES ('changes_pruned_below', '0')");
                st.execute("INSERT INTO pg_schema_version (version, applied_at_millis) VALUES (1, 0)");
                st.execute("INSERT INTO tool_removals (name, removed_version) VALUES ('demo__gone', 1)");
            }
            legacyRows(c, version);
        }
        try (PostgresStateStore store = PostgresStateStore.open(address)) {
            assertEveryRow(store, version);
            if (version == Migrations.latestVersion()) {
                assertThat(store.catalogSince(0).removals()).containsExactly("demo__gone");
            }
        }
        try (Connection c = PostgresStateStore.connect(url);
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO \"" + url.schema() + "\"");
            assertThat(Migrations.version(c, "schema_version")).isEqualTo(Migrations.latestVersion());
            assertThat(Migrations.version(c, "pg_schema_version")).isEqualTo(1);
        }
    }

    /** The migrations up to {@code version}, run as the old runner ran them, each recorded in schema_version. */
    private static void legacySchema(Connection c, int version, Migrations.Dialect dialect) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(Migrations.SCHEMA_VERSION_TABLE);
            for (int v = 1; v <= version; v++) {
                for (String sql : Migrations.statements(v, dialect)) {
                    st.execute(sql);
                }
                st.execute("INSERT INTO schema_version (version, applied_at_millis) VALUES (" + v + ", 0)");
            }
        }
    }

    /** One row (or two) in each table that exists at {@code version}, with the SQL the old stores wrote them with. */
    private static void legacyRows(Connection c, int version) throws SQLException {
        run(c, "UPDATE meta SET value = ? WHERE key = ?", "1", "catalog_version");
        run(
                c,
                "INSERT INTO tools (name, spec_json, content_hash, updated_version) VALUES (?, ?, ?, ?)",
                TOOL.fullName(),
                ToolSpecJson.toJson(TOOL).toString(),
                TOOL.contentHash(),
                1L);
        run(
                c,
                "INSERT INTO vectors (text_hash, model_id, dimension, vector) VALUES (?, ?, ?, ?)",
                "text-hash",
                "model",
                VECTOR.length,
                VectorCodec.encode(VECTOR));
        run(c, "INSERT INTO policy (id, policy_json) VALUES (?, ?)", 1, "{\"roles\":{}}");
        run(c, "INSERT INTO meta (key, value) VALUES (?, ?)", "openapi_source:petstore", "{\"base\":\"http://x\"}");
        run(c, "INSERT INTO meta (key, value) VALUES (?, ?)", LearnedRows.key(LEARNED), LearnedRows.value(LEARNED));
        if (version >= 2) {
            run(c, "INSERT INTO mcp_servers (name, config_json) VALUES (?, ?)", "fs", "{\"command\":\"fs\"}");
        }
        if (version >= 3) {
            run(
                    c,
                    "INSERT INTO approvals (id, requester, tool, arguments_json, arguments_hash, created_at_millis, status, "
                            + "decided_by, decided_at_millis) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    "a1",
                    "key:bob",
                    "demo__search",
                    "{}",
                    "hash-1",
                    1_000L,
                    "APPROVED",
                    "key:admin",
                    2_000L);
            run(
                    c,
                    "INSERT INTO approvals (id, requester, tool, arguments_json, arguments_hash, created_at_millis, status, "
                            + "decided_by, decided_at_millis) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    "a2",
                    "key:bob",
                    "demo__search",
                    "{\"q\":1}",
                    "hash-2",
                    1_000L,
                    "PENDING",
                    null,
                    null);
        }
        if (version >= 4) {
            run(c, "INSERT INTO skills (name, skill_json) VALUES (?, ?)", "triage", "{\"name\":\"triage\"}");
            run(
                    c,
                    "INSERT INTO conversations (principal, id, created_at_millis, last_used_at_millis) VALUES (?, ?, ?, ?)",
                    "key:alice",
                    "c1",
                    3_000L,
                    4_000L);
            run(
                    c,
                    "INSERT INTO conversation_skills (principal, conversation_id, position, skill) VALUES (?, ?, ?, ?)",
                    "key:alice",
                    "c1",
                    0,
                    "triage");
            run(
                    c,
                    "INSERT INTO conversation_tools (principal, conversation_id, position, tool) VALUES (?, ?, ?, ?)",
                    "key:alice",
                    "c1",
                    0,
                    "demo__search");
            run(
                    c,
                    "INSERT INTO conversation_tools (principal, conversation_id, position, tool) VALUES (?, ?, ?, ?)",
                    "key:alice",
                    "c1",
                    1,
                    "demo__other");
        }
        if (version >= 5) {
            run(
                    c,
                    "INSERT INTO agent_runs (id, principal, conversation_id, status, approval_id, state_json, "
                            + "created_at_millis, updated_at_millis) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    "r1",
                    "key:alice",
                    "c1",
                    "paused",
                    "a2",
                    "{\"step\":2}",
                    5_000L,
                    6_000L);
            run(
                    c,
                    "INSERT INTO usage_records (id, at_millis, principal, conversation_id, record_json) VALUES (?, ?, ?, ?, ?)",
                    "u1",
                    5_500L,
                    "key:alice",
                    "c1",
                    "{\"tokens\":12}");
        }
        if (version >= 6) {
            run(
                    c,
                    "INSERT INTO memories (id, scope, owner, memory_json, model_id, vector) VALUES (?, ?, ?, ?, ?, ?)",
                    "m1",
                    "user",
                    "alice",
                    "{\"text\":\"likes tea\"}",
                    "model",
                    VectorCodec.encode(VECTOR));
            run(
                    c,
                    "INSERT INTO memories (id, scope, owner, memory_json, model_id, vector) VALUES (?, ?, ?, ?, ?, ?)",
                    "m2",
                    "space",
                    "",
                    "{\"text\":\"no vector\"}",
                    null,
                    null);
        }
        if (version >= 7) {
            run(c, "INSERT INTO mcp_servers_disabled (name, disabled_at_millis) VALUES (?, ?)", "fs", 8_000L);
        }
        if (version >= 8) {
            run(
                    c,
                    "INSERT INTO definition_tokens (content_hash, counter, tokens) VALUES (?, ?, ?)",
                    TOOL.contentHash(),
                    "cl100k",
                    42);
        }
        if (version >= 9) {
            run(
                    c,
                    "INSERT INTO approvals (id, requester, tool, arguments_json, arguments_hash, created_at_millis, status, "
                            + "decided_by, decided_at_millis, channel, scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    "a3",
                    "key:bob",
                    "demo__search",
                    "{}",
                    "hash-3",
                    900L,
                    "PENDING",
                    null,
                    null,
                    "agent",
                    "r1");
        }
    }

    private static void assertEveryRow(StateStore store, int version) {
        assertThat(store.catalogVersion()).isEqualTo(1);
        assertThat(store.loadCatalog().tools()).containsExactly(TOOL);
        assertThat(store.loadCatalog().contentHashes()).containsExactly(TOOL.contentHash());
        assertThat(store.toolsChangedSince(0)).containsExactly(TOOL.fullName());
        assertThat(store.loadVectors("model", List.of("text-hash")).get("text-hash"))
                .containsExactly(VECTOR);
        assertThat(store.loadPolicyJson()).contains("{\"roles\":{}}");
        assertThat(store.loadOpenApiSource("petstore")).contains("{\"base\":\"http://x\"}");
        assertThat(store.loadLearned()).containsExactly(LEARNED);
        assertThat(store.loadServers())
                .containsExactly(
                        version >= 2
                                ? new StoredServer[] {new StoredServer("fs", "{\"command\":\"fs\"}")}
                                : new StoredServer[0]);
        List<StoredApproval> approvals = new java.util.ArrayList<>();
        if (version >= 9) {
            approvals.add(new StoredApproval(
                    "a3",
                    "key:bob",
                    "demo__search",
                    "{}",
                    "hash-3",
                    Instant.ofEpochMilli(900),
                    ApprovalStatus.PENDING,
                    null,
                    null,
                    "agent",
                    "r1"));
        }
        if (version >= 3) {
            approvals.add(new StoredApproval(
                    "a1",
                    "key:bob",
                    "demo__search",
                    "{}",
                    "hash-1",
                    Instant.ofEpochMilli(1_000),
                    ApprovalStatus.APPROVED,
                    "key:admin",
                    Instant.ofEpochMilli(2_000)));
            approvals.add(StoredApproval.pending(
                    "a2", "key:bob", "demo__search", "{\"q\":1}", "hash-2", Instant.ofEpochMilli(1_000)));
        }
        assertThat(store.loadApprovals()).containsExactlyElementsOf(approvals);
        assertThat(store.loadSkills())
                .containsExactly(
                        version >= 4
                                ? new StoredSkill[] {new StoredSkill("triage", "{\"name\":\"triage\"}")}
                                : new StoredSkill[0]);
        assertThat(store.loadConversation("key:alice", "c1"))
                .isEqualTo(
                        version >= 4
                                ? java.util.Optional.of(new StoredConversation(
                                        "key:alice",
                                        "c1",
                                        List.of("triage"),
                                        List.of("demo__search", "demo__other"),
                                        Instant.ofEpochMilli(3_000),
                                        Instant.ofEpochMilli(4_000)))
                                : java.util.Optional.empty());
        assertThat(store.conversationCount()).isEqualTo(version >= 4 ? 1 : 0);
        assertThat(store.loadRunsByStatus("paused"))
                .containsExactly(
                        version >= 5
                                ? new StoredRun[] {
                                    new StoredRun(
                                            "r1",
                                            "key:alice",
                                            "c1",
                                            "paused",
                                            "a2",
                                            "{\"step\":2}",
                                            Instant.ofEpochMilli(5_000),
                                            Instant.ofEpochMilli(6_000))
                                }
                                : new StoredRun[0]);
        assertThat(store.loadUsage(Instant.EPOCH, 10))
                .containsExactly(
                        version >= 5
                                ? new StoredUsage[] {
                                    new StoredUsage(
                                            "u1", Instant.ofEpochMilli(5_500), "key:alice", "c1", "{\"tokens\":12}")
                                }
                                : new StoredUsage[0]);
        List<StoredMemory> memories = store.loadMemories();
        assertThat(memories)
                .extracting(StoredMemory::id)
                .containsExactlyElementsOf(version >= 6 ? List.of("m1", "m2") : List.of());
        if (version >= 6) {
            assertThat(memories.get(0).vector()).containsExactly(VECTOR);
            assertThat(memories.get(0).json()).isEqualTo("{\"text\":\"likes tea\"}");
            assertThat(memories.get(1).vector()).isNull();
        }
        assertThat(store.loadDisabledServers()).isEqualTo(version >= 7 ? List.of("fs") : List.of());
        assertThat(store.loadTokenCounts("cl100k", List.of(TOOL.contentHash())))
                .isEqualTo(version >= 8 ? Map.of(TOOL.contentHash(), 42) : Map.of());
    }

    private static void run(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            ps.executeUpdate();
        }
    }
}
