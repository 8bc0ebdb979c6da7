package dev.toolscout.mcp.upstream;

import static dev.toolscout.mcp.upstream.UpstreamManagerTest.await;
import static dev.toolscout.mcp.upstream.UpstreamManagerTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.events.EventBus;
import dev.toolscout.mcp.McpPeers;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.ToolName;
import dev.toolscout.state.InMemoryStateStore;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.util.ToolNameValidator;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of the MCP protocol the manager follows, against real Node peers: {@code
 * notifications/tools/list_changed} applied as a catalog diff, paginated {@code tools/list}, the Streamable
 * HTTP to legacy SSE fallback, and tool names that must be sanitized for the wire.
 */
class UpstreamProtocolTest {
    static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    Catalog catalog;
    UpstreamManager manager;
    final List<CatalogEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        McpPeers.requireInstalled();
        EventBus bus = new EventBus();
        bus.subscribe(events::addAll);
        catalog = Catalog.load(new InMemoryStateStore(), bus, Map.of());
        manager = new UpstreamManager(catalog, UpstreamManagerTest.FAST);
    }

    @AfterEach
    void close() {
        manager.close();
    }

    ServerStatus registerReady(ServerConfig config) {
        manager.registerAll(List.of(config), WAIT);
        ServerStatus s = manager.status(config.name()).orElseThrow();
        assertThat(s.state())
                .as("state of '%s' (last error: %s)", config.name(), s.lastError())
                .isEqualTo(ServerStatus.State.READY);
        return s;
    }

    /** Full name to content hash of one source's tools. */
    Map<String, String> hashesOf(String source) {
        Map<String, String> out = new TreeMap<>();
        for (CatalogEntry e : catalog.snapshot().entries()) {
            if (e.spec().name().source().equals(source)) {
                out.put(e.name(), e.contentHash());
            }
        }
        return out;
    }

    String call(String server, String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult r = manager.call(server, tool, arguments);
        assertThat(r.isError())
                .as("%s %s %s: %s", server, tool, arguments, text(r))
                .isNotEqualTo(Boolean.TRUE);
        return text(r);
    }

    @Test
    void tools_list_changed_adds_updates_and_removes_tools_and_unchanged_tools_keep_their_hash() throws Exception {
        registerReady(McpPeers.node("Mutable", "faults/mutable.mjs"));
        assertThat(hashesOf("mutable"))
                .containsOnlyKeys(
                        "mutable__alpha_status",
                        "mutable__add_tool",
                        "mutable__remove_tool",
                        "mutable__rename_description");

        // added: list_changed makes the manager list again and the new tool enters the catalog
        assertThat(call(
                        "Mutable",
                        "add_tool",
                        Map.of("name", "gamma_report", "description", "Builds the gamma report")))
                .isEqualTo("added gamma_report");
        await(
                "mutable__gamma_report is in the catalog",
                WAIT,
                () -> catalog.get("mutable__gamma_report").isPresent());
        CatalogEntry added = catalog.get("mutable__gamma_report").orElseThrow();
        assertThat(added.spec().description()).isEqualTo("Builds the gamma report");
        assertThat(text(manager.callCatalogTool("mutable__gamma_report", Map.of())))
                .isEqualTo("gamma_report called");
        assertThat(manager.status("Mutable").orElseThrow().tools()).isEqualTo(5);

        // updated: only the renamed tool changes; the others keep their content hash, hence their vectors
        Map<String, String> before = hashesOf("mutable");
        events.clear();
        assertThat(call(
                        "Mutable",
                        "rename_description",
                        Map.of("name", "gamma_report", "description", "Builds the quarterly gamma report")))
                .isEqualTo("updated gamma_report");
        await(
                "the new description is in the catalog",
                WAIT,
                () -> catalog.get("mutable__gamma_report")
                        .map(e -> e.spec().description().equals("Builds the quarterly gamma report"))
                        .orElse(false));

        Map<String, String> after = hashesOf("mutable");
        assertThat(after.get("mutable__gamma_report")).isNotEqualTo(before.get("mutable__gamma_report"));
        before.remove("mutable__gamma_report");
        after.remove("mutable__gamma_report");
        assertThat(after).isEqualTo(before);
        assertThat(catalog.get("mutable__gamma_report").orElseThrow().ord()).isEqualTo(added.ord());
        assertThat(events).singleElement().isInstanceOfSatisfying(CatalogEvent.ActionUpdated.class, u -> {
            assertThat(u.after().name()).isEqualTo("mutable__gamma_report");
            assertThat(u.before().spec().description()).isEqualTo("Builds the gamma report");
        });

        // removed
        events.clear();
        assertThat(call("Mutable", "remove_tool", Map.of("name", "gamma_report")))
                .isEqualTo("removed gamma_report");
        await(
                "mutable__gamma_report left the catalog",
                WAIT,
                () -> catalog.get("mutable__gamma_report").isEmpty());
        assertThat(events)
                .singleElement()
                .isInstanceOfSatisfying(
                        CatalogEvent.ActionRemoved.class,
                        r -> assertThat(r.tool().name()).isEqualTo("mutable__gamma_report"));
        assertThat(hashesOf("mutable")).isEqualTo(before);
        assertThat(call("Mutable", "alpha_status", Map.of())).isEqualTo("alpha ok");
    }

    @Test
    void paginated_tool_list_is_followed_to_the_last_page() {
        ServerStatus s = registerReady(McpPeers.node("Paged", "faults/paged.mjs"));

        List<String> expected = IntStream.range(0, 25)
                .mapToObj(i -> String.format("paged__item_%02d", i))
                .toList();
        assertThat(hashesOf("paged").keySet()).containsExactlyElementsOf(expected);
        assertThat(s.tools()).isEqualTo(25);
        assertThat(catalog.get("paged__item_24").orElseThrow().spec().description())
                .isEqualTo("Returns item 24 of the paged catalog");
        assertThat(text(manager.callCatalogTool("paged__item_24", Map.of()))).isEqualTo("item 24");
        assertThat(call("Paged", "item_00", Map.of())).isEqualTo("item 00");
    }

    @Test
    void http_server_that_speaks_only_legacy_sse_is_reached_over_sse() throws Exception {
        int port = McpPeers.freePort();
        Path log = tmp.resolve("sse-only.log");
        ProcessBuilder pb = new ProcessBuilder(
                        "node", McpPeers.DIR.resolve("faults/sse-only.mjs").toString())
                .directory(McpPeers.DIR.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("PORT", Integer.toString(port));
        Process sseOnly = pb.start();
        try {
            await("sse-only is listening", WAIT, () -> read(log).contains("sse-only listening on " + port));

            ServerStatus s = registerReady(ServerConfig.http("Legacy", URI.create("http://127.0.0.1:" + port + "/sse"))
                    .withTimeout(Duration.ofSeconds(5)));

            assertThat(s.transport()).isEqualTo("http");
            assertThat(hashesOf("legacy")).containsOnlyKeys("legacy__legacy_ping");
            assertThat(text(manager.callCatalogTool("legacy__legacy_ping", Map.of())))
                    .isEqualTo("pong");
            // Streamable HTTP was tried first (POST /sse, refused), then the SSE handshake (GET /sse)
            assertThat(read(log)).contains("POST /sse").contains("GET /sse");
        } finally {
            sseOnly.destroy();
            if (!sseOnly.waitFor(5, TimeUnit.SECONDS)) {
                sseOnly.destroyForcibly();
            }
        }
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void tool_names_that_need_sanitizing_get_wire_names_and_are_called_by_their_original_name() throws Exception {
        registerReady(McpPeers.node("Mutable", "faults/mutable.mjs"));
        String longName = "report_" + "x".repeat(93); // 100 characters: over the room left by "mutable__"
        String clashSuffix = "clash_name_" + Hashing.sha256Hex("clash name").substring(0, 6);
        // "clash name" sanitizes to "clash_name", which a tool already has; the hash-suffixed name it then gets is
        // also taken, by a tool that is literally called that
        List<String> originals =
                List.of("weird name/with:chars", "café_rapport", longName, "clash_name", "clash name", clashSuffix);
        // the MCP SDK warns about each name outside its allowed characters, each time the list is read
        try (LogCapture validator = LogCapture.of(ToolNameValidator.class)) {
            for (String o : originals) {
                assertThat(call("Mutable", "add_tool", Map.of("name", o, "description", "Tool " + o)))
                        .isEqualTo("added " + o);
            }
            await(
                    "every added tool is in the catalog",
                    WAIT,
                    () -> hashesOf("mutable").size() == 4 + originals.size());
            assertThat(validator.warnings())
                    .allSatisfy(w -> assertThat(w).startsWith("Tool name contains invalid characters"))
                    .anySatisfy(w -> assertThat(w).contains("'weird name/with:chars'"))
                    .anySatisfy(w -> assertThat(w).contains("'café_rapport'"))
                    .anySatisfy(w -> assertThat(w).contains("'clash name'"))
                    .noneSatisfy(w -> assertThat(w).contains("'clash_name'"));
        }

        assertThat(manager.status("Mutable").orElseThrow().state()).isEqualTo(ServerStatus.State.READY);
        assertThat(catalog.get("mutable__weird_name_with_chars")).isPresent();
        assertThat(catalog.get("mutable__cafe_rapport")).isPresent();
        assertThat(catalog.get("mutable__clash_name").orElseThrow().spec().sourceName())
                .isEqualTo("clash_name");
        assertThat(catalog.get("mutable__" + clashSuffix).orElseThrow().spec().sourceName())
                .isEqualTo(clashSuffix);
        for (String o : originals) {
            CatalogEntry e =
                    toolWithOriginal(o).orElseThrow(() -> new AssertionError("no catalog tool for '" + o + "'"));
            assertThat(e.name()).as(o).matches(ToolName.WIRE.pattern()).hasSizeLessThanOrEqualTo(64);
            assertThat(e.spec().description()).isEqualTo("Tool " + o);
            // the call goes to the server under the name it knows
            assertThat(text(manager.callCatalogTool(e.name(), Map.of()))).isEqualTo(o + " called");
        }
        assertThat(toolWithOriginal(longName).orElseThrow().name())
                .hasSize(64)
                .startsWith("mutable__report_xxx")
                .endsWith("_" + Hashing.sha256Hex(longName).substring(0, 6));
    }

    Optional<CatalogEntry> toolWithOriginal(String original) {
        return catalog.snapshot().entries().stream()
                .filter(e -> e.spec().name().source().equals("mutable")
                        && e.spec().sourceName().equals(original))
                .findFirst();
    }
}
