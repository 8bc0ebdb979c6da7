package dev.toolscout.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.events.EventBus;
import dev.toolscout.mcp.McpPeers;
import dev.toolscout.state.InMemoryStateStore;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream servers that misbehave (hang, answer garbage, answer 50 MB, die at start), registered together
 * with a healthy server-memory in one manager: each fault fails only its own server's calls, with an error
 * that names the server and what went wrong, while the memory server keeps answering and its tools stay in
 * the catalog. The fault servers are the real Node peers in {@code src/test/node/faults}.
 */
class UpstreamFaultTest {
    /**
     * Per-request timeout of the fault servers: short, so a hang costs the suite two seconds, not thirty. It
     * counts from when the server is up: starting Node has its own allowance ({@link UpstreamLimits#startTimeout},
     * 60 s), so a busy machine does not fail the registrations.
     */
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** 1 MiB cap, so huge.mjs's 50 MiB answer is far over it; a long backoff keeps a crashed server DOWN. */
    static final UpstreamLimits LIMITS =
            new UpstreamLimits(1024 * 1024, Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMinutes(5));

    static final String CAP = "1048576 bytes";

    @TempDir
    Path tmp;

    Catalog catalog;
    UpstreamManager manager;
    List<UpstreamManager.Registration> registrations;
    final AtomicInteger entities = new AtomicInteger();
    /** What the connections log, from registering to closing (every test registers 'Crash at start'). */
    LogCapture upstreamLog;

    @BeforeEach
    void registerAllTogether() {
        McpPeers.requireInstalled();
        upstreamLog = LogCapture.of(UpstreamConnection.class);
        catalog = Catalog.load(new InMemoryStateStore(), new EventBus(), Map.of());
        manager = new UpstreamManager(catalog, LIMITS);
        registrations = manager.registerAll(
                List.of(
                        McpPeers.node("KG", McpPeers.memory())
                                .withEnv(Map.of(
                                        "MEMORY_FILE_PATH",
                                        tmp.resolve("memory.jsonl").toString())),
                        McpPeers.node("Hang", "faults/hang.mjs").withTimeout(TIMEOUT),
                        McpPeers.node("Malformed", "faults/malformed.mjs").withTimeout(TIMEOUT),
                        McpPeers.node("Huge", "faults/huge.mjs").withTimeout(TIMEOUT),
                        McpPeers.node("Crash at start", "faults/crash-at-start.mjs")
                                .withTimeout(TIMEOUT)),
                Duration.ofSeconds(30));
    }

    @AfterEach
    void close() {
        try {
            manager.close();
            assertThat(upstreamLog.warnings())
                    .as("warnings of the connections")
                    .contains(CRASH_DOWN)
                    // each names a server that misbehaves on purpose
                    .allSatisfy(w -> assertThat(w).matches("MCP server '(Crash at start|Huge|Malformed|Hang)' .*"));
        } finally {
            upstreamLog.close();
        }
    }

    static final String CRASH_DOWN = "MCP server 'Crash at start' is down: process exited with code 3; stderr: "
            + "crash-at-start: refusing to start; reconnecting in 30000 ms";
    static final String HUGE_DROPPED =
            "MCP server 'Huge' sent a message over the cap of " + CAP + " (mcp.max-response-bytes); it was dropped";

    ServerStatus status(String server) {
        return manager.status(server).orElseThrow();
    }

    static String text(McpSchema.CallToolResult r) {
        return UpstreamManagerTest.text(r);
    }

    /** The healthy server still answers (a write and a read) and its tools are still in the catalog. */
    void assertMemoryStillServes() {
        String name = "Entity " + entities.incrementAndGet();
        McpSchema.CallToolResult created = manager.callCatalogTool(
                "kg__create_entities",
                Map.of(
                        "entities",
                        List.of(Map.of(
                                "name", name, "entityType", "test", "observations", List.of("survived a fault")))));
        assertThat(created.isError()).as(text(created)).isNotEqualTo(Boolean.TRUE);
        McpSchema.CallToolResult graph = manager.call("KG", "read_graph", Map.of());
        assertThat(text(graph)).contains(name).contains("survived a fault");

        assertThat(status("KG").state()).isEqualTo(ServerStatus.State.READY);
        assertThat(status("KG").lastError()).isNull();
        assertThat(catalog.get("kg__read_graph")).isPresent();
        assertThat(catalog.get("kg__create_entities")).isPresent();
        assertThat(catalog.snapshot().entries().stream()
                        .filter(e -> e.spec().name().source().equals("kg")))
                .hasSizeGreaterThanOrEqualTo(9);
    }

    @Test
    void registering_faulty_servers_with_a_healthy_one_fails_only_the_one_that_cannot_start() {
        assertThat(registrations)
                .extracting(UpstreamManager.Registration::name)
                .containsExactly("KG", "Hang", "Malformed", "Huge", "Crash at start");
        assertThat(registrations.subList(0, 4)).allSatisfy(r -> {
            assertThat(r).isInstanceOf(UpstreamManager.Registration.Success.class);
            assertThat(((UpstreamManager.Registration.Success) r).status().state())
                    .as(r.name())
                    .isEqualTo(ServerStatus.State.READY);
        });
        assertThat(registrations.get(4))
                .isInstanceOfSatisfying(
                        UpstreamManager.Registration.Failure.class,
                        f -> assertThat(f.error())
                                .contains("exited with code 3")
                                .contains("refusing to start"));

        assertThat(catalog.get("hang__slow_lookup")).isPresent();
        assertThat(catalog.get("malformed__broken_echo")).isPresent();
        assertThat(catalog.get("huge__dump_everything")).isPresent();
        assertMemoryStillServes();
    }

    @Test
    void hanging_call_times_out_naming_the_server_and_degrades_only_that_server() {
        assertThatThrownBy(() -> manager.call("Hang", "slow_lookup", Map.of("id", "42")))
                .isInstanceOfSatisfying(UpstreamException.class, e -> {
                    assertThat(e.kind()).isEqualTo(UpstreamException.Kind.TIMEOUT);
                    assertThat(e.server()).isEqualTo("Hang");
                    assertThat(e.retriable()).isTrue();
                })
                .hasMessageContaining("MCP server 'Hang'")
                .hasMessageContaining("did not answer tools/call 'slow_lookup' within 2000 ms");

        ServerStatus hang = status("Hang");
        assertThat(hang.state()).isEqualTo(ServerStatus.State.DEGRADED);
        assertThat(hang.lastError()).contains("did not answer tools/call 'slow_lookup' within 2000 ms");
        // a slow tool is not a missing tool: it stays selectable
        assertThat(catalog.get("hang__slow_lookup")).isPresent();
        assertMemoryStillServes();
    }

    /**
     * A hanging server that never times out within the test (the timeout is not what this is about): its call
     * ends when the server is removed, so nothing here depends on how fast the machine is.
     */
    void registerEndlessHang() throws InterruptedException {
        manager.register(McpPeers.node("Endless", "faults/hang.mjs").withTimeout(Duration.ofMinutes(10)));
        UpstreamManagerTest.await(
                "'Endless' is ready",
                Duration.ofMinutes(2),
                () -> status("Endless").state() == ServerStatus.State.READY);
    }

    @Test
    void hanging_call_does_not_block_a_concurrent_call_to_another_server() throws Exception {
        registerEndlessHang();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Throwable> hanging = CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            manager.call("Endless", "slow_lookup", Map.of("id", "7"));
                            return null;
                        } catch (RuntimeException e) {
                            return e;
                        }
                    },
                    pool);
            UpstreamManagerTest.await(
                    "the hanging call is in progress",
                    Duration.ofMinutes(1),
                    () -> manager.callsInProgress("Endless") == 1);

            McpSchema.CallToolResult graph = manager.call("KG", "read_graph", Map.of());

            // memory answered while the hanging call was still waiting for its answer
            assertThat(hanging).as("the hanging call, when memory answered").isNotDone();
            assertThat(text(graph)).contains("entities");
            assertMemoryStillServes();
            assertThat(hanging)
                    .as("the hanging call, after memory answered twice more")
                    .isNotDone();

            manager.unregister("Endless");
            Throwable failure = hanging.get(1, TimeUnit.MINUTES);
            assertThat(failure)
                    .isInstanceOfSatisfying(
                            UpstreamException.class, e -> assertThat(e.kind()).isEqualTo(UpstreamException.Kind.DOWN))
                    .hasMessage("MCP server 'Endless': was removed");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void a_hanging_server_holds_at_most_its_call_cap_and_one_more_call_is_refused_as_busy() throws Exception {
        registerEndlessHang();
        int cap = UpstreamLimits.DEFAULT_MAX_CONCURRENT_CALLS;
        ExecutorService pool = Executors.newFixedThreadPool(cap);
        try {
            List<CompletableFuture<Throwable>> hanging = new java.util.ArrayList<>();
            for (int i = 0; i < cap; i++) {
                String id = "call " + i;
                hanging.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                manager.call("Endless", "slow_lookup", Map.of("id", id));
                                return null;
                            } catch (RuntimeException e) {
                                return e;
                            }
                        },
                        pool));
            }
            UpstreamManagerTest.await(
                    cap + " hanging calls are in progress",
                    Duration.ofMinutes(1),
                    () -> manager.callsInProgress("Endless") == cap);

            assertThatThrownBy(() -> manager.call("Endless", "slow_lookup", Map.of("id", "one more")))
                    .isInstanceOfSatisfying(UpstreamException.class, e -> {
                        assertThat(e.kind()).isEqualTo(UpstreamException.Kind.BUSY);
                        assertThat(e.retriable()).isTrue();
                    })
                    .hasMessage("MCP server 'Endless': is busy: " + cap + " calls to it are in progress, the most one "
                            + "server may have (--max-upstream-calls); try again when one has ended");
            // the other servers are not held up
            assertMemoryStillServes();

            manager.unregister("Endless");
            for (CompletableFuture<Throwable> h : hanging) {
                assertThat(h.get(1, TimeUnit.MINUTES))
                        .isInstanceOfSatisfying(
                                UpstreamException.class,
                                e -> assertThat(e.kind()).isEqualTo(UpstreamException.Kind.DOWN));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void hanging_servers_together_hold_at_most_the_total_call_cap_and_one_more_call_is_refused_as_busy()
            throws Exception {
        // a manager of its own: two calls per server, three over all servers, so two hanging servers reach the
        // total before either reaches its own cap
        UpstreamManager small = new UpstreamManager(
                Catalog.load(new InMemoryStateStore(), new EventBus(), Map.of()),
                LIMITS.withMaxConcurrentCalls(2).withMaxTotalCalls(3));
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (String name : List.of("Endless A", "Endless B")) {
                small.register(McpPeers.node(name, "faults/hang.mjs").withTimeout(Duration.ofMinutes(10)));
                UpstreamManagerTest.await(
                        "'" + name + "' is ready",
                        Duration.ofMinutes(2),
                        () -> small.status(name).orElseThrow().state() == ServerStatus.State.READY);
            }
            List<CompletableFuture<Throwable>> hanging = new java.util.ArrayList<>();
            for (String name : List.of("Endless A", "Endless A", "Endless B")) {
                hanging.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                small.call(name, "slow_lookup", Map.of("id", "x"));
                                return null;
                            } catch (RuntimeException e) {
                                return e;
                            }
                        },
                        pool));
            }
            UpstreamManagerTest.await(
                    "three hanging calls are in progress",
                    Duration.ofMinutes(1),
                    () -> small.callsInProgress("Endless A") == 2 && small.callsInProgress("Endless B") == 1);

            // B holds one call of its two, yet the gateway's total is reached
            assertThatThrownBy(() -> small.call("Endless B", "slow_lookup", Map.of("id", "one more")))
                    .isInstanceOfSatisfying(UpstreamException.class, e -> {
                        assertThat(e.kind()).isEqualTo(UpstreamException.Kind.BUSY);
                        assertThat(e.retriable()).isTrue();
                    })
                    .hasMessage("MCP server 'Endless B': is busy: 3 calls to MCP servers are in progress, the most the "
                            + "gateway allows at once (--max-upstream-calls-total); try again when one has ended");
            // a refused call leaves B's own slot free
            assertThat(small.callsInProgress("Endless B")).isEqualTo(1);

            // removing the servers ends their calls: each fails (as removed, or as the closed stream it was reading)
            small.unregister("Endless A");
            small.unregister("Endless B");
            for (CompletableFuture<Throwable> h : hanging) {
                assertThat(h.get(1, TimeUnit.MINUTES)).isInstanceOf(UpstreamException.class);
            }
        } finally {
            pool.shutdownNow();
            small.close();
        }
    }

    @Test
    void malformed_answer_fails_the_call_saying_the_server_sent_a_line_that_is_not_json_rpc() {
        assertThatThrownBy(() -> manager.call("Malformed", "broken_echo", Map.of("message", "hello")))
                .isInstanceOfSatisfying(UpstreamException.class, e -> {
                    assertThat(e.kind()).isIn(UpstreamException.Kind.TIMEOUT, UpstreamException.Kind.PROTOCOL);
                    assertThat(e.server()).isEqualTo("Malformed");
                })
                .hasMessageContaining("MCP server 'Malformed'")
                .hasMessageContaining("tools/call 'broken_echo'")
                .hasMessageContaining("sent a line that is not JSON-RPC");

        ServerStatus malformed = status("Malformed");
        assertThat(malformed.state()).isEqualTo(ServerStatus.State.DEGRADED);
        assertThat(malformed.lastError()).contains("not JSON-RPC");
        assertThat(upstreamLog.warnings())
                .contains("MCP server 'Malformed' sent a line that is not JSON-RPC: 'this is not json'");
        assertMemoryStillServes();
    }

    @Test
    void fifty_megabyte_answer_fails_the_call_at_once_as_too_large_naming_the_cap() {
        assertThatThrownBy(() -> manager.call("Huge", "dump_everything", Map.of()))
                .isInstanceOfSatisfying(UpstreamException.class, e -> {
                    // TOO_LARGE, not TIMEOUT: the call was answered with an error, it did not wait out the timeout
                    assertThat(e.kind()).isEqualTo(UpstreamException.Kind.TOO_LARGE);
                    assertThat(e.retriable()).isFalse();
                    assertThat(e.server()).isEqualTo("Huge");
                })
                .hasMessageContaining("MCP server 'Huge'")
                .hasMessageContaining("tools/call 'dump_everything'")
                .hasMessageContaining("over the cap of " + CAP);

        assertThat(status("Huge").lastError()).contains("over the cap of " + CAP);
        assertMemoryStillServes();
        // the dropped line left the stream in step: the next call gets its own answer (the same error), not the
        // rest of the last one
        assertThatThrownBy(() -> manager.call("Huge", "dump_everything", Map.of()))
                .isInstanceOfSatisfying(
                        UpstreamException.class, e -> assertThat(e.kind()).isEqualTo(UpstreamException.Kind.TOO_LARGE));
        // each dropped message is logged once
        assertThat(upstreamLog.warnings()).filteredOn(HUGE_DROPPED::equals).hasSize(2);
    }

    @Test
    void servers_that_never_answer_initialize_do_not_hold_up_connecting_another_server() throws Exception {
        // processes that start and then say nothing: each connect waits out its whole initialize timeout
        Duration silence = Duration.ofSeconds(60);
        for (String name : List.of("Silent A", "Silent B", "Silent C")) {
            manager.register(ServerConfig.stdio(name, "node", List.of("-e", "setInterval(() => {}, 60000)"))
                    .withCwd(McpPeers.DIR)
                    .withTimeout(silence));
        }
        manager.register(McpPeers.node("Memory two", McpPeers.memory())
                .withEnv(Map.of(
                        "MEMORY_FILE_PATH", tmp.resolve("memory-two.jsonl").toString())));

        UpstreamManagerTest.await(
                "'Memory two' is ready",
                Duration.ofSeconds(20),
                () -> status("Memory two").state() == ServerStatus.State.READY);

        // ready while the silent ones are still waiting for their initialize answer
        for (String name : List.of("Silent A", "Silent B", "Silent C")) {
            assertThat(status(name).state()).as(name).isEqualTo(ServerStatus.State.CONNECTING);
        }
        assertThat(text(manager.call("Memory two", "read_graph", Map.of()))).contains("entities");
        assertMemoryStillServes();
    }

    @Test
    void a_server_slower_to_start_than_its_request_timeout_still_connects_and_answers() throws Exception {
        // three seconds of silence at start against a one-second request timeout: what a busy machine does to
        // Node; the start has its own allowance (UpstreamLimits.startTimeout), the calls keep the short timeout
        manager.register(
                McpPeers.node("Slow start", "faults/slow-start.mjs", "3000").withTimeout(Duration.ofSeconds(1)));
        UpstreamManagerTest.await(
                "'Slow start' has had its first connect attempt",
                Duration.ofMinutes(2),
                () -> status("Slow start").state() != ServerStatus.State.CONNECTING);

        assertThat(status("Slow start").state())
                .as(String.valueOf(status("Slow start").lastError()))
                .isEqualTo(ServerStatus.State.READY);
        assertThat(text(manager.call("Slow start", "quick_echo", Map.of("message", "up"))))
                .isEqualTo("up");
    }

    @Test
    void server_that_exits_at_start_is_down_with_its_exit_code_and_stderr_and_lists_no_tools() {
        ServerStatus crash = status("Crash at start");
        assertThat(crash.state()).isEqualTo(ServerStatus.State.DOWN);
        assertThat(crash.lastError()).contains("exited with code 3").contains("crash-at-start: refusing to start");
        assertThat(crash.nextRetry()).isNotNull();
        assertThat(crash.tools()).isZero();
        assertThat(upstreamLog.warnings()).containsOnlyOnce(CRASH_DOWN);
        assertThat(catalog.snapshot().hasSource("crash_at_start")).isFalse();
        assertThat(catalog.snapshot().entries())
                .extracting(CatalogEntry::name)
                .noneMatch(n -> n.startsWith("crash_at_start__"));

        // its tools were never listed, so any tool name gets "down", the error the caller can retry on
        assertThatThrownBy(() -> manager.call("Crash at start", "anything", Map.of()))
                .isInstanceOfSatisfying(UpstreamException.class, e -> {
                    assertThat(e.kind()).isEqualTo(UpstreamException.Kind.DOWN);
                    assertThat(e.retriable()).isTrue();
                })
                .hasMessageContaining("MCP server 'Crash at start'")
                .hasMessageContaining("exited with code 3");
        assertMemoryStillServes();
    }
}
