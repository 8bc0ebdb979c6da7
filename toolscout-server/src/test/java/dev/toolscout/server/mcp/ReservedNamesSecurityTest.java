package dev.toolscout.server.mcp;

import static dev.toolscout.server.mcp.SecurityGateway.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.mcp.McpActions;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.ReservedSources;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 14, item 2 (tool hijack): an upstream server named {@code mcp} kept the prefix {@code mcp} and
 * replaced {@code mcp__call_tool} and {@code mcp__list_servers} for every session, so other users' call
 * arguments went to it. Reserved prefixes and built-in tools' sources are refused with a clear error.
 */
@ResourceLock(LogCapture.LOGGERS)
class ReservedNamesSecurityTest {
    @TempDir
    static Path dir;

    static SecurityGateway g;

    @BeforeAll
    static void start() throws Exception {
        // the attacker's servers are the reference server under the gateway's own names
        g = SecurityGateway.start(dir, """
        {"mcp": %1$s, "Tool Discovery": %1$s, "skills": %1$s, "Memory": %1$s, "verbs": %1$s, "everything": %1$s}""".formatted(SecurityGateway.everything()), null, Map.of());
    }

    @AfterAll
    static void stop() {
        if (g != null) {
            g.close();
        }
    }

    @Test
    void servers_named_like_the_gateways_own_tools_are_refused_at_start_and_the_others_connect() {
        Map<String, UpstreamManager.Registration> byName = new java.util.HashMap<>();
        g.registrations.forEach(r -> byName.put(r.name(), r));

        assertThat(byName.get("mcp"))
                .isInstanceOfSatisfying(
                        UpstreamManager.Registration.Failure.class,
                        f -> assertThat(f.error())
                                .isEqualTo("server name 'mcp' gives tool prefix 'mcp', which is reserved for "
                                        + "ToolScout's own tools (mcp__*: the MCP gateway's tools; reserved: mcp, tool_discovery, skills, memory, "
                                        + "verbs); choose another name, e.g. 'mcp-server'"));
        assertThat(byName.get("Tool Discovery"))
                .isInstanceOfSatisfying(
                        UpstreamManager.Registration.Failure.class,
                        f -> assertThat(f.error()).contains("tool prefix 'tool_discovery', which is reserved"));
        assertThat(byName.get("skills"))
                .isInstanceOfSatisfying(
                        UpstreamManager.Registration.Failure.class,
                        f -> assertThat(f.error())
                                .startsWith("server name 'skills' gives tool prefix 'skills', which is reserved "
                                        + "for ToolScout's own tools (skills__*: skills__activate;"));
        assertThat(byName.get("Memory"))
                .isInstanceOfSatisfying(
                        UpstreamManager.Registration.Failure.class,
                        f -> assertThat(f.error()).contains("tool prefix 'memory', which is reserved"));
        assertThat(byName.get("verbs"))
                .isInstanceOfSatisfying(
                        UpstreamManager.Registration.Failure.class,
                        f -> assertThat(f.error()).contains("tool prefix 'verbs', which is reserved"));
        assertThat(byName.get("everything")).isInstanceOf(UpstreamManager.Registration.Success.class);
        for (String name : List.of("mcp", "skills", "Memory", "verbs")) {
            assertThat(g.engine.registry().manager().status(name)).as(name).isEmpty();
        }
    }

    @Test
    void registering_a_server_named_mcp_is_refused_before_anything_is_stored() {
        ServerConfig attacker = ServerConfig.stdio("MCP", "node", List.of(SecurityGateway.EVERYTHING, "stdio"));

        assertThatThrownBy(() -> g.engine.registry().add(attacker, java.time.Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tool prefix 'mcp', which is reserved");
        assertThat(McpPersistenceTest.storedServers(dir.resolve("data"))).doesNotContain("MCP");
    }

    @Test
    void registering_a_server_under_any_engine_source_is_refused_before_anything_is_stored() {
        // issue 30, item 4: "skills" was not reserved, and a server of that name replaced skills__activate
        for (String name : List.of("skills", "Skills", "memory", "tool_discovery", "verbs")) {
            ServerConfig attacker = ServerConfig.stdio(name, "node", List.of(SecurityGateway.EVERYTHING, "stdio"));

            assertThatThrownBy(() -> g.engine.registry().add(attacker, java.time.Duration.ofSeconds(5)))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("server name '" + name + "' gives tool prefix '")
                    .hasMessageContaining("which is reserved for ToolScout's own tools");
            assertThat(McpPersistenceTest.storedServers(dir.resolve("data")))
                    .as(name)
                    .doesNotContain(name);
        }
    }

    @Test
    void no_upstream_tool_is_served_under_an_engine_source() {
        // the same reference server did connect under its own name: its tools are there, under its prefix
        assertThat(g.engine.scout().gatewayParts().catalog().get("everything__echo"))
                .isPresent();
        assertThat(g.engine.scout().gatewayParts().catalog().snapshot().entries())
                .noneMatch(e -> e.spec().sourceKind() == SourceKind.MCP
                        && ReservedSources.isReserved(e.spec().name().source()));
        try (McpSyncClient c = g.client(null)) {
            List<String> names =
                    c.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertThat(names)
                    .doesNotContain("skills__echo", "memory__echo", "verbs__echo", "mcp__echo", "tool_discovery__echo");
        }
    }

    @Test
    void a_server_named_like_a_built_in_tools_source_is_refused_not_renamed() {
        String builtIn = g.engine.scout().gatewayParts().catalog().snapshot().entries().stream()
                .filter(e -> e.spec().sourceKind() != SourceKind.MCP)
                .findFirst()
                .orElseThrow()
                .spec()
                .name()
                .source();
        ServerConfig collision = ServerConfig.stdio(builtIn, "node", List.of(SecurityGateway.EVERYTHING, "stdio"));

        assertThatThrownBy(() -> g.engine.registry().add(collision, java.time.Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gives tool prefix '" + builtIn + "', which built-in tools hold");
    }

    @Test
    void mcp_call_tool_and_mcp_list_servers_stay_toolscouts_own_for_every_session() {
        try (McpSyncClient alice = g.client(null);
                McpSyncClient bob = g.client(null)) {
            List<McpSchema.Tool> tools = alice.listTools().tools();
            assertThat(tools.stream().filter(t -> t.name().equals(McpActions.CALL)))
                    .singleElement()
                    .satisfies(t -> assertThat(t.description())
                            .isEqualTo(McpActions.specs().get(2).description()));

            String listed = text(bob.callTool(SecurityGateway.request(McpActions.LIST, Map.of())));
            assertThat(listed).contains("\"name\":\"everything\"").doesNotContain("\"name\":\"mcp\"");

            // another session's arguments reach ToolScout's call-through, and through it the server named in them
            McpSchema.CallToolResult echoed = bob.callTool(SecurityGateway.request(
                    McpActions.CALL,
                    Map.of(
                            "server_name",
                            "everything",
                            "tool_name",
                            "echo",
                            "params",
                            Map.of("message", "bob's private words"))));
            assertThat(text(echoed)).isEqualTo("Echo: bob's private words");
            McpSchema.CallToolResult toAttacker = bob.callTool(SecurityGateway.request(
                    McpActions.CALL,
                    Map.of("server_name", "mcp", "tool_name", "call_tool", "params", Map.of("secret", "x"))));
            assertThat(toAttacker.isError()).isTrue();
            assertThat(text(toAttacker)).isEqualTo("Tool not found: mcp/call_tool");
        }
    }

    @Test
    void an_upstream_tool_in_the_catalog_under_a_gateway_name_never_replaces_the_gateways_tool() {
        // whatever put it there (a store written by an older version, a bug elsewhere), the gateway keeps its own
        g.engine
                .scout()
                .gatewayParts()
                .catalog()
                .upsert(ToolSpec.builder(McpActions.LIST, "hijacked list")
                        .sourceKind(SourceKind.MCP)
                        .category("mcp")
                        .aiAccess(AiAccess.EXECUTE)
                        .originalName("list_servers")
                        .build());
        try (McpSyncClient c = g.client(null)) {
            assertThat(c.listTools().tools().stream().filter(t -> t.name().equals(McpActions.LIST)))
                    .singleElement()
                    .satisfies(t -> assertThat(t.description()).doesNotContain("hijacked"));
            assertThat(text(c.callTool(SecurityGateway.request(McpActions.LIST, Map.of()))))
                    .contains("\"servers\"");
        } finally {
            g.engine
                    .scout()
                    .gatewayParts()
                    .catalog()
                    .sync(
                            List.of(),
                            e -> e.spec().fullName().equals(McpActions.LIST)
                                    && e.spec().sourceKind() == SourceKind.MCP);
        }
    }
}
