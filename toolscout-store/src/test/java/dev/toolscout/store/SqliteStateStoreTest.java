package dev.toolscout.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.StateStore;
import dev.toolscout.state.StateStoreContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqliteStateStoreTest extends StateStoreContract {
    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("data").resolve("state.db");
    }

    @Override
    protected StateStore newStore() {
        return SqliteStateStore.open(file());
    }

    @Override
    protected StateStore reopen() {
        return SqliteStateStore.open(file());
    }

    @Test
    void open_creates_missing_parent_directories_and_the_file() {
        Path deep = dir.resolve("a").resolve("b").resolve("c").resolve("state.db");

        try (SqliteStateStore s = SqliteStateStore.open(deep)) {
            assertThat(deep).isRegularFile();
            assertThat(s.file()).isEqualTo(deep.toAbsolutePath());
        }
    }

    @Test
    void store_file_uses_write_ahead_logging() throws SQLException {
        try (Connection c = connect(file());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
        }
    }

    @Test
    void acknowledged_change_and_vectors_survive_a_halt_right_after_the_ack() throws Exception {
        Path crashed = dir.resolve("crash").resolve("state.db");
        try (SqliteStateStore seed = SqliteStateStore.open(crashed)) {
            seed.applyCatalogChange(
                    List.of(tool(CrashingWriter.SEED_KEPT), tool(CrashingWriter.SEED_REMOVED)), List.of());
        }
        Path output = dir.resolve("child-output.txt");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashingWriter.class.getName(),
                        crashed.toString())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        // A bound on waiting for a hung child, not a timing assertion.
        if (!child.waitFor(2, TimeUnit.MINUTES)) {
            child.destroyForcibly();
            throw new AssertionError("the child JVM did not finish; output: " + Files.readString(output));
        }
        String out = Files.readString(output);
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).contains("ACK 2");
        // The store was never closed, so the change is only in the write-ahead log: reopening must recover it.
        assertThat(Path.of(crashed + "-wal")).isNotEmptyFile();

        try (SqliteStateStore after = SqliteStateStore.open(crashed)) {
            assertThat(after.loadCatalog().version()).isEqualTo(2);
            assertThat(after.loadCatalog().tools()).containsExactlyInAnyOrderElementsOf(CrashingWriter.newTools());
            Map<String, float[]> vectors = after.loadVectors(CrashingWriter.MODEL, List.of("h1", "h2"));
            assertThat(vectors).containsOnlyKeys("h1", "h2");
            CrashingWriter.vectors()
                    .forEach((hash, v) ->
                            assertThat(rawBits(vectors.get(hash))).as(hash).containsExactly(rawBits(v)));
        }
    }

    @Test
    void store_written_by_a_newer_schema_is_refused_naming_the_file_and_both_versions() throws SQLException {
        Path newer = dir.resolve("newer.db");
        SqliteStateStore.open(newer).close();
        int future = Migrations.latestVersion() + 5;
        try (Connection c = connect(newer);
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO schema_version (version, applied_at_millis) VALUES (?, 0)")) {
            ps.setInt(1, future);
            ps.executeUpdate();
        }

        assertThatThrownBy(() -> SqliteStateStore.open(newer))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(newer.toAbsolutePath().toString())
                .hasMessageContaining("schema version " + future)
                .hasMessageContaining("up to " + Migrations.latestVersion());
    }

    @Test
    void a_store_of_schema_3_upgrades_to_skills_and_conversations_keeping_its_catalog() throws SQLException {
        ToolSpec kept = tool("crm__kept");
        Path v3 = storeAtSchema(3, kept);

        try (SqliteStateStore s = SqliteStateStore.open(v3)) {
            s.saveSkill(new StateStore.StoredSkill("database", "{}"));
            s.saveConversation(new StateStore.StoredConversation(
                    "p", "c", List.of("database"), List.of(), java.time.Instant.EPOCH, java.time.Instant.EPOCH));

            assertThat(s.loadCatalog().tools()).containsExactly(kept);
            assertThat(s.loadSkills()).extracting(StateStore.StoredSkill::name).containsExactly("database");
            assertThat(s.loadConversation("p", "c").orElseThrow().activeSkills())
                    .containsExactly("database");
        }
    }

    @Test
    void a_store_of_schema_7_upgrades_to_stored_token_counts_keeping_its_catalog_with_none_counted()
            throws SQLException {
        ToolSpec kept = tool("crm__kept");
        Path v7 = storeAtSchema(7, kept);

        try (SqliteStateStore s = SqliteStateStore.open(v7)) {
            assertThat(s.loadCatalog().tools()).containsExactly(kept);
            assertThat(s.loadTokenCounts("c", List.of(kept.contentHash()))).isEmpty();
            s.saveTokenCounts("c", Map.of(kept.contentHash(), 12));
        }
        try (SqliteStateStore s = SqliteStateStore.open(v7)) {
            assertThat(s.loadTokenCounts("c", List.of(kept.contentHash()))).containsEntry(kept.contentHash(), 12);
        }
    }

    @Test
    void a_store_of_schema_8_keeps_its_approval_requests_readable_without_a_channel() throws SQLException {
        Path v8 = storeAtSchema(8, tool("crm__kept"));
        try (Connection c = connect(v8);
                Statement st = c.createStatement()) {
            st.execute("INSERT INTO approvals (id, requester, tool, arguments_json, arguments_hash, created_at_millis, "
                    + "status) VALUES ('ap-old', 'key:alice', 'kg__delete', '{\"token\":\"[redacted]\"}', 'h', 1000, "
                    + "'PENDING')");
        }

        try (SqliteStateStore s = SqliteStateStore.open(v8)) {
            StoredApproval old = s.loadApproval("ap-old").orElseThrow();
            assertThat(old.channel()).isNull();
            assertThat(old.scope()).isNull();
            assertThat(old.argumentsJson()).isEqualTo("{\"token\":\"[redacted]\"}");
        }
    }

    @Test
    void many_token_counts_load_exactly_the_asked_ones() {
        List<ToolSpec> many = new ArrayList<>();
        Map<String, Integer> counts = new java.util.HashMap<>();
        for (int i = 0; i < SqliteStateStore.IN_BATCH * 2 + 7; i++) {
            ToolSpec t = tool(String.format(Locale.ROOT, "bulk__t%04d", i));
            many.add(t);
            counts.put(t.contentHash(), i);
        }
        store.applyCatalogChange(many, List.of());
        store.saveTokenCounts("c", counts);
        String notAsked = many.get(3).contentHash();
        List<String> asked = new ArrayList<>(counts.keySet());
        asked.remove(notAsked);
        asked.add("no-such-hash");
        Map<String, Integer> expected = new java.util.HashMap<>(counts);
        expected.remove(notAsked);

        // past IN_BATCH hashes a store reads the counter's rows in one pass: still only the asked ones come back
        assertThat(store.loadTokenCounts("c", asked)).isEqualTo(expected);
        assertThat(store.loadTokenCounts("c", asked.subList(0, 10))).hasSize(10);
    }

    @Test
    void each_migration_runs_once() throws SQLException {
        store.close();
        SqliteStateStore.open(file()).close();
        SqliteStateStore.open(file()).close();

        List<Integer> versions = new ArrayList<>();
        try (Connection c = connect(file());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT version FROM schema_version ORDER BY version")) {
            while (rs.next()) {
                versions.add(rs.getInt(1));
            }
        }
        assertThat(versions).hasSize(Migrations.latestVersion()).doesNotHaveDuplicates();
        assertThat(versions.getLast()).isEqualTo(Migrations.latestVersion());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{not json",
                "[]",
                "{\"name\": \"crm__broken\", \"description\": \"  \"}",
                "{\"name\": \"crm__broken\", \"description\": \"d\", \"ai_access\": \"sometimes\"}",
                "{\"name\": \"crm__other\", \"description\": \"belongs to another row\"}"
            })
    void unreadable_stored_spec_is_an_error_naming_the_store_and_the_tool(String badJson) throws SQLException {
        store.applyCatalogChange(List.of(tool("crm__broken"), tool("crm__fine")), List.of());
        try (Connection c = connect(file());
                PreparedStatement ps = c.prepareStatement("UPDATE tools SET spec_json = ? WHERE name = ?")) {
            ps.setString(1, badJson);
            ps.setString(2, "crm__broken");
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        assertThatThrownBy(() -> store.loadCatalog())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file().toAbsolutePath().toString())
                .hasMessageContaining("tool 'crm__broken'");
    }

    @Test
    void first_unreadable_spec_in_name_order_is_reported_in_a_catalog_parsed_in_parallel() throws SQLException {
        List<ToolSpec> many = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            many.add(tool(String.format(Locale.ROOT, "bulk__t%04d", i)));
        }
        store.applyCatalogChange(many, List.of());
        try (Connection c = connect(file());
                PreparedStatement ps = c.prepareStatement("UPDATE tools SET spec_json = '{' WHERE name = ?")) {
            for (String name : List.of("bulk__t2999", "bulk__t1234", "bulk__t2000")) {
                ps.setString(1, name);
                ps.executeUpdate();
            }
        }

        assertThatThrownBy(() -> store.loadCatalog())
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("state store " + file().toAbsolutePath())
                .hasMessageContaining("tool 'bulk__t1234'");
    }

    @Test
    void stored_vector_whose_bytes_do_not_match_its_dimension_is_an_error_naming_the_hash() throws SQLException {
        store.saveVectors(MODEL, Map.of("good", new float[] {1f, 2f}, "bad", new float[] {1f, 2f, 3f}));
        try (Connection c = connect(file());
                PreparedStatement ps = c.prepareStatement("UPDATE vectors SET dimension = 4 WHERE text_hash = 'bad'")) {
            ps.executeUpdate();
        }

        assertThatThrownBy(() -> store.loadVectors(MODEL, List.of("good", "bad")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file().toAbsolutePath().toString())
                .hasMessageContaining("'bad'")
                .hasMessageContaining("got: 12");
    }

    @Test
    void vectors_are_stored_as_little_endian_float32() throws SQLException {
        store.saveVectors(MODEL, Map.of("h", new float[] {1f, -2f}));

        try (Connection c = connect(file());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT dimension, vector FROM vectors WHERE text_hash = 'h'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
            // 1.0f = 0x3F800000, -2.0f = 0xC0000000, least significant byte first
            assertThat(rs.getBytes(2)).containsExactly(0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0);
        }
    }

    @Test
    void file_that_is_not_a_database_is_refused_naming_it() throws IOException {
        Path notDb = dir.resolve("notes.db");
        Files.writeString(notDb, "these are my notes, not a database\n".repeat(100), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> SqliteStateStore.open(notDb))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining(notDb.toAbsolutePath().toString());
    }

    @Test
    void closed_store_refuses_calls_naming_the_file() {
        store.close();

        assertThatThrownBy(() -> store.catalogVersion())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file().toAbsolutePath().toString())
                .hasMessageContaining("closed");
    }

    @Test
    void tool_row_records_content_hash_and_the_version_that_wrote_it() throws SQLException {
        ToolSpec a = tool("crm__a");
        store.applyCatalogChange(List.of(a, tool("crm__b")), List.of());
        store.applyCatalogChange(List.of(tool("crm__b")), List.of());

        try (Connection c = connect(file());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name, content_hash, updated_version FROM tools ORDER BY name")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).isEqualTo(a.contentHash());
            assertThat(rs.getLong(3)).isEqualTo(1);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(3)).isEqualTo(2);
        }
    }

    private static Connection connect(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    @Test
    void a_corrected_or_deleted_memorys_old_text_is_left_in_neither_the_database_nor_its_log() throws Exception {
        try (SqliteStateStore s = SqliteStateStore.open(file())) {
            s.saveMemory(new StateStore.StoredMemory(
                    "mem_a", "user", "ann", "{\"content\":\"the old secret is kept here\"}", null, null));
            s.saveMemory(new StateStore.StoredMemory(
                    "mem_a", "user", "ann", "{\"content\":\"corrected text\"}", null, null));
            assertThat(onDisk()).doesNotContain("the old secret").contains("corrected text");

            s.deleteMemory("mem_a");
            assertThat(onDisk()).doesNotContain("corrected text");
        }
    }

    /** The database file and its write-ahead log, as text (while the store is open). */
    private String onDisk() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Path p : List.of(file(), Path.of(file() + "-wal"))) {
            if (Files.exists(p)) {
                sb.append(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }

    /** A store file at schema {@code version} (the migrations up to it, run as they were), holding {@code tool}. */
    private Path storeAtSchema(int version, ToolSpec tool) throws SQLException {
        Path file = dir.resolve("v" + version + "-with-tool.db");
        try (Connection c = connect(file);
                Statement st = c.createStatement()) {
            st.execute(Migrations.SCHEMA_VERSION_TABLE);
            for (int v = 1; v <= version; v++) {
                for (String sql : Migrations.statements(v, Migrations.Dialect.SQLITE)) {
                    st.execute(sql);
                }
                st.execute("INSERT INTO schema_version (version, applied_at_millis) VALUES (" + v + ", 0)");
            }
        }
        try (Connection c = connect(file);
                PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO tools (name, spec_json, content_hash, updated_version) VALUES (?, ?, ?, 1)")) {
            ps.setString(1, tool.fullName());
            ps.setString(2, dev.toolscout.model.ToolSpecJson.toJson(tool).toString());
            ps.setString(3, tool.contentHash());
            ps.executeUpdate();
        }
        return file;
    }
}
