package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.indexing.CachedEmbeddings;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.Principal;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.store.SqliteStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kill -9 of a real child JVM while it indexes: nothing acknowledged is lost, and nothing embedded is embedded again. */
class IndexingCrashTest {
    @TempDir
    Path dir;

    @Test
    void a_kill_during_indexing_loses_no_acknowledged_write_and_the_restart_embeds_only_what_was_not_embedded()
            throws Exception {
        Path data = dir.resolve("data");
        Engine.open(Engine.Options.of(data)).close(); // the demo, embedded once
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = dir.resolve("writer-output.txt");
        Process child = new ProcessBuilder(
                        java.toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        IndexingCrashWriter.class.getName(),
                        data.toString())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        List<String> acked = new ArrayList<>();
        try {
            ReadOnlyBesideLiveWriterProcessTest.awaitOutput(child, output, "ACKED");
            // and at least one batch of the large change embedded and stored: the kill lands in the middle of it
            ReadOnlyBesideLiveWriterProcessTest.awaitOutput(child, output, "EMBEDDED ");
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no close
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        for (String line : Files.readAllLines(output)) {
            if (line.startsWith("ACK ")) {
                acked.add(line.split(" ")[1]);
            }
        }
        assertThat(acked).hasSize(IndexingCrashWriter.SMALL);

        // what the store holds after the kill: every tool of the large change, and vectors for only some of them
        int total;
        int stored;
        try (SqliteStateStore s = SqliteStateStore.open(data.resolve("state.db"))) {
            var catalog = s.loadCatalog();
            total = catalog.tools().size();
            List<String> hashes = new ArrayList<>();
            catalog.tools().forEach(t -> hashes.add(CachedEmbeddings.hash(ToolText.embeddingText(t))));
            stored = s.loadVectors(dev.toolscout.embeddings.LocalEmbeddingModels.DEFAULT_ID, hashes)
                    .size();
        }
        assertThat(stored)
                .as("some of the large change was embedded before the kill")
                .isGreaterThan(0);
        assertThat(total - stored)
                .as("the kill came before the large change was all embedded")
                .isGreaterThan(0);

        try (Engine e = Engine.open(Engine.Options.of(data))) {
            for (String name : acked) {
                assertThat(e.catalog().get(name)).as(name).isPresent();
            }
            assertThat(e.catalog().size()).isEqualTo(total);
            // caught up: the index holds exactly the catalog, by ordinal
            Map<String, Integer> ords = new HashMap<>();
            for (CatalogEntry c : e.catalog().snapshot().entries()) {
                ords.put(c.name(), c.ord());
            }
            assertThat(e.index().ordinals()).isEqualTo(ords);
            assertThat(e.index().committedVersion()).isEqualTo(e.catalog().version());
            // only what had no stored vector was embedded
            assertThat(e.embeddedCount()).isEqualTo(total - stored);
            Selection sel =
                    e.selector().select(Selector.Request.of("check that host number 3 answers", Principal.ANONYMOUS));
            assertThat(sel.selected()).anySatisfy(t -> assertThat(t.name()).isEqualTo("other3__ping"));
        }
    }
}
