package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.store.Migrations;
import dev.toolscout.store.SqliteStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine opened read-only ({@link Engine.Options#readOnly}) beside the one that holds the data directory,
 * over the real store, index and embedding model. {@code ReadOnlyBesideLiveWriterProcessTest} has the writer in
 * another process.
 */
class ReadOnlyEngineTest {
    private static final String MESSAGE = "Schedule a meeting for tomorrow at 2pm";

    @TempDir
    Path dir;

    /** What a selection shows: names, scores and reasons in order. */
    static List<String> shown(Selection s) {
        return s.selected().stream()
                .map(t -> t.name() + " " + t.score() + " " + t.reason())
                .toList();
    }

    private static Selection meeting(Engine e) {
        return e.selector().select(Selector.Request.of(MESSAGE, Principal.ANONYMOUS));
    }

    private static String output(DiscoveryResult r) {
        assertThat(r).isInstanceOf(DiscoveryResult.Ok.class);
        return ((DiscoveryResult.Ok) r).output().toString();
    }

    /** Waits until {@code e}'s index has committed its catalog's version (the holder's own write, once idle). */
    static void awaitCommitted(Engine e) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (e.index().committedVersion() < e.catalog().version() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
        assertThat(e.index().committedVersion()).isEqualTo(e.catalog().version());
    }

    /**
     * A hash of every file under {@code root} by relative path, except SQLite's {@code state.db-shm} and {@code
     * state.db-wal}: a reader of a WAL database records its read position in the -shm (and SQLite creates both
     * when no writer has them open); they hold no data.
     */
    static Map<String, String> files(Path root) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                String name = root.relativize(p).toString();
                if (!name.equals("state.db-shm") && !name.equals("state.db-wal")) {
                    out.put(
                            name,
                            HexFormat.of()
                                    .formatHex(
                                            MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
                }
            }
        }
        return out;
    }

    @Test
    void beside_the_holder_it_selects_finds_lists_and_describes_as_the_holder_does_and_changes_no_file()
            throws Exception {
        try (Engine writer = Engine.open(Engine.Options.of(dir))) {
            List<String> selection = shown(meeting(writer));
            String found = output(writer.discovery().find(Principal.ANONYMOUS, "send an email", 5));
            String listed = output(writer.discovery().listAll(Principal.ANONYMOUS, null));
            String described = output(writer.discovery().describe(Principal.ANONYMOUS, "gmail__send_email"));
            awaitCommitted(writer); // the holder commits its index once idle (CommitPolicy): not the reader's doing
            Map<String, String> before = files(dir);

            try (Engine reader = Engine.open(Engine.Options.of(dir).withReadOnly())) {
                assertThat(reader.readOnly()).isTrue();
                assertThat(reader.indexInMemory())
                        .as("the committed index holds the stored catalog")
                        .isFalse();
                assertThat(shown(meeting(reader))).isEqualTo(selection);
                assertThat(output(reader.discovery().find(Principal.ANONYMOUS, "send an email", 5)))
                        .isEqualTo(found);
                assertThat(output(reader.discovery().listAll(Principal.ANONYMOUS, null)))
                        .isEqualTo(listed);
                assertThat(output(reader.discovery().describe(Principal.ANONYMOUS, "gmail__send_email")))
                        .isEqualTo(described);
                assertThat(reader.embeddedCount()).isZero();
            }
            assertThat(files(dir)).isEqualTo(before);

            // the reader took no lock: the holder still writes, and the next reader sees it
            writer.index(List.of(ToolSpec.builder("quasar__calibrate_telescope", "Calibrate the telescope mirrors")
                    .build()));
            try (Engine reader = Engine.open(Engine.Options.of(dir).withReadOnly())) {
                assertThat(reader.catalog().get("quasar__calibrate_telescope")).isPresent();
                assertThat(reader.indexInMemory()).isFalse();
            }
        }
    }

    @Test
    void every_write_through_a_read_only_engine_is_refused_clearly_and_nothing_changes() throws Exception {
        Engine.open(Engine.Options.of(dir)).close();
        Map<String, String> before = files(dir);
        try (Engine reader = Engine.open(Engine.Options.of(dir).withReadOnly())) {
            long version = reader.catalog().version();
            String refused = ": data directory " + dir + " is open read-only (it reflects the store as of the open and "
                    + "writes nothing)";
            ToolSpec t =
                    ToolSpec.builder("echo__shout", "Repeats a message loudly.").build();
            assertThatThrownBy(() -> reader.index(List.of(t)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot add or update tools" + refused);
            assertThatThrownBy(() -> reader.replaceCatalogTools(List.of(t)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot replace the catalog's tools" + refused);
            assertThatThrownBy(() -> reader.remove(List.of("echo__echo")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot remove tools" + refused);
            assertThatThrownBy(() -> reader.removeSource("echo"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot remove tools" + refused);
            assertThatThrownBy(() -> reader.savePolicy(AccessPolicy.ALLOW_ALL))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot store the access policy" + refused);
            // what reaches the catalog or the store by another road (an MCP server's tools) is refused by the store
            assertThatThrownBy(() -> reader.catalog().apply(List.of(t), List.of()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is open read-only; cannot apply");
            assertThat(reader.catalog().version()).isEqualTo(version);
        }
        assertThat(files(dir)).isEqualTo(before);
    }

    @Test
    void without_a_usable_committed_index_it_builds_one_in_memory_from_the_stored_vectors() throws Exception {
        List<String> selection;
        try (Engine writer = Engine.open(Engine.Options.of(dir))) {
            selection = shown(meeting(writer));
        }
        deleteTree(dir.resolve("index"));
        Map<String, String> before = files(dir);
        try (Engine reader = Engine.open(Engine.Options.of(dir).withReadOnly())) {
            assertThat(reader.indexInMemory()).isTrue();
            assertThat(reader.index().size()).isEqualTo(reader.catalog().size());
            assertThat(reader.modelLoaded()).as("no tool was embedded").isFalse();
            assertThat(shown(meeting(reader))).isEqualTo(selection);
            assertThat(reader.embeddedCount()).isZero();
        }
        assertThat(dir.resolve("index")).as("nothing rebuilt on disk").doesNotExist();
        assertThat(files(dir)).isEqualTo(before);
    }

    @Test
    void a_tool_with_no_stored_vector_is_an_error_since_a_read_only_opening_embeds_nothing() throws Exception {
        Engine.open(Engine.Options.of(dir)).close();
        // a tool stored without its vector, as between a writer's store commit and its embedding
        try (SqliteStateStore s = SqliteStateStore.open(dir.resolve("state.db"))) {
            s.applyCatalogChange(
                    List.of(ToolSpec.builder("echo__shout", "Repeats a message loudly.")
                            .build()),
                    List.of());
        }
        deleteTree(dir.resolve("index")); // else it waits for a writer to index the change first
        assertThatThrownBy(() -> Engine.open(Engine.Options.of(dir).withReadOnly()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("data directory " + dir + " holds tools with no stored vector of model '"
                        + LocalEmbeddingModels.DEFAULT_ID
                        + "' (at least 1), and a read-only opening embeds nothing: retry once "
                        + "the process that holds the directory has indexed them, or open it for writing with this model when "
                        + "no other process holds it");
    }

    @Test
    void a_store_of_another_schema_version_is_a_clear_error() throws Exception {
        Engine.open(Engine.Options.of(dir)).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO schema_version (version, applied_at_millis) VALUES (?, 0)")) {
            ps.setInt(1, Migrations.latestVersion() + 1);
            ps.executeUpdate();
        }
        assertThatThrownBy(() -> Engine.open(Engine.Options.of(dir).withReadOnly()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has schema version " + (Migrations.latestVersion() + 1) + ", newer than this "
                        + "ToolScout supports (up to " + Migrations.latestVersion() + ")");
    }

    @Test
    void a_directory_without_a_store_is_refused_and_nothing_is_created() {
        Path none = dir.resolve("none");
        assertThatThrownBy(() -> Engine.open(Engine.Options.of(none).withReadOnly()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "no ToolScout data directory at " + none + " (it holds no state.db); a read-only opening reads "
                                + "an existing one and creates nothing");
        assertThat(none).doesNotExist();
    }

    @Test
    void catalog_files_are_read_only_when_the_store_holds_their_tools_as_they_are() throws Exception {
        Path file = dir.resolve("weather.json");
        Path data = dir.resolve("data");
        Files.writeString(file, "{\"tools\":[{\"name\":\"weather__forecast\",\"description\":\"Weather forecast.\"}]}");
        Engine.open(Engine.Options.of(data).withCatalogs(List.of(file))).close();
        try (Engine reader =
                Engine.open(Engine.Options.of(data).withCatalogs(List.of(file)).withReadOnly())) {
            assertThat(reader.catalog().get("weather__forecast")).isPresent();
        }
        Files.writeString(
                file,
                "{\"tools\":[{\"name\":\"weather__forecast\",\"description\":\"Forecast, hourly.\"},"
                        + "{\"name\":\"weather__alerts\",\"description\":\"Storm alerts.\"}]}");
        assertThatThrownBy(() -> Engine.open(
                        Engine.Options.of(data).withCatalogs(List.of(file)).withReadOnly()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "catalog files [" + file + "]: 2 of their tools are not in data directory " + data + " as the "
                                + "files have them ('weather__forecast', 'weather__alerts'), and a read-only opening adds nothing; add "
                                + "them through the process that holds the directory, or open it for writing when none does");
        assertThatThrownBy(() -> Engine.Options.of(data).withReadOnly().withTools(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tools would be written to the data directory " + data
                        + ", which a read-only opening never " + "writes");
    }

    static void deleteTree(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
