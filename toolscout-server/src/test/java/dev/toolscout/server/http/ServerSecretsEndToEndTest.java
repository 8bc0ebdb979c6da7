package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.server.mcp.NodeClient;
import dev.toolscout.testing.LogCapture;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 30 item 7: secrets the earlier rules missed were shown to every key holder and stored unsealed. A stdio
 * server is registered over {@code POST /v1/servers} with a PostgreSQL URL holding a password, a MySQL-style
 * {@code -pPASSWORD} and {@code -p PASSWORD}, and an argument the operator marks secret ({@code secret_args});
 * an HTTP server with query values named like {@code X-Amz-Signature}, {@code access_key}, {@code
 * private_key}, {@code jwt}, {@code session}, {@code sid} and a header {@code X-Custom-Auth}, plus one the
 * operator marks ({@code secret_headers}). None may appear in {@code GET /v1/servers}, in {@code
 * mcp__list_servers} as a user key sees it through the gateway (the official TypeScript SDK client), or in
 * any file of the data directory; the stdio server still gets them all.
 */
@ResourceLock(LogCapture.LOGGERS)
class ServerSecretsEndToEndTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ALICE = "alice-user-key-0123456789";
    static final String ROOT = "root-admin-key-012345678";
    static final Path PEERS =
            Path.of("../toolscout-mcp/src/test/node").toAbsolutePath().normalize();
    static final List<String> SECRETS = List.of(
            "PgPass-1111",
            "MyPass-2222",
            "MyPass-3333",
            "Marked-4444",
            "AmzSig-5555",
            "AccKey-6666",
            "PrivKey-7777",
            "Jwt-8888",
            "Sess-9999",
            "Sid-1010",
            "CustAuth-1212",
            "Tenant-1313");

    @TempDir
    Path tmp;

    static void assertNoSecret(String where, String text) {
        for (String s : SECRETS) {
            assertThat(text).as(where + " shows " + s).doesNotContain(s);
        }
    }

    @Test
    void secrets_by_rule_and_by_the_operator_s_mark_are_never_listed_nor_stored_in_clear() throws Exception {
        Path data = tmp.resolve("data");
        GatewayAuth auth = GatewayAuth.withRoles(Map.of(
                ALICE, new GatewayAuth.Key(new Principal("alice", null, null), Role.USER),
                ROOT, new GatewayAuth.Key(new Principal("root", null, null), Role.ADMIN)));
        try (LogCapture upstreamLog = LogCapture.of("dev.toolscout.mcp.upstream");
                McpRuntime rt =
                        McpRuntime.open(ToolScout.builder().preloadModel(false).dataDir(data))) {
            rt.start(List.of(), Duration.ofSeconds(30));
            HttpApi api = new HttpApi(auth, new HttpApi.Options(false, true));
            try (GatewayHttpServer http = GatewayHttpServer.start(
                    new McpGateway(rt.scout(), rt.actions(), Principal.ANONYMOUS), auth, "127.0.0.1", 0, api)) {
                api.open(new ApiBackend(rt.scout(), rt.registry(), null));
                ApiClient root = new ApiClient(
                        http.baseUrl(),
                        ROOT,
                        new OpenApiContract(new String(api.openApiDocument(), StandardCharsets.UTF_8)));
                List<String> args = List.of(
                        PEERS.resolve("faults/argv.mjs").toString(),
                        "--db",
                        "postgres://app:PgPass-1111@db.internal:5432/shop",
                        "mysql",
                        "-pMyPass-2222",
                        "-p",
                        "MyPass-3333",
                        "--conn",
                        "Marked-4444",
                        "--verbose");
                HttpResponse<String> stdio = root.post(
                        "/v1/servers",
                        JSON.writeValueAsString(Map.of(
                                "name", "Argv", "command", "node", "args", args, "secret_args", List.of("--conn"))));
                assertThat(stdio.statusCode()).as(stdio.body()).isEqualTo(201);
                HttpResponse<String> remote = root.post(
                        "/v1/servers",
                        JSON.writeValueAsString(Map.of(
                                "name",
                                "Remote",
                                "url",
                                "http://127.0.0.1:9/mcp?X-Amz-Signature=AmzSig-5555&access_key=AccKey-6666"
                                        + "&private_key=PrivKey-7777&jwt=Jwt-8888&session=Sess-9999&sid=Sid-1010&region=eu",
                                "headers",
                                Map.of("X-Custom-Auth", "CustAuth-1212", "X-Tenant", "Tenant-1313"),
                                "secret_headers",
                                List.of("X-Tenant"),
                                "timeout_seconds",
                                1,
                                "allow_offline",
                                true)));
                assertThat(remote.statusCode()).as(remote.body()).isBetween(200, 201);

                // the connection uses them: the stdio server got its arguments as given
                String argv = text(mcpCall(http, ALICE, "argv__argv", "{}"));
                assertThat(argv).contains("PgPass-1111", "MyPass-2222", "MyPass-3333", "Marked-4444");

                String listed = root.get("/v1/servers").body();
                assertThat(listed)
                        .contains(
                                "postgres://app:***@db.internal",
                                "-p***",
                                "-p ***",
                                "--conn ***",
                                "X-Amz-Signature=***",
                                "region=eu");
                assertNoSecret("GET /v1/servers", listed + stdio.body() + remote.body());
                String viaGateway = text(mcpCall(http, ALICE, "mcp__list_servers", "{}"));
                assertThat(viaGateway).contains("\"name\":\"Argv\"");
                assertNoSecret("mcp__list_servers", viaGateway);
            }
            // what the operator's log says of the servers (the unreachable one is down, reconnecting) shows none of
            // their secrets either
            assertNoSecret("the upstream log", String.join("\n", upstreamLog.warnings()));
        }
        StringBuilder files = new StringBuilder();
        try (Stream<Path> all = Files.walk(data)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                files.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(files.toString()).contains("enc:v1:");
        assertNoSecret("the data directory", files.toString());
    }

    /** One session of the official TypeScript SDK client with {@code key} on the gateway: calls {@code tool}. */
    JsonNode mcpCall(GatewayHttpServer http, String key, String tool, String args) throws Exception {
        return NodeClient.call(tmp, http.url(), key, "servers", tool, args);
    }

    static String text(JsonNode callResult) {
        return NodeClient.text(callResult);
    }
}
