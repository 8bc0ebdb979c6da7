package dev.toolscout.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.events.EventBus;
import dev.toolscout.mcp.McpPeers;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.InMemoryStateStore;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The upstream manager against the real reference servers from npm, over stdio and Streamable HTTP. */
class UpstreamManagerTest {
    static final UpstreamLimits FAST =
            new UpstreamLimits(1024 * 1024, Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofMinutes(5));

    @TempDir
    Path tmp;

    InMemoryStateStore store;
    Catalog catalog;
    UpstreamManager manager;
    final List<ServerStatus> transitions = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        McpPeers.requireInstalled();
        store = new InMemoryStateStore();
        catalog = Catalog.load(store, new EventBus(), Map.of());
        manager = new UpstreamManager(catalog, FAST);
        manager.onStatus(transitions::add);
    }

    @AfterEach
    void close() {
        manager.close();
    }

    ServerConfig memoryServer() {
        return McpPeers.node("KG", McpPeers.memory())
                .withEnv(Map.of("MEMORY_FILE_PATH", tmp.resolve("memory.jsonl").toString()));
    }

    static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        for (McpSchema.Content c : r.content()) {
            if (c instanceof McpSchema.TextContent t) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    static void await(String what, Duration max, BooleanSupplier condition) throws InterruptedException {
        await(what, max, condition, () -> "");
    }

    static void await(String what, Duration max, BooleanSupplier condition, java.util.function.Supplier<String> state)
            throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + max + " waiting until " + what + "; " + state.get());
            }
            Thread.sleep(25);
        }
    }

    @Test
    void stdio_server_tools_enter_the_catalog_named_by_server_and_calls_reach_it() {
        List<UpstreamManager.Registration> r = manager.registerAll(List.of(memoryServer()), Duration.ofSeconds(20));

        assertThat(r).singleElement().isInstanceOf(UpstreamManager.Registration.Success.class);
        ServerStatus s = manager.status("KG").orElseThrow();
        assertThat(s.state()).isEqualTo(ServerStatus.State.READY);
        assertThat(s.prefix()).isEqualTo("kg");
        assertThat(s.tools()).isGreaterThanOrEqualTo(9);
        CatalogEntry create = catalog.get("kg__create_entities").orElseThrow();
        assertThat(create.spec().sourceKind()).isEqualTo(SourceKind.MCP);
        assertThat(create.spec().parameters().path("properties").has("entities"))
                .isTrue();
        assertThat(catalog.get("kg__read_graph").orElseThrow().spec().sideEffect())
                .isEqualTo(SideEffect.READ);

        manager.callCatalogTool(
                "kg__create_entities",
                Map.of(
                        "entities",
                        List.of(Map.of(
                                "name",
                                "Ada",
                                "entityType",
                                "person",
                                "observations",
                                List.of("wrote the first program")))));
        McpSchema.CallToolResult graph = manager.call("KG", "read_graph", Map.of());

        assertThat(graph.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(graph)).contains("Ada").contains("wrote the first program");
    }

    @Test
    void killed_stdio_server_goes_down_with_a_clear_error_and_comes_back() throws Exception {
        try (LogCapture log = LogCapture.of(UpstreamConnection.class)) {
            killedStdioServerGoesDownAndComesBack();
            assertThat(log.warnings())
                    .anySatisfy(m -> assertThat(m).startsWith("MCP server 'KG' is down: process exited with code 137"));
        }
    }

    private void killedStdioServerGoesDownAndComesBack() throws Exception {
        manager.registerAll(List.of(memoryServer()), Duration.ofSeconds(20));
        long pid = manager.pid("KG");
        assertThat(pid).isPositive();

        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        await(
                "the server is seen down",
                Duration.ofSeconds(10),
                () -> manager.status("KG").orElseThrow().state() != ServerStatus.State.READY);

        ServerStatus down = manager.status("KG").orElseThrow();
        assertThat(down.lastError()).contains("process exited with code 137");
        assertThat(transitions).anySatisfy(t -> assertThat(t.state()).isEqualTo(ServerStatus.State.DOWN));
        // the tools stay in the catalog while the server restarts
        assertThat(catalog.get("kg__read_graph")).isPresent();

        await(
                "the server is restarted",
                Duration.ofSeconds(20),
                () -> manager.status("KG").orElseThrow().state() == ServerStatus.State.READY);
        ServerStatus back = manager.status("KG").orElseThrow();
        assertThat(back.restarts()).isGreaterThanOrEqualTo(1);
        assertThat(manager.pid("KG")).isNotEqualTo(pid);
        assertThat(text(manager.call("KG", "kg__read_graph", Map.of()))).contains("entities");
    }

    @Test
    void a_call_while_down_fails_at_once_naming_the_server_and_the_reason() throws Exception {
        try (LogCapture log = LogCapture.of(UpstreamConnection.class)) {
            aCallWhileDownFailsAtOnce();
            assertThat(log.warnings())
                    .anySatisfy(m -> assertThat(m).startsWith("MCP server 'KG' is down: process exited with code 137"));
        }
    }

    private void aCallWhileDownFailsAtOnce() throws Exception {
        manager.registerAll(List.of(memoryServer()), Duration.ofSeconds(20));
        ProcessHandle.of(manager.pid("KG")).orElseThrow().destroyForcibly();
        await(
                "the server is seen down",
                Duration.ofSeconds(10),
                () -> manager.status("KG").orElseThrow().state() == ServerStatus.State.DOWN);

        assertThatThrownBy(() -> manager.call("KG", "read_graph", Map.of()))
                .isInstanceOfSatisfying(UpstreamException.class, e -> {
                    assertThat(e.kind()).isIn(UpstreamException.Kind.DOWN);
                    assertThat(e.retriable()).isTrue();
                })
                .hasMessageContaining("MCP server 'KG'")
                .hasMessageContaining("process exited with code 137");
    }

    @Test
    void streamable_http_server_is_registered_and_called() throws Exception {
        int port = McpPeers.freePort();
        ProcessBuilder pb = new ProcessBuilder("node", McpPeers.everything(), "streamableHttp")
                .directory(McpPeers.DIR.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("everything.log").toFile());
        pb.environment().put("PORT", Integer.toString(port));
        Process everything = pb.start();
        try {
            ServerConfig http =
                    ServerConfig.http("Everything HTTP", java.net.URI.create("http://127.0.0.1:" + port + "/mcp"));
            await("the everything server listens", Duration.ofSeconds(15), () -> {
                try {
                    return Files.readString(tmp.resolve("everything.log")).contains("listening");
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            manager.registerAll(List.of(http), Duration.ofSeconds(20));

            ServerStatus s = manager.status("Everything HTTP").orElseThrow();
            assertThat(s.state()).as(String.valueOf(s.lastError())).isEqualTo(ServerStatus.State.READY);
            assertThat(catalog.get("everything_http__echo")).isPresent();
            McpSchema.CallToolResult echo =
                    manager.callCatalogTool("everything_http__echo", Map.of("message", "hi there"));
            assertThat(text(echo)).contains("hi there");
        } finally {
            everything.destroy();
        }
    }

    @Test
    void filesystem_server_reads_only_inside_its_allowed_directory() throws Exception {
        Path root = tmp.resolve("files");
        Files.createDirectories(root);
        Files.writeString(root.resolve("notes.txt"), "the quick brown fox");
        ServerConfig fs = McpPeers.node("Files", McpPeers.filesystem(), root.toString());

        manager.registerAll(List.of(fs), Duration.ofSeconds(20));

        assertThat(manager.status("Files").orElseThrow().state()).isEqualTo(ServerStatus.State.READY);
        assertThat(catalog.get("files__read_text_file").orElseThrow().spec().sideEffect())
                .isEqualTo(SideEffect.READ);
        // write_file says destructiveHint: true, so it is proposed for approval
        assertThat(catalog.get("files__write_file").orElseThrow().spec().aiAccess())
                .isEqualTo(AiAccess.PROPOSE);
        assertThat(catalog.get("files__create_directory").orElseThrow().spec().aiAccess())
                .isEqualTo(AiAccess.EXECUTE);
        McpSchema.CallToolResult read = manager.callCatalogTool(
                "files__read_text_file",
                Map.of("path", root.resolve("notes.txt").toString()));
        assertThat(text(read)).isEqualTo("the quick brown fox");
        McpSchema.CallToolResult outside =
                manager.callCatalogTool("files__read_text_file", Map.of("path", "/etc/hostname"));
        assertThat(outside.isError()).isTrue();
        assertThat(text(outside)).containsIgnoringCase("access denied");
    }

    Process startEverythingHttp(int port, String log) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("node", McpPeers.everything(), "streamableHttp")
                .directory(McpPeers.DIR.toFile())
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve(log).toFile());
        pb.environment().put("PORT", Integer.toString(port));
        Process p = pb.start();
        await("the everything server listens", Duration.ofSeconds(15), () -> {
            try {
                return Files.readString(tmp.resolve(log)).contains("listening");
            } catch (java.io.IOException e) {
                return false;
            }
        });
        return p;
    }

    @Test
    void an_http_server_that_stops_answering_goes_down_and_comes_back_when_it_returns() throws Exception {
        try (LogCapture log = LogCapture.of(UpstreamConnection.class)) {
            anHttpServerThatStopsAnsweringComesBack();
            assertThat(log.warnings()).anySatisfy(m -> assertThat(m).startsWith("MCP server 'Remote' is down: "));
        }
    }

    private void anHttpServerThatStopsAnsweringComesBack() throws Exception {
        int port = McpPeers.freePort();
        Process first = startEverythingHttp(port, "first.log");
        Process second = null;
        try {
            manager.registerAll(
                    List.of(ServerConfig.http("Remote", java.net.URI.create("http://127.0.0.1:" + port + "/mcp"))),
                    Duration.ofSeconds(20));
            assertThat(text(manager.call("Remote", "echo", Map.of("message", "one"))))
                    .contains("one");

            first.destroyForcibly().waitFor();
            assertThatThrownBy(() -> manager.call("Remote", "echo", Map.of("message", "two")))
                    .isInstanceOfSatisfying(
                            UpstreamException.class, e -> assertThat(e.kind()).isEqualTo(UpstreamException.Kind.DOWN))
                    .hasMessageContaining("MCP server 'Remote'");
            assertThat(manager.status("Remote").orElseThrow().state())
                    .isIn(ServerStatus.State.DOWN, ServerStatus.State.CONNECTING);

            second = startEverythingHttp(port, "second.log");
            await(
                    "the server is reconnected",
                    Duration.ofSeconds(20),
                    () -> manager.status("Remote").orElseThrow().state() == ServerStatus.State.READY,
                    () -> manager.status("Remote").toString());
            assertThat(text(manager.call("Remote", "echo", Map.of("message", "three"))))
                    .contains("three");
        } finally {
            first.destroyForcibly();
            if (second != null) {
                second.destroyForcibly();
            }
        }
    }

    @Test
    void a_server_whose_listing_is_being_written_does_not_hold_up_another_servers_registration() throws Exception {
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        store.beforeCatalogChange = (upserts, removals) -> {
            if (!upserts.isEmpty() && upserts.get(0).name().source().equals("kg")) {
                held.countDown();
                try {
                    release.await(2, java.util.concurrent.TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try {
            manager.register(memoryServer());
            assertThat(held.await(60, java.util.concurrent.TimeUnit.SECONDS))
                    .as("Memory's tools being written")
                    .isTrue();
            // its listing's store write is held: another server registers meanwhile (the manager is not held by it)
            Thread other =
                    Thread.ofPlatform().start(() -> manager.register(McpPeers.node("Paged", "faults/paged.mjs")));
            other.join(Duration.ofSeconds(60)); // a bound on a hang, not on speed: it returns at once unless blocked
            assertThat(other.isAlive())
                    .as("Paged's registration waits for Memory's listing")
                    .isFalse();
            assertThat(manager.status("Paged")).isPresent();
        } finally {
            release.countDown();
        }
        await(
                "both servers' tools are in the catalog",
                Duration.ofSeconds(60),
                () -> catalog.snapshot().hasSource("kg")
                        && catalog.get("paged__item_24").isPresent());
    }

    @Test
    void a_server_another_replica_lists_is_ready_here_only_once_its_tools_reached_this_catalog() throws Exception {
        // the gate of a replica that did not win the server's sync: another replica writes the list to the shared
        // store, and the change reaches this catalog later (here: the same write, 700 ms after the listing)
        manager.syncGate((server, work) -> {
            Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(700);
                } catch (InterruptedException e) {
                    return;
                }
                work.run();
            });
            return false;
        });

        manager.register(memoryServer());
        ServerStatus s = manager.awaitFirstAttempt("KG", Duration.ofSeconds(30)).orElseThrow();

        assertThat(s.state()).isEqualTo(ServerStatus.State.READY);
        assertThat(catalog.get("kg__create_entities"))
                .as("the tools a ready server counts")
                .isPresent();
        assertThat(s.tools()).isEqualTo((int) catalog.snapshot().entries().stream()
                .filter(e -> e.spec().name().source().equals("kg"))
                .count());
    }

    @Test
    void unregister_removes_the_servers_tools_from_the_catalog() {
        manager.registerAll(List.of(memoryServer()), Duration.ofSeconds(20));
        assertThat(catalog.snapshot().hasSource("kg")).isTrue();

        assertThat(manager.unregister("KG")).isTrue();

        assertThat(catalog.snapshot().hasSource("kg")).isFalse();
        assertThat(manager.servers()).isEmpty();
        assertThat(manager.unregister("KG")).isFalse();
    }

    @Test
    void a_server_whose_prefix_built_in_tools_hold_is_refused_and_the_built_in_tools_stay() {
        catalog.upsert(ToolSpec.builder("kg__search", "Search the knowledge graph")
                .aiAccess(AiAccess.EXECUTE)
                .build());

        assertThatThrownBy(() -> manager.register(memoryServer()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server name 'KG' gives tool prefix 'kg', which built-in tools hold (e.g. "
                        + "kg__search); choose another name, e.g. 'kg-server'");
        assertThat(manager.servers()).isEmpty();
        assertThat(catalog.get("kg__search").orElseThrow().spec().sourceKind()).isEqualTo(SourceKind.INTEGRATION);
    }

    @Test
    void the_gateways_own_prefixes_are_refused_whatever_the_case_or_punctuation() {
        for (String name : List.of(
                "mcp",
                "MCP",
                " mcp ",
                "Tool Discovery",
                "tool_discovery",
                "Verbs",
                "skills",
                "Skills",
                "memory",
                "MEMORY")) {
            assertThatThrownBy(() -> manager.register(McpPeers.node(name, McpPeers.memory())))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("which is reserved for ToolScout's own tools");
        }
        assertThat(manager.servers()).isEmpty();
    }

    @Test
    void two_servers_may_not_share_a_prefix() {
        manager.register(memoryServer());

        assertThatThrownBy(() -> manager.register(McpPeers.node("kg", McpPeers.memory())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server name 'kg' gives tool prefix 'kg', already used by server 'KG'");
    }
}
