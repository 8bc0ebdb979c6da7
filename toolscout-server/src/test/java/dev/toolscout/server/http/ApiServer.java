package dev.toolscout.server.http;

import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What {@code toolscout serve} runs, in process, for the HTTP API tests: the engine on a data directory (the
 * real embedding model, the bundled demo catalog), the upstream manager, the MCP gateway and the HTTP API on one
 * Jetty on a free loopback port, and an {@link ApiClient} that checks every response against the served
 * {@code /openapi.json}.
 */
final class ApiServer implements AutoCloseable {
    static final String READER = "reader-key-0123456789";
    static final String USER = "user-key-01234567890";
    static final String ADMIN = "admin-key-0123456789";
    /** Keys whose principals the tests' policies name: the reader is in the group "kids". */
    static final Map<String, GatewayAuth.Key> KEYS = Map.of(
            READER, new GatewayAuth.Key(new Principal("rita", "kids", null), Role.READER),
            USER, new GatewayAuth.Key(new Principal("ulf", "staff", null), Role.USER),
            ADMIN, new GatewayAuth.Key(new Principal("ada", "staff", null), Role.ADMIN));

    final ToolScout scout;
    final McpRuntime mcp;
    final McpGateway gateway;
    final HttpApi api;
    final GatewayHttpServer http;
    final OpenApiContract contract;
    final ApiClient client;

    private ApiServer(Path dataDir, GatewayAuth auth, HttpApi.Options options) throws Exception {
        this(dataDir, auth, options, List.of(), List.of());
    }

    private ApiServer(
            Path dataDir,
            GatewayAuth auth,
            HttpApi.Options options,
            List<String> allowedHosts,
            List<String> allowedOrigins)
            throws Exception {
        // as serve does: the MCP runtime owns the library's instance, the API is served over it
        mcp = new McpRuntime(
                ToolScout.builder().dataDir(dataDir).preloadModel(true).build());
        scout = mcp.scout();
        mcp.start(List.of(), Duration.ZERO);
        gateway = new McpGateway(mcp.scout(), mcp.actions(), Principal.ANONYMOUS);
        api = new HttpApi(auth, options);
        http = GatewayHttpServer.start(gateway, auth, "127.0.0.1", 0, api, allowedHosts, allowedOrigins);
        api.open(new ApiBackend(scout, mcp.registry()));
        contract = new OpenApiContract(new String(api.openApiDocument(), java.nio.charset.StandardCharsets.UTF_8));
        client = new ApiClient(http.baseUrl(), auth.requiresKey() ? READER : null, contract);
    }

    /** A server with the three keys of {@link #KEYS}. */
    static ApiServer withKeys(Path dataDir, HttpApi.Options options) throws Exception {
        return new ApiServer(dataDir, GatewayAuth.withRoles(KEYS), options);
    }

    /**
     * A server ({@code keys}: with the three keys of {@link #KEYS}, else without) that also answers the host names
     * and origins given, as {@code serve --allowed-hosts} and {@code --allowed-origins}.
     */
    static ApiServer allowing(Path dataDir, boolean keys, List<String> hosts, List<String> origins) throws Exception {
        return new ApiServer(
                dataDir,
                keys ? GatewayAuth.withRoles(KEYS) : GatewayAuth.local(Principal.ANONYMOUS),
                HttpApi.Options.DEFAULT,
                hosts,
                origins);
    }

    /** A server without keys: every caller is the local user. */
    static ApiServer withoutKeys(Path dataDir) throws Exception {
        return new ApiServer(dataDir, GatewayAuth.local(Principal.ANONYMOUS), HttpApi.Options.DEFAULT);
    }

    /** Waits (generously: the model loads on a shared machine) until {@code /readyz} answers 200. */
    void awaitReady() throws InterruptedException {
        long until = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!api.ready()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("the API was not ready within 3 minutes");
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        try {
            http.close();
            gateway.close();
        } finally {
            mcp.close();
        }
    }
}
