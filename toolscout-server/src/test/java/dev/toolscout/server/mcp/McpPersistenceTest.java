package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.ServerRegistry;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.server.cli.ToolScoutCli;
import dev.toolscout.testing.LogCapture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** Registrations survive restarts, with their secrets sealed at rest and never printed. */
@ResourceLock(LogCapture.LOGGERS)
class McpPersistenceTest {
    static final Path PEERS = GatewayEndToEndTest.PEERS;
    static final String TOKEN = "tok-very-secret-7f3a9c";
    static final String API_KEY = "sk-also-very-secret-19be";

    @TempDir
    Path dir;

    ServerConfig memory() {
        return ServerConfig.stdio(
                        "Knowledge Graph",
                        "node",
                        List.of(PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js")
                                .toString()))
                .withEnv(Map.of("MEMORY_FILE_PATH", dir.resolve("kg.jsonl").toString(), "GRAPH_API_TOKEN", TOKEN))
                .withApiKey(API_KEY);
    }

    static List<String> storedServers(Path data) {
        try (var store = dev.toolscout.store.SqliteStateStore.open(data.resolve("state.db"))) {
            return store.loadServers().stream()
                    .map(dev.toolscout.servers.ServerStore.StoredServer::name)
                    .toList();
        }
    }

    static String[] run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = ToolScoutCli.run(args, new PrintWriter(o, true), new PrintWriter(e, true));
        return new String[] {Integer.toString(code), o.toString(), e.toString()};
    }

    static String everyFileUnder(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                sb.append(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }

    @Test
    void a_registration_survives_a_restart_with_its_secrets_sealed_and_never_printed() throws Exception {
        Path data = dir.resolve("data");
        try (McpRuntime e =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
            e.start(List.of(), Duration.ofSeconds(5));
            ServerStatus s = e.registry().add(memory(), Duration.ofSeconds(30));
            assertThat(s.state()).isEqualTo(ServerStatus.State.READY);
            assertThat(e.scout().gatewayParts().catalog().get("knowledge_graph__read_graph"))
                    .isPresent();
        }

        String atRest = everyFileUnder(data);
        assertThat(atRest).contains("Knowledge Graph").doesNotContain(TOKEN).doesNotContain(API_KEY);
        assertThat(Files.getPosixFilePermissions(data.resolve("secret.key")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));

        // its tools stay in the catalog: find ranks them without starting the server
        String[] find = run("find", "read the whole knowledge graph", "--limit", "3", "--data-dir", data.toString());
        assertThat(find[0]).as(find[2]).isEqualTo("0");
        assertThat(find[1]).contains("knowledge_graph__read_graph");

        String[] list = run("mcp", "list", "--format", "json", "--data-dir", data.toString());
        assertThat(list[0]).as(list[2]).isEqualTo("0");
        JsonNode servers = new ObjectMapper().readTree(list[1]).get("servers");
        assertThat(servers).hasSize(1);
        assertThat(servers.get(0).get("name").asText()).isEqualTo("Knowledge Graph");
        assertThat(servers.get(0).get("status").asText()).isEqualTo("ready");
        assertThat(servers.get(0).get("tools").asInt()).isPositive();
        assertThat(list[1] + list[2]).doesNotContain(TOKEN).doesNotContain(API_KEY);

        try (McpRuntime e =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
            e.start(List.of(), Duration.ofSeconds(30));
            assertThat(e.registry()
                            .manager()
                            .status("Knowledge Graph")
                            .orElseThrow()
                            .state())
                    .isEqualTo(ServerStatus.State.READY);
            assertThat(e.registry()
                            .manager()
                            .config("Knowledge Graph")
                            .orElseThrow()
                            .env())
                    .containsEntry("GRAPH_API_TOKEN", TOKEN);
        }

        String[] removed = run("mcp", "remove", "Knowledge Graph", "--data-dir", data.toString());
        assertThat(removed[0]).as(removed[2]).isEqualTo("0");
        assertThat(storedServers(data)).isEmpty();
        try (McpRuntime e =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
            assertThat(e.scout().gatewayParts().catalog().snapshot().hasSource("knowledge_graph"))
                    .isFalse();
        }
    }

    @Test
    void removing_an_unknown_server_never_loads_the_embedding_model() throws Exception {
        Path data = dir.resolve("data");
        try (McpRuntime e =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
            assertThat(e.scout().maintenance().embeddedCount()).isPositive(); // the demo catalog, embedded once
        }
        // what mcp remove does, on the engine it opens
        try (McpRuntime e =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
            e.start(List.of(), Duration.ZERO);
            assertThat(e.registry().remove("no-such-server")).isFalse();
            assertThat(e.scout().maintenance().modelLoaded()).isFalse();
        }
    }

    @Test
    void a_wrong_secret_key_reports_the_server_and_keeps_it_stored() throws Exception {
        Path data = dir.resolve("data");
        try (McpRuntime e =
                McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
            e.start(List.of(), Duration.ofSeconds(5));
            e.registry().add(memory(), Duration.ofSeconds(30));
        }
        Files.write(data.resolve("secret.key"), new byte[32]); // another key

        String[] list;
        try (LogCapture log = LogCapture.of(ServerRegistry.class)) {
            list = run("mcp", "list", "--data-dir", data.toString());
            assertThat(log.warnings())
                    .singleElement(as(InstanceOfAssertFactories.STRING))
                    .startsWith("stored MCP server 'Knowledge Graph' cannot be read")
                    .contains("env.GRAPH_API_TOKEN: the secret cannot be decrypted")
                    .doesNotContain(TOKEN);
        }

        assertThat(list[2])
                .contains("MCP server 'Knowledge Graph' is not available")
                .contains("cannot be decrypted");
        assertThat(list[1] + list[2]).doesNotContain(TOKEN);
        assertThat(storedServers(data)).containsExactly("Knowledge Graph");
    }

    @Test
    void mcp_add_seals_and_hides_what_the_operator_marks_secret() throws Exception {
        Path data = dir.resolve("data");
        String[] added = run(
                "mcp",
                "add",
                "wh",
                "--secret-arg=--conn",
                "--secret-arg",
                "3",
                "--allow-offline",
                "--data-dir",
                data.toString(),
                "--",
                "node",
                PEERS.resolve("faults/argv.mjs").toString(),
                "--conn",
                "dsn-Marked-1",
                "pos-Marked-2");
        String[] listed = run("mcp", "list", "--format", "json", "--data-dir", data.toString(), "--servers-wait", "20");

        assertThat(added[0]).as(added[2]).isEqualTo("0");
        assertThat(listed[1]).contains("--conn *** ***");
        assertThat(added[1] + added[2] + listed[1] + listed[2] + everyFileUnder(data))
                .doesNotContain("dsn-Marked-1", "pos-Marked-2");
    }

    @Test
    void mcp_add_refuses_a_bad_server_clearly_and_stores_nothing() {
        Path data = dir.resolve("data");
        String[] r = run("mcp", "add", "bad", "--url", "ftp://example.com/mcp", "--data-dir", data.toString());

        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains("server 'bad': url must be http:// or https://, got: ftp://example.com/mcp");
        String[] list = run("mcp", "list", "--data-dir", data.toString());
        assertThat(list[1]).contains("no MCP servers registered");
    }

    @Test
    void mcp_disable_keeps_a_declared_server_out_across_runs_until_mcp_enable() throws Exception {
        Path data = dir.resolve("data");
        Path servers = dir.resolve("servers.json");
        Files.writeString(servers, """
        {"mcpServers": {"kg": {"command": "node", "args": ["%s"], "env": {"MEMORY_FILE_PATH": "%s"}}}}""".formatted(
                        PEERS.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js"),
                        dir.resolve("kg.jsonl")));

        String[] unknown = run("mcp", "disable", "nobody", "--data-dir", data.toString());
        String[] off = run("mcp", "disable", "kg", "--servers", servers.toString(), "--data-dir", data.toString());
        String[] listed =
                run("mcp", "list", "--format", "json", "--servers", servers.toString(), "--data-dir", data.toString());

        assertThat(unknown[0]).isNotEqualTo("0");
        assertThat(unknown[2]).contains("no MCP server named 'nobody' is registered");
        assertThat(off[0]).as(off[2]).isEqualTo("0");
        assertThat(off[1]).contains("disabled 'kg'");
        JsonNode kg = new ObjectMapper().readTree(listed[1]).path("servers").get(0);
        assertThat(kg.path("status").asText()).isEqualTo("disabled");
        assertThat(kg.path("tools").asInt()).isZero();

        String[] on = run("mcp", "enable", "kg", "--servers", servers.toString(), "--data-dir", data.toString());
        String[] again =
                run("mcp", "list", "--format", "json", "--servers", servers.toString(), "--data-dir", data.toString());

        assertThat(on[0]).as(on[2]).isEqualTo("0");
        assertThat(new ObjectMapper()
                        .readTree(again[1])
                        .path("servers")
                        .get(0)
                        .path("status")
                        .asText())
                .isEqualTo("ready");
    }
}
