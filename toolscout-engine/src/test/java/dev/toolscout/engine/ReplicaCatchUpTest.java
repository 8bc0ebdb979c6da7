package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.store.TestPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three engines (replicas) on one PostgreSQL store: every tool written through one is searchable on each of the
 * others once its catalog has reached the writer's version and its indexer has indexed through it (no polling of
 * the index: the wait is on the replica's own signals), each text is embedded once across the three, and each
 * catch-up is timed by stage.
 */
class ReplicaCatchUpTest {
    private static final int WRITES = 12;

    private final TestPostgres.Server pg = TestPostgres.server();
    private final String schema = TestPostgres.newSchema("ts_catchup_");

    @TempDir
    Path dir;

    @AfterEach
    void drop() throws Exception {
        pg.dropSchema(schema);
    }

    private Engine open(String name) throws java.io.IOException {
        return Engine.open(Engine.Options.of(dir.resolve(name)).withStore(pg.url(schema)));
    }

    /** A replica's catalog signals: each batch of changes it applied from the store. */
    private static BlockingQueue<Object> applied(Engine e) {
        BlockingQueue<Object> q = new LinkedBlockingQueue<>();
        e.replicaSync().subscribe(q::add);
        return q;
    }

    /** Waits, on the replica's signals, until its catalog is at {@code version} and its index holds it all. */
    private static void awaitCaughtUp(Engine e, BlockingQueue<Object> applied, long version)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (e.catalog().version() < version) {
            long left = deadline - System.nanoTime();
            assertThat(left).as("replica's catalog reaches version " + version).isPositive();
            applied.poll(left, TimeUnit.NANOSECONDS);
        }
        e.indexer().awaitIndexedThrough(version);
    }

    private static List<String> selected(Engine e, String message) {
        Selection s = e.selector().select(Selector.Request.of(message, Principal.ANONYMOUS));
        return s.selected().stream().map(Selection.SelectedTool::name).toList();
    }

    private static final String[] THINGS = {
        "greenhouse humidity", "forklift battery", "payroll export", "telescope mirror", "bakery oven",
        "ferry timetable", "vaccine freezer", "library fines", "solar inverter", "parking permit",
        "orchard irrigation", "museum audio guide"
    };

    @Test
    void every_write_on_one_replica_is_searchable_on_each_other_once_caught_up_and_embedded_once_between_them()
            throws Exception {
        try (Engine a = open("a");
                Engine b = open("b");
                Engine c = open("c")) {
            BlockingQueue<Object> bApplied = applied(b);
            BlockingQueue<Object> cApplied = applied(c);
            List<ReplicaCatchUp> bCatchUps = new CopyOnWriteArrayList<>();
            b.replicaSync().onCatchUp(bCatchUps::add);
            long embeddedBefore = a.embeddedCount() + b.embeddedCount() + c.embeddedCount();

            List<ToolSpec> written = new ArrayList<>();
            long version = 0;
            for (int i = 0; i < WRITES; i++) {
                ToolSpec t = ToolSpec.builder(
                                "probe__tool_" + i, "Check the " + THINGS[i] + " and report what needs attention.")
                        .build();
                written.add(t);
                version = a.index(List.of(t)).version(); // one write at a time, as the replica bench makes them
            }

            for (Engine reader : List.of(b, c)) {
                awaitCaughtUp(reader, reader == b ? bApplied : cApplied, version);
                for (ToolSpec t : written) {
                    assertThat(reader.catalog().get(t.fullName()))
                            .as(t.fullName())
                            .isPresent();
                    assertThat(reader.index().ordinals()).containsKey(t.fullName());
                    assertThat(selected(reader, t.description()))
                            .as(t.description())
                            .contains(t.fullName());
                }
            }
            // a reader embeds a text only when it reaches it before the writer stored its vector; then the writer
            // reads the reader's: never twice between the three
            assertThat(a.embeddedCount() + b.embeddedCount() + c.embeddedCount() - embeddedBefore)
                    .isEqualTo(WRITES);
            assertThat(bCatchUps).as("B timed its catch-ups").isNotEmpty();
            for (ReplicaCatchUp r : bCatchUps) {
                // one write each, or several when B read them from the log together
                assertThat(r.tools()).isBetween(1, WRITES);
                assertThat(r.stages().values()).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ZERO));
                Duration timed = r.stages().entrySet().stream()
                        .filter(s -> !s.getKey().equals("total"))
                        .map(java.util.Map.Entry::getValue)
                        .reduce(Duration.ZERO, Duration::plus);
                // the stages follow one another (both clocks are this host's, at millisecond resolution for two)
                assertThat(r.total().plusMillis(2)).isGreaterThanOrEqualTo(timed);
            }
        }
    }
}
