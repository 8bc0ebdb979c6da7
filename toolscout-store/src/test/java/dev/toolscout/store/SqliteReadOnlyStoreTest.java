package dev.toolscout.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.servers.ServerStore.StoredServer;
import dev.toolscout.state.StateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SqliteStateStore#openReadOnly}: reads what writers commit, writes nothing, never migrates. */
class SqliteReadOnlyStoreTest {
    private static final String MODEL = "test-model";

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("state.db");
    }

    private static ToolSpec tool(String name) {
        return ToolSpec.builder(name, "Does " + name).build();
    }

    private void seed() {
        try (SqliteStateStore w = SqliteStateStore.open(file())) {
            w.applyCatalogChange(List.of(tool("crm__a"), tool("crm__b")), List.of());
            w.saveVectors(MODEL, Map.of("h", new float[] {0.6f, 0.8f}));
            w.savePolicyJson("{\"default\":\"allow\"}");
        }
    }

    @Test
    void reads_what_was_committed_and_refuses_every_write_naming_the_file() {
        seed();
        try (SqliteStateStore r = SqliteStateStore.openReadOnly(file())) {
            assertThat(r.readOnly()).isTrue();
            assertThat(r.loadCatalog().version()).isEqualTo(1);
            assertThat(r.loadCatalog().tools()).extracting(ToolSpec::fullName).containsExactly("crm__a", "crm__b");
            assertThat(r.loadVectors(MODEL, List.of("h")).get("h")).containsExactly(0.6f, 0.8f);
            assertThat(r.loadPolicyJson()).contains("{\"default\":\"allow\"}");

            String readOnly = "state store " + file().toAbsolutePath() + " is open read-only; cannot ";
            assertThatThrownBy(() -> r.applyCatalogChange(List.of(tool("crm__c")), List.of()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(readOnly + "apply a catalog change");
            assertThatThrownBy(() -> r.saveVectors(MODEL, Map.of("g", new float[] {1f})))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith(readOnly + "save vectors");
            assertThatThrownBy(() -> r.savePolicyJson("{}"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(readOnly + "save the access policy");
            assertThatThrownBy(() -> r.saveServer(new StoredServer("s", "{}")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith(readOnly + "save server 's'");
            assertThatThrownBy(() -> r.deleteServer("s")).isInstanceOf(IllegalStateException.class);
            assertThat(r.loadCatalog().version()).isEqualTo(1);
        }
    }

    @Test
    void opening_reading_and_closing_never_changes_the_database_file() throws Exception {
        seed();
        String before = sha256(file());
        try (SqliteStateStore r = SqliteStateStore.openReadOnly(file())) {
            r.loadCatalog();
            r.loadVectors(MODEL, List.of("h"));
            assertThatThrownBy(() -> r.savePolicyJson("{}")).isInstanceOf(IllegalStateException.class);
        }
        assertThat(sha256(file())).isEqualTo(before);
        // no writer had the file open, so SQLite made its WAL index beside it: an empty log, no data
        assertThat(Path.of(file() + "-wal")).isEmptyFile();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("state.db", "state.db-wal", "state.db-shm");
        }
    }

    @Test
    void a_missing_file_is_refused_naming_it_and_nothing_is_created() {
        Path missing = dir.resolve("none").resolve("state.db");
        assertThatThrownBy(() -> SqliteStateStore.openReadOnly(missing))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith(
                        "state store " + missing.toAbsolutePath() + ": cannot open the database read-only");
        assertThat(dir.resolve("none")).doesNotExist();
    }

    @Test
    void a_store_of_a_newer_schema_is_refused_naming_both_versions() throws SQLException {
        seed();
        int future = Migrations.latestVersion() + 1;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file());
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO schema_version (version, applied_at_millis) VALUES (?, 0)")) {
            ps.setInt(1, future);
            ps.executeUpdate();
        }
        assertThatThrownBy(() -> SqliteStateStore.openReadOnly(file()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("state store " + file().toAbsolutePath() + " has schema version " + future
                        + ", newer than this "
                        + "ToolScout supports (up to " + Migrations.latestVersion()
                        + "); read it with the newer ToolScout that "
                        + "wrote it");
    }

    @Test
    void a_store_of_an_older_schema_is_refused_not_migrated() throws SQLException {
        seed();
        int older = Migrations.latestVersion() - 1;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file());
                PreparedStatement ps = c.prepareStatement("DELETE FROM schema_version WHERE version > ?")) {
            ps.setInt(1, older);
            ps.executeUpdate();
        }
        assertThatThrownBy(() -> SqliteStateStore.openReadOnly(file()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("state store " + file().toAbsolutePath() + " has schema version " + older
                        + ", older than this ToolScout's " + Migrations.latestVersion()
                        + ", and a read-only opening does not "
                        + "migrate it");
        // nothing ran the missing migration
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file());
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(older);
        }
    }

    @Test
    void every_read_beside_a_live_writer_in_another_process_is_one_committed_state() throws Exception {
        SqliteStateStore.open(file()).close();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = dir.resolve("writer-output.txt");
        Process writer = new ProcessBuilder(
                        java.toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        LiveStoreWriter.class.getName(),
                        file().toString())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            awaitOutput(writer, output, "WRITING");

            long first = -1;
            long last = -1;
            try (SqliteStateStore r = SqliteStateStore.openReadOnly(file())) {
                // until the reader has seen the writer move on, at most 10,000 reads
                for (int i = 0; i < 10_000 && (first < 0 || last == first); i++) {
                    StateStore.StoredCatalog c = r.loadCatalog();
                    long v = c.version();
                    assertThat(c.tools()).as("tools at version " + v).hasSize((int) v + 1);
                    assertThat(c.tools())
                            .filteredOn(t -> t.fullName().equals("live__counter"))
                            .singleElement()
                            .extracting(ToolSpec::description)
                            .isEqualTo("change " + v);
                    assertThat(v).as("versions never go back").isGreaterThanOrEqualTo(last);
                    if (first < 0) {
                        first = v;
                    }
                    last = v;
                }
            }
            assertThat(last).as("the reader saw the writer's later changes").isGreaterThan(first);
            assertThat(writer.isAlive())
                    .as("the writer kept writing beside the reader")
                    .isTrue();
        } finally {
            writer.destroyForcibly();
            writer.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static String sha256(Path p) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }

    /** Waits for the child to print {@code line}; fails with its output if it exits first (a bound, not timing). */
    static void awaitOutput(Process child, Path output, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(output) || !Files.readString(output).contains(line)) {
            if (!child.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the child did not print " + line + "; its output: "
                        + (Files.exists(output) ? Files.readString(output) : "none"));
            }
            Thread.sleep(100);
        }
    }
}
