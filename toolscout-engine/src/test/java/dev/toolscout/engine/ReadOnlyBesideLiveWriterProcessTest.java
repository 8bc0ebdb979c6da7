package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.discovery.DiscoveryResult;
import dev.toolscout.model.Principal;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-only engines opened again and again beside a writer in another JVM that keeps changing the catalog: each
 * sees one committed catalog, with an index that holds exactly it (the writer's committed index, or one built in
 * memory while the writer is between a store change and its index commit).
 */
class ReadOnlyBesideLiveWriterProcessTest {
    @TempDir
    Path dir;

    @Test
    void every_read_only_open_beside_a_live_writer_sees_one_catalog_and_an_index_of_exactly_it() throws Exception {
        Path data = dir.resolve("data");
        Engine.open(Engine.Options.of(data)).close(); // the demo, embedded once, so the writer starts at once
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = dir.resolve("writer-output.txt");
        Process writer = new ProcessBuilder(
                        java.toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        LiveEngineWriter.class.getName(),
                        data.toString())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            awaitOutput(writer, output, "WRITING");

            TreeSet<Long> versions = new TreeSet<>();
            // five opens at least, until two have seen different catalogs; at most 30
            for (int i = 0; i < 30 && (i < 5 || versions.size() < 2); i++) {
                try (Engine reader = Engine.open(Engine.Options.of(data).withReadOnly())) {
                    versions.add(reader.catalog().version());
                    Map<String, Integer> ords = new HashMap<>();
                    for (CatalogEntry e : reader.catalog().snapshot().entries()) {
                        ords.put(e.name(), e.ord());
                    }
                    assertThat(reader.index().ordinals())
                            .as("the index holds exactly the catalog, by ordinal")
                            .isEqualTo(ords);
                    long live = ords.keySet().stream()
                            .filter(n -> n.startsWith("live__"))
                            .count();
                    assertThat(live)
                            .as("the writer keeps at most three live tools")
                            .isBetween(1L, 3L);

                    Selection s =
                            reader.selector().select(Selector.Request.of("live tool number", Principal.ANONYMOUS));
                    assertThat(s.selected())
                            .anySatisfy(t -> assertThat(t.name()).startsWith("live__"));
                    assertThat(s.selected())
                            .allSatisfy(t -> assertThat(
                                            t.name().startsWith("tool_discovery__") || ords.containsKey(t.name()))
                                    .as(t.name())
                                    .isTrue());
                    assertThat(reader.discovery().find(Principal.ANONYMOUS, "live tool", 10))
                            .isInstanceOf(DiscoveryResult.Ok.class);
                }
            }
            assertThat(versions).as("the readers saw the writer's changes").hasSizeGreaterThanOrEqualTo(2);
            assertThat(writer.isAlive())
                    .as("the writer kept writing beside the readers")
                    .isTrue();
        } finally {
            writer.destroyForcibly();
            writer.waitFor(60, TimeUnit.SECONDS);
        }
    }

    /** Waits for the child to print {@code line}; fails with its output if it exits first (a bound, not timing). */
    static void awaitOutput(Process child, Path output, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!Files.exists(output) || !Files.readString(output).contains(line)) {
            if (!child.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the child did not print " + line + "; its output: "
                        + (Files.exists(output) ? Files.readString(output) : "none"));
            }
            Thread.sleep(100);
        }
    }
}
