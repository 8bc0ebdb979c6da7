package dev.toolscout.server.http;

import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.JsonRpcGuard;
import dev.toolscout.mcp.gateway.McpGateway;
import dev.toolscout.server.http.api.HttpApi;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The embedded Jetty that serves the MCP gateway over Streamable HTTP at {@code /mcp} behind the API-key filter,
 * the retired approval queue at {@code /approvals} (410 to a known key: see {@link RetiredApprovalsServlet}), and
 * every other path through the HTTP API
 * ({@link HttpApi}: {@code /v1/...}, {@code /healthz}, {@code /readyz}, {@code /metrics}, {@code /openapi.json},
 * {@code /}). Binds to 127.0.0.1 unless another host is given, and only to a loopback address without API keys.
 * In front of every path, {@link RebindingGuard} refuses a {@code Host} or {@code Origin} that is not this
 * server's (DNS rebinding). Every error it answers names the problem and nothing internal ({@link JsonRpcGuard},
 * {@link JsonErrorHandler}): a JSON-RPC error on {@code /mcp}, and {@code application/problem+json} everywhere
 * else ({@code /approvals} included).
 */
public final class GatewayHttpServer implements AutoCloseable {
    public static final String ENDPOINT = "/mcp";
    /** The retired approval queue: 410 Gone, naming /v1/approvals (see {@link RetiredApprovalsServlet}). */
    public static final String APPROVALS = "/approvals";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8765;

    private final Server jetty;
    private final ServerConnector connector;

    private GatewayHttpServer(Server jetty, ServerConnector connector) {
        this.jetty = jetty;
        this.connector = connector;
    }

    /** Starts serving the gateway, with an HTTP API whose engine is never opened (its routes answer 503). */
    public static GatewayHttpServer start(McpGateway gateway, GatewayAuth auth, String host, int port)
            throws Exception {
        return start(gateway, auth, host, port, new HttpApi(auth, HttpApi.Options.DEFAULT));
    }

    /**
     * Starts serving; port 0 picks a free one.
     *
     * @param gateway the MCP gateway at {@code /mcp} (and its approval queue), or null for the HTTP API alone
     * @param api the HTTP API, whose engine may be opened later ({@link HttpApi#open})
     * @throws IllegalArgumentException for a port out of range, a host that is not a loopback address when
     *     {@code auth} requires no key, or an address that cannot be bound
     */
    public static GatewayHttpServer start(McpGateway gateway, GatewayAuth auth, String host, int port, HttpApi api)
            throws Exception {
        return start(gateway, auth, host, port, api, List.of(), List.of());
    }

    /**
     * Starts serving, answering requests addressed to more names than this server's own.
     *
     * @param allowedHosts host names (or addresses) a request's {@code Host} may name besides this server's
     *     ({@code serve --allowed-hosts}; see {@link RebindingGuard})
     * @param allowedOrigins origins ({@code https://tools.example.com}) a browser's request may come from besides
     *     this server's own ({@code serve --allowed-origins})
     * @throws IllegalArgumentException as {@link #start(McpGateway, GatewayAuth, String, int, HttpApi)}, and for
     *     an allowed host or origin that is not one
     */
    public static GatewayHttpServer start(
            McpGateway gateway,
            GatewayAuth auth,
            String host,
            int port,
            HttpApi api,
            List<String> allowedHosts,
            List<String> allowedOrigins)
            throws Exception {
        RebindingGuard.Allowed allowed = RebindingGuard.Allowed.of(allowedHosts, allowedOrigins);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be between 0 and 65535, got: " + port);
        }
        checkHost(host, auth.requiresKey());
        QueuedThreadPool threads = new QueuedThreadPool(64, 4);
        threads.setName("gateway-http");
        Server jetty = new Server(threads);
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(host);
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        // first of all, on every path: a request addressed to another name, or sent by another site's page, reaches
        // nothing
        FilterHolder rebinding = new FilterHolder(new RebindingGuard(auth.requiresKey(), host, allowed));
        rebinding.setAsyncSupported(true);
        context.addFilter(rebinding, "/*", EnumSet.of(DispatcherType.REQUEST));
        // every path but /mcp and /approvals: the HTTP API, which answers its own errors as problem+json
        // async: an agent run is made off the request thread while its exchange is suspended (Reply.deferred)
        ServletHolder apiHolder = new ServletHolder("api", api.servlet());
        apiHolder.setAsyncSupported(true);
        context.addServlet(apiHolder, "/");
        if (gateway != null) {
            mountGateway(context, gateway, auth);
        }
        jetty.setHandler(context);
        jetty.setErrorHandler(new JsonErrorHandler());
        jetty.setStopAtShutdown(true);
        try {
            jetty.start();
        } catch (java.io.IOException e) {
            jetty.stop();
            throw new IllegalArgumentException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        return new GatewayHttpServer(jetty, connector);
    }

    /** {@code /mcp} and {@code /approvals}, each behind its filters. */
    private static void mountGateway(ServletContextHandler context, McpGateway gateway, GatewayAuth auth) {
        HttpServletStreamableServerTransportProvider transport = gateway.httpTransport(ENDPOINT);
        ServletHolder mcp = new ServletHolder("mcp", transport);
        mcp.setAsyncSupported(true);
        context.addServlet(mcp, ENDPOINT);
        // in this order: clean error bodies, then the API key, well-formed JSON-RPC frames (which name the method,
        // so that an initialize is known as the start of a session even when it carries a session id), and the
        // session limits and owners
        FilterHolder errors = new FilterHolder(JsonRpcGuard.errors());
        errors.setAsyncSupported(true);
        context.addFilter(errors, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
        FilterHolder filter = new FilterHolder(auth);
        filter.setAsyncSupported(true);
        context.addFilter(filter, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
        FilterHolder frames = new FilterHolder(JsonRpcGuard.frames());
        frames.setAsyncSupported(true);
        context.addFilter(frames, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
        // after the key check, so a caller without a key learns nothing about the sessions
        FilterHolder sessions = new FilterHolder(gateway.sessionFilter());
        sessions.setAsyncSupported(true);
        context.addFilter(sessions, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
        if (gateway.approvalQueue() != null) {
            // where the gateway's approval queue was served: retired, it names /v1/approvals (a 401 still comes first).
            // It checks the key itself, so that every answer of it, a 401 included, is problem+json as the HTTP API's
            context.addServlet(new ServletHolder("approvals", new RetiredApprovalsServlet(auth)), APPROVALS + "/*");
        }
    }

    /**
     * Refuses a host that is not a loopback address when there are no API keys: every client would then act as
     * the local user, so only this machine may be one.
     */
    public static void checkHost(String host, boolean keys) {
        if (!keys && !loopback(host)) {
            throw new IllegalArgumentException("--host " + host + " is not a loopback address, and without --api-keys "
                    + "every client would act as the local user; give --api-keys FILE to listen on " + host
                    + ", or bind 127.0.0.1 (the default)");
        }
    }

    /**
     * Checks {@code serve --allowed-hosts} and {@code --allowed-origins} before anything starts.
     *
     * @throws IllegalArgumentException naming the option and the value that is not a host name or an origin
     */
    public static void checkAllowed(List<String> hosts, List<String> origins) {
        RebindingGuard.Allowed.of(hosts, origins);
    }

    /** Whether {@code host} names only this machine: {@code localhost}, 127.x.x.x or ::1. */
    static boolean loopback(String host) {
        try {
            for (java.net.InetAddress a : java.net.InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
    }

    /** The server's base URL, e.g. {@code http://127.0.0.1:8765}. */
    public String baseUrl() {
        return "http://" + connector.getHost() + ":" + connector.getLocalPort();
    }

    /** The gateway's URL, e.g. {@code http://127.0.0.1:8765/mcp}. */
    public String url() {
        return "http://" + connector.getHost() + ":" + connector.getLocalPort() + ENDPOINT;
    }

    public void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() {
        try {
            jetty.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the HTTP server failed: " + e.getMessage(), e);
        }
    }
}
