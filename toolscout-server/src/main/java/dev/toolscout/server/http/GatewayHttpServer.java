package dev.toolscout.server.http;

import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.mcp.gateway.JsonRpcGuard;
import dev.toolscout.mcp.gateway.McpGateway;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The embedded Jetty that serves the MCP gateway over Streamable HTTP at {@code /mcp}, and the approval queue
 * for admin keys at {@code /approvals}, both behind the API-key filter. Binds to 127.0.0.1 unless another host
 * is given. Every error it answers names the problem and nothing internal ({@link JsonRpcGuard}, {@link
 * JsonErrorHandler}): a JSON-RPC error, or on {@code /approvals} the servlet's own {@code {"error": ...}}.
 */
public final class GatewayHttpServer implements AutoCloseable {
  public static final String ENDPOINT = "/mcp";
  /** The approval queue for admin keys (see {@link ApprovalsServlet}). */
  public static final String APPROVALS = "/approvals";
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 8765;

  private final Server jetty;
  private final ServerConnector connector;

  private GatewayHttpServer(Server jetty, ServerConnector connector) {
    this.jetty = jetty;
    this.connector = connector;
  }

  /** Starts serving; port 0 picks a free one. */
  public static GatewayHttpServer start(McpGateway gateway, GatewayAuth auth, String host, int port) throws Exception {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be between 0 and 65535, got: " + port);
    }
    QueuedThreadPool threads = new QueuedThreadPool(64, 4);
    threads.setName("gateway-http");
    Server jetty = new Server(threads);
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost(host);
    connector.setPort(port);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    HttpServletStreamableServerTransportProvider transport = gateway.httpTransport(ENDPOINT);
    ServletHolder mcp = new ServletHolder("mcp", transport);
    mcp.setAsyncSupported(true);
    context.addServlet(mcp, ENDPOINT);
    // in this order: clean error bodies for everything, then the API key, the session limits, and well-formed
    // JSON-RPC frames
    FilterHolder errors = new FilterHolder(JsonRpcGuard.errors(APPROVALS));
    errors.setAsyncSupported(true);
    context.addFilter(errors, "/*", EnumSet.of(DispatcherType.REQUEST));
    FilterHolder filter = new FilterHolder(auth);
    filter.setAsyncSupported(true);
    context.addFilter(filter, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
    // after the key check, so a caller without a key learns nothing about the sessions
    FilterHolder sessions = new FilterHolder(gateway.sessionFilter());
    sessions.setAsyncSupported(true);
    context.addFilter(sessions, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
    FilterHolder frames = new FilterHolder(JsonRpcGuard.frames());
    frames.setAsyncSupported(true);
    context.addFilter(frames, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
    if (gateway.approvalQueue() != null) {
      context.addServlet(new ServletHolder("approvals", new ApprovalsServlet(gateway.approvalQueue())),
          APPROVALS + "/*");
      context.addFilter(filter, APPROVALS + "/*", EnumSet.of(DispatcherType.REQUEST));
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

  public InetSocketAddress address() {
    return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
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
