package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.store.TestPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code toolscout serve} processes on one PostgreSQL store (a fresh schema on the test PostgreSQL,
 * {@link TestPostgres}): what one acknowledges the others select, a replica started on a store that holds the vectors
 * embeds nothing, and one killed with SIGKILL while another writes catches up after a restart, embedding nothing.
 */
class ReplicasProcessTest {
    private final TestPostgres.Server pg = TestPostgres.server();

    @TempDir
    Path dir;

    private String schema;
    private String store;
    private final List<Replica> replicas = new ArrayList<>();

    @BeforeEach
    void freshSchema() {
        schema = TestPostgres.newSchema("ts_replicas_");
        store = pg.url(schema);
    }

    @AfterEach
    void stopAndDrop() throws Exception {
        for (Replica r : replicas) {
            r.close();
        }
        pg.dropSchema(schema);
    }

    private Replica replica(String name) {
        Replica r = new Replica(name, store, dir);
        replicas.add(r);
        return r;
    }

    /** Polls {@code r}'s selection for {@code message} until it includes {@code tool} (bounded; not a timing check). */
    private static void awaitSelected(Replica r, String message, String tool) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        List<String> last = List.of();
        while (System.nanoTime() < deadline) {
            last = r.select(message);
            if (last.contains(tool)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(
                "replica " + r.name + " never selected " + tool + " for '" + message + "'; last: " + last);
    }

    @Test
    void a_tool_one_replica_acknowledges_is_selected_by_the_others_and_a_killed_one_catches_up_embedding_nothing()
            throws Exception {
        // A first: a new store gets the demo catalog, which A embeds once
        Replica a = replica("a").start().awaitReady();
        double demo = a.metric("toolscout_texts_embedded");
        assertThat(demo).isPositive();
        Replica b = replica("b").start();
        Replica c = replica("c").start();
        b.awaitReady();
        c.awaitReady();
        assertThat(b.metric("toolscout_texts_embedded"))
                .as("B found every vector in the store")
                .isZero();
        assertThat(c.metric("toolscout_texts_embedded"))
                .as("C found every vector in the store")
                .isZero();
        assertThat(b.metric("toolscout_store_connected")).isEqualTo(1.0);

        a.putTool(
                "ledger__reconcile_invoices",
                "Reconcile supplier invoices against the purchase ledger and flag " + "mismatched amounts.");
        String ask = "reconcile the supplier invoices with the purchase ledger";
        awaitSelected(b, ask, "ledger__reconcile_invoices");
        awaitSelected(c, ask, "ledger__reconcile_invoices");
        // whichever replica embedded the new tool's text (A usually; B or C when it got to the text's lock first), the
        // others used its vector
        assertThat(a.metric("toolscout_texts_embedded")
                        + b.metric("toolscout_texts_embedded")
                        + c.metric("toolscout_texts_embedded"))
                .as("the new text was embedded once, by one replica")
                .isEqualTo(demo + 1);

        // B killed while A writes; restarted on its data directory, it catches up from the store
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < 10; i++) {
                    a.putTool(
                            "fleet__service_truck_" + i,
                            "Book a maintenance service for delivery truck number " + i + " at the fleet garage.");
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        b.kill();
        writer.join();
        a.putTool("greenhouse__set_humidity", "Set the target air humidity of a greenhouse zone, in percent.");
        b.start().awaitReady();

        assertThat(b.metric("toolscout_texts_embedded"))
                .as("the restarted B embedded nothing")
                .isZero();
        awaitSelected(b, "raise the humidity in greenhouse zone 3 to 70 percent", "greenhouse__set_humidity");
        awaitSelected(b, "book a maintenance service for delivery truck number 7", "fleet__service_truck_7");
        awaitSelected(c, "raise the humidity in greenhouse zone 3 to 70 percent", "greenhouse__set_humidity");
        assertThat(a.metric("toolscout_texts_embedded") + c.metric("toolscout_texts_embedded"))
                .as("no text was embedded twice: the demo, then 12 new tools")
                .isLessThanOrEqualTo(demo + 12);
    }
}
