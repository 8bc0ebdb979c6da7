package dev.toolscout.mcp.gateway;

import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the gateway's Streamable HTTP sessions to their {@link SessionLimits}: closes a session idle for
 * longer than the timeout (its event streams end, so their sockets and its memory are freed), and, as a
 * servlet filter in front of the transport, refuses a new session when as many as the cap are open.
 *
 * <p>Why it reaches into the SDK: the MCP Java SDK (2.1.0) keeps its sessions in a private map that only a
 * client's DELETE empties. A client that exits without one (most do) left its session, and any event stream
 * it had open, for the life of the process; its own sweeper skips a session with an open stream, which is
 * exactly what a vanished client leaves. The map is looked up once, at start, and a missing one (an SDK
 * whose inside changed) fails the start rather than leaving sessions unbounded; the gateway's session tests
 * run against the SDK version the build pins. Thread-safe.
 */
final class HttpSessions implements Filter, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpSessions.class);
  /** The JSON-RPC error code of a refused session: the implementation-defined server-error range. */
  static final int TOO_MANY_SESSIONS_CODE = -32000;
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  private final SessionLimits limits;
  private final Map<String, McpStreamableServerSession> sdkSessions;
  /** When each session last sent a request, in {@link System#nanoTime()}; set at its first sight. */
  private final Map<String, Long> lastSeen = new ConcurrentHashMap<>();
  private final Consumer<String> onClosed;
  private final ScheduledExecutorService sweeper;
  private final Object admit = new Object();
  private int starting;

  /**
   * @param onClosed told the id of every session this closes (the gateway forgets what it disclosed to it)
   */
  HttpSessions(HttpServletStreamableServerTransportProvider provider, SessionLimits limits, Consumer<String> onClosed) {
    this.limits = limits;
    this.sdkSessions = sessionMap(provider);
    this.onClosed = onClosed;
    this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "toolscout-session-sweeper");
      t.setDaemon(true);
      return t;
    });
    long every = Math.max(1, limits.idleTimeout().toMillis() / 4);
    sweeper.scheduleWithFixedDelay(this::sweepQuietly, every, every, TimeUnit.MILLISECONDS);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, McpStreamableServerSession> sessionMap(HttpServletStreamableServerTransportProvider p) {
    try {
      Field f = HttpServletStreamableServerTransportProvider.class.getDeclaredField("sessions");
      f.setAccessible(true);
      return (Map<String, McpStreamableServerSession>) f.get(p);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("the MCP SDK's session map was not found (" + e + "): without it idle "
          + "sessions could not be closed; this ToolScout needs the MCP Java SDK version its build pins", e);
    }
  }

  /** The sessions open now. */
  int open() {
    return sdkSessions.size();
  }

  /**
   * Notes a request on a session (called for every request that names one). An id the SDK does not know is
   * not noted, so made-up ids cannot grow the table.
   */
  void touched(String sessionId) {
    if (sessionId != null && sdkSessions.containsKey(sessionId)) {
      lastSeen.put(sessionId, System.nanoTime());
    }
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.warn("closing idle MCP sessions failed: {}", e.toString());
    }
  }

  /** Closes every session idle for longer than the timeout; returns how many it closed. */
  int sweep() {
    long now = System.nanoTime();
    long idle = limits.idleTimeout().toNanos();
    int closed = 0;
    for (Map.Entry<String, McpStreamableServerSession> e : sdkSessions.entrySet()) {
      String id = e.getKey();
      Long seen = lastSeen.putIfAbsent(id, now); // a session first seen now starts its clock now
      if (seen != null && now - seen > idle && sdkSessions.remove(id, e.getValue())) {
        lastSeen.remove(id);
        closed++;
        try {
          e.getValue().closeGracefully().block(Duration.ofSeconds(5));
        } catch (RuntimeException ex) {
          LOG.debug("closing idle MCP session {} failed: {}", id, ex.toString());
        }
        onClosed.accept(id);
      }
    }
    // sessions the SDK ended itself (a client's DELETE, a broken stream)
    for (String id : List.copyOf(lastSeen.keySet())) {
      if (!sdkSessions.containsKey(id) && lastSeen.remove(id) != null) {
        onClosed.accept(id);
      }
    }
    if (closed > 0) {
      LOG.info("closed {} MCP sessions idle for more than {} ms; {} open", closed, limits.idleTimeout().toMillis(),
          sdkSessions.size());
    }
    return closed;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    String session = req.getHeader("mcp-session-id");
    if (session != null || !"POST".equals(req.getMethod())) {
      touched(session);
      chain.doFilter(request, response);
      if (session != null && "DELETE".equals(req.getMethod()) && !sdkSessions.containsKey(session)
          && lastSeen.remove(session) != null) {
        onClosed.accept(session); // at once: its calls in progress are cancelled
      }
      return;
    }
    // a POST without a session id starts one (initialize), which the cap may refuse
    synchronized (admit) {
      if (sdkSessions.size() + starting >= limits.maxSessions()) {
        refuse((HttpServletResponse) response);
        return;
      }
      starting++;
    }
    try {
      chain.doFilter(request, response);
    } finally {
      synchronized (admit) {
        starting--;
      }
      touched(((HttpServletResponse) response).getHeader("mcp-session-id"));
    }
  }

  private void refuse(HttpServletResponse resp) throws IOException {
    String message = String.format(Locale.ROOT, "too many MCP sessions: %,d are open, the most the gateway "
        + "allows (--max-sessions %d); a session idle for %s is closed, or close unused sessions (HTTP DELETE)",
        sdkSessions.size(), limits.maxSessions(), human(limits.idleTimeout()));
    resp.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    // the request's body is left unread (it is not ours to parse), so Jetty closes the connection after this
    // answer; saying so keeps a client from sending its next request on a connection about to close (seen as
    // "header parser received no bytes" in java.net.http)
    resp.setHeader("Connection", "close");
    resp.setHeader("Retry-After", Long.toString(Math.max(1, limits.idleTimeout().toSeconds() / 4)));
    resp.setContentType("application/json");
    resp.setCharacterEncoding("UTF-8");
    String body = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + TOO_MANY_SESSIONS_CODE
        + ",\"message\":" + JSON.writeValueAsString(message) + "}}";
    resp.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
  }

  static String human(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + " h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + " min";
    }
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
  }
}
