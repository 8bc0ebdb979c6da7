package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.Approvals;
import dev.toolscout.indexing.ToolIndexer;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.store.PostgresChangeFeed;
import dev.toolscout.store.PostgresUrl;
import dev.toolscout.store.StoreException;
import dev.toolscout.store.TestPostgres;
import dev.toolscout.testing.LogCapture;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Two engines (replicas) on one PostgreSQL store, in one JVM: what one writes the other applies; an approval granted
 * through one releases the call through the other; a replica that loses the server (a proxy cut between them) says so, keeps
 * selecting from its last state, refuses writes naming the store, and catches up when the server is back.
 */
@ResourceLock(LogCapture.LOGGERS)
class ReplicaEngineTest {
    private final TestPostgres.Server pg = TestPostgres.server();
    private final String schema = TestPostgres.newSchema("ts_engine_");

    @TempDir
    Path dir;

    @AfterEach
    void drop() throws Exception {
        pg.dropSchema(schema);
    }

    /** The test store's address. */
    private String store() {
        return pg.url(schema);
    }

    /** The test store's address through {@code proxy}. */
    private String store(TcpProxy proxy) {
        return pg.at(InetAddress.getLoopbackAddress().getHostAddress(), proxy.port())
                .url(schema);
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static List<String> selected(Engine e, String message) {
        Selection s = e.selector().select(Selector.Request.of(message, Principal.ANONYMOUS));
        return s.selected().stream().map(Selection.SelectedTool::name).toList();
    }

    private static ToolSpec tool(String name, String description) {
        return ToolSpec.builder(name, description).build();
    }

    @Test
    void a_replica_starting_on_a_shared_store_counts_no_definition_another_counted() throws Exception {
        try (Engine a = Engine.open(Engine.Options.of(dir.resolve("a")).withStore(store()))) {
            java.util.Set<String> hashes = new java.util.HashSet<>();
            a.catalog().snapshot().entries().forEach(e -> hashes.add(e.contentHash()));
            // A's indexer stores the counts in the background once its start is indexed
            await(
                    "A stored every tool's count",
                    () -> a.store()
                                    .loadTokenCounts(dev.toolscout.render.TokenCounter.DEFAULT_IDENTITY, hashes)
                                    .size()
                            == hashes.size());

            try (Engine b = Engine.open(Engine.Options.of(dir.resolve("b")).withStore(store()))) {
                assertThat(b.tokenCountsLoaded()).isGreaterThanOrEqualTo(hashes.size());
                dev.toolscout.catalog.Catalog.Snapshot snap = b.catalog().snapshot();
                dev.toolscout.render.StoredTokenCounts.Sum all =
                        b.tokenCounts().allowedTokens(snap, b.access().allowed(snap, Principal.ANONYMOUS));

                assertThat(b.tokens().countedDefinitions()).isZero();
                assertThat(all)
                        .isEqualTo(new dev.toolscout.render.StoredTokenCounts.Sum(
                                new dev.toolscout.render.TokenCounter()
                                        .allowedTokens(snap, b.access().allowed(snap, Principal.ANONYMOUS)),
                                0));
            }
        }
    }

    @Test
    void a_replica_that_loses_the_store_serves_reads_refuses_writes_and_catches_up_when_it_is_back() throws Exception {
        // the cut is on purpose: what B's change feed, its connection pool and its indexer say about it is captured
        // (they are closed with B, so nothing is logged after the captures)
        try (LogCapture feedLog = LogCapture.of(PostgresChangeFeed.class);
                LogCapture poolLog = LogCapture.of("com.zaxxer.hikari.pool.ProxyConnection");
                LogCapture indexerLog = LogCapture.of(ToolIndexer.class);
                TcpProxy proxy = new TcpProxy(pg.host(), pg.port());
                Engine a = Engine.open(Engine.Options.of(dir.resolve("a")).withStore(store()));
                Engine b = Engine.open(Engine.Options.of(dir.resolve("b")).withStore(store(proxy)))) {
            assertThat(b.embeddedCount()).as("B found A's vectors").isZero();
            await("B follows the store", b::storeReady);
            a.index(List.of(
                    tool("ledger__reconcile_invoices", "Reconcile supplier invoices against the purchase ledger.")));
            // B's catalog holds the tool once it applied the change, its index a moment later (indexing runs from B's
            // own queue): what a replica promises is that its selections include the tool soon, not at once
            await(
                    "B selects A's tool",
                    () -> selected(b, "reconcile supplier invoices with the ledger")
                            .contains("ledger__reconcile_invoices"));

            proxy.cut();
            await("B reports the store lost", () -> !b.storeReady());
            assertThat(selected(b, "reconcile supplier invoices with the ledger"))
                    .as("reads are served from the last state")
                    .contains("ledger__reconcile_invoices");
            assertThatThrownBy(() -> b.index(List.of(tool("fleet__book_service", "Book a truck service."))))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining(
                            "state store " + PostgresUrl.parse(store(proxy)).display())
                    .hasMessageContaining("cannot");
            assertThat(b.catalog().get("fleet__book_service"))
                    .as("nothing half-written")
                    .isEmpty();
            a.index(List.of(tool("greenhouse__set_humidity", "Set the target air humidity of a greenhouse zone.")));

            proxy.restore();
            await("B follows the store again", b::storeReady);
            await(
                    "B catches up with what A wrote meanwhile",
                    () -> selected(b, "raise the humidity of greenhouse zone 3").contains("greenhouse__set_humidity"));
            String display = PostgresUrl.parse(store(proxy)).display();
            assertThat(feedLog.warnings())
                    .anySatisfy(w -> assertThat(w).startsWith("change feed of " + display + ": lost the server"));
            assertThat(poolLog.warnings())
                    .allSatisfy(w -> assertThat(w).contains("marked as broken because of SQLSTATE(08006)"));
            // whether B was counting tokens at the cut is a matter of timing; if it was, it names the store
            assertThat(indexerLog.warnings()).allSatisfy(w -> assertThat(w).contains("state store " + display));
        }
    }

    @Test
    void an_approval_granted_through_one_replica_is_seen_by_the_other() throws Exception {
        try (Engine a = Engine.open(Engine.Options.of(dir.resolve("a")).withStore(store()));
                Engine b = Engine.open(Engine.Options.of(dir.resolve("b")).withStore(store()))) {
            Approvals.Outcome filed = a.approvals()
                    .request(
                            Approvals.Channel.GATEWAY,
                            null,
                            "key:alice",
                            "gmail__send_email",
                            java.util.Map.of("to", "bob"));
            assertThat(filed).isInstanceOf(Approvals.Outcome.Held.class);
            String id = filed.request().id();
            assertThat(b.approvals().get(id).status()).isEqualTo(ApprovalStatus.PENDING);

            b.approvals().decide(id, true, Approvals.Approver.operator("root"));

            // the requester's identical call, now through A, runs once
            assertThat(a.approvals()
                            .request(
                                    Approvals.Channel.GATEWAY,
                                    null,
                                    "key:alice",
                                    "gmail__send_email",
                                    java.util.Map.of("to", "bob")))
                    .isInstanceOf(Approvals.Outcome.Run.class);
            assertThat(b.approvals().get(id).status()).isEqualTo(ApprovalStatus.USED);
        }
    }

    @Test
    void a_memory_and_a_learned_pair_written_through_one_replica_reach_the_other_without_a_restart() throws Exception {
        Principal ann = new Principal("ann", null, null);
        try (Engine a = Engine.open(Engine.Options.of(dir.resolve("a")).withStore(store()));
                Engine b = Engine.open(Engine.Options.of(dir.resolve("b")).withStore(store()))) {
            dev.toolscout.memory.Memory rex = a.memories()
                    .store(
                            ann,
                            dev.toolscout.memory.MemoryScope.USER,
                            dev.toolscout.memory.MemoryType.FACT,
                            "My dog is called Rex and he is a beagle.",
                            null);

            await(
                    "B reads and finds A's memory",
                    () -> b.memories().get(ann, rex.id()).isPresent()
                            && b.memories().search(ann, "what is my dog called", null, 5).stream()
                                    .anyMatch(h -> h.memory().id().equals(rex.id())));
            assertThat(b.memories().get(new Principal("bob", null, null), rex.id()))
                    .isEmpty();

            assertThat(a.memories().forget(ann, rex.id())).isTrue();
            await(
                    "B forgot it too",
                    () -> b.memories().get(ann, rex.id()).isEmpty()
                            && b.memories()
                                    .search(ann, "what is my dog called", null, 5)
                                    .isEmpty());

            assertThat(b.learned().messages()).isZero();
            a.learned()
                    .learn(
                            List.of(new dev.toolscout.learning.LearnedPair(
                                    "mail the quarterly numbers to Bob",
                                    List.of("gmail__send_email"),
                                    null,
                                    null,
                                    java.time.Instant.now())),
                            a.catalog().snapshot());
            await("B learned A's pair", () -> b.learned().messages() == 1);
        }
    }
}
