package dev.toolscout.mcp.gateway;

import dev.toolscout.model.Role;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
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
 * servlet filter in front of the transport (after the API key and the frame checks):
 *
 * <ul>
 *   <li>refuses a new session ({@code initialize}, or a POST without a session id) when as many as the cap are
 *       open (503), when the caller's key holds its share already (429), or when only the admins' reserve is
 *       left and the key is not an admin's (503), each with {@code Retry-After} and a JSON-RPC error naming the
 *       limit and its value;
 *   <li>binds every session to the caller that started it ({@link Caller#id()}): a request naming a session of
 *       another key gets exactly the answer of an unknown session, HTTP 404 (denied == missing), and reaches
 *       nothing of it; so does a DELETE.
 * </ul>
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

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    private final SessionLimits limits;
    private final Map<String, McpStreamableServerSession> sdkSessions;
    /** When each session last sent a request, in {@link System#nanoTime()}; set at its first sight. */
    private final Map<String, Long> lastSeen = new ConcurrentHashMap<>();

    private final Consumer<String> onClosed;
    private final ScheduledExecutorService sweeper;
    /** Who started each session ({@link Caller#id()}), noted as the SDK names the new session, before any answer. */
    private final Map<String, String> owners = new ConcurrentHashMap<>();

    private final Object admit = new Object();
    private int starting;
    /** Per caller, its sessions being started now (guarded by {@link #admit}). */
    private final Map<String, Integer> startingBy = new java.util.HashMap<>();

    /**
     * @param onClosed told the id of every session this closes (the gateway forgets what it disclosed to it)
     */
    HttpSessions(
            HttpServletStreamableServerTransportProvider provider, SessionLimits limits, Consumer<String> onClosed) {
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
            throw new IllegalStateException(
                    "the MCP SDK's session map was not found (" + e + "): without it idle "
                            + "sessions could not be closed; this ToolScout needs the MCP Java SDK version its build pins",
                    e);
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
                owners.remove(id);
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
                owners.remove(id);
                onClosed.accept(id);
            }
        }
        if (closed > 0) {
            LOG.info(
                    "closed {} MCP sessions idle for more than {} ms; {} open",
                    closed,
                    limits.idleTimeout().toMillis(),
                    sdkSessions.size());
        }
        return closed;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        Caller caller = req.getAttribute(GatewayAuth.CALLER_ATTRIBUTE) instanceof Caller c ? c : null;
        String owner = caller == null ? "local" : caller.id();
        String session = req.getHeader("mcp-session-id");
        // an initialize starts a new session even when it names one (the SDK then makes another): it is admitted
        boolean starts = "POST".equals(req.getMethod())
                && (session == null || "initialize".equals(req.getAttribute(JsonRpcGuard.METHOD_ATTRIBUTE)));
        if (!starts) {
            if (session != null && (!owner.equals(owners.get(session)) || !sdkSessions.containsKey(session))) {
                // unknown, closed, or another caller's: one answer for all three, before anything else is looked at
                notFound(resp);
                return;
            }
            touched(session);
            chain.doFilter(request, response);
            if (session != null && "DELETE".equals(req.getMethod()) && !sdkSessions.containsKey(session)) {
                owners.remove(session);
                if (lastSeen.remove(session) != null) {
                    onClosed.accept(session); // at once: its calls in progress are cancelled
                }
            }
            return;
        }
        boolean keyed = caller != null && caller.fromKey();
        synchronized (admit) {
            int open = sdkSessions.size() + starting;
            if (keyed) {
                int held = held(owner) + startingBy.getOrDefault(owner, 0);
                if (held >= limits.maxSessionsPerKey()) {
                    refuse(
                            resp,
                            429,
                            String.format(
                                    Locale.ROOT,
                                    "too many MCP sessions for %s: it holds %,d, the most one "
                                            + "API key may hold (--max-sessions-per-key %d)",
                                    owner,
                                    held,
                                    limits.maxSessionsPerKey()));
                    return;
                }
                int forKeys = limits.maxSessions() - limits.adminReserve();
                if (caller.role() != Role.ADMIN && open >= forKeys) {
                    refuse(
                            resp,
                            503,
                            String.format(
                                    Locale.ROOT,
                                    "too many MCP sessions: %,d are open, the most the gateway "
                                            + "allows keys without the role admin (--max-sessions %d less --admin-session-reserve %d)",
                                    open,
                                    limits.maxSessions(),
                                    limits.adminReserve()));
                    return;
                }
            }
            if (open >= limits.maxSessions()) {
                refuse(
                        resp,
                        503,
                        String.format(
                                Locale.ROOT,
                                "too many MCP sessions: %,d are open, the most the gateway "
                                        + "allows (--max-sessions %d)",
                                sdkSessions.size(),
                                limits.maxSessions()));
                return;
            }
            starting++;
            startingBy.merge(owner, 1, Integer::sum);
        }
        String started = null;
        try {
            Owning owning = new Owning(resp, owner);
            chain.doFilter(request, owning);
            started = owning.session;
        } finally {
            synchronized (admit) {
                starting--;
                startingBy.computeIfPresent(owner, (k, n) -> n > 1 ? n - 1 : null);
            }
            if (started != null && !sdkSessions.containsKey(started)) {
                owners.remove(started); // the session did not start after all
            }
            touched(started);
        }
    }

    /** The sessions {@code owner} holds open now (called under {@link #admit}). */
    private int held(String owner) {
        int n = 0;
        for (Map.Entry<String, String> e : owners.entrySet()) {
            if (e.getValue().equals(owner) && sdkSessions.containsKey(e.getKey())) {
                n++;
            }
        }
        return n;
    }

    /**
     * The response to an initialize: records the new session's owner the moment the SDK names it in the {@code
     * Mcp-Session-Id} header, before the answer (and so the id) can reach the client, whose next request names it.
     */
    private final class Owning extends HttpServletResponseWrapper {
        private final String owner;
        private volatile String session;

        Owning(HttpServletResponse real, String owner) {
            super(real);
            this.owner = owner;
        }

        private void noted(String name, String value) {
            if ("mcp-session-id".equalsIgnoreCase(name) && value != null) {
                owners.put(value, owner);
                session = value;
            }
        }

        @Override
        public void setHeader(String name, String value) {
            noted(name, value);
            super.setHeader(name, value);
        }

        @Override
        public void addHeader(String name, String value) {
            noted(name, value);
            super.addHeader(name, value);
        }
    }

    /**
     * The answer to a request naming a session that is not the caller's: unknown, closed, or another key's, in the
     * same bytes (the id is not repeated). The MCP specification's answer to an expired session, whatever the
     * method: 404, and the client starts a new session.
     */
    private void notFound(HttpServletResponse resp) throws IOException {
        write(
                resp,
                404,
                JsonRpcGuard.INVALID_REQUEST,
                "Session not found: the Mcp-Session-Id names no open session "
                        + "of this caller (a session idle for " + human(limits.idleTimeout())
                        + " is closed); start a new session "
                        + "with initialize",
                false);
    }

    /** Refuses a new session past a limit, with {@code Retry-After}: when idle sessions are next closed. */
    private void refuse(HttpServletResponse resp, int status, String limit) throws IOException {
        String message = limit + "; a session idle for " + human(limits.idleTimeout()) + " is closed, or close unused "
                + "sessions (HTTP DELETE)";
        resp.setHeader(
                "Retry-After", Long.toString(Math.max(1, limits.idleTimeout().toSeconds() / 4)));
        write(resp, status, TOO_MANY_SESSIONS_CODE, message, true);
    }

    private static void write(HttpServletResponse resp, int status, int code, String message, boolean close)
            throws IOException {
        resp.setStatus(status);
        if (close) {
            // a POST's body may be left unread here (one not sent as JSON is not read before), so Jetty may close the
            // connection after this answer; saying so keeps a client from sending its next request on a connection
            // about to close (seen as "header parser received no bytes" in java.net.http)
            resp.setHeader("Connection", "close");
        }
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        String body = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + code + ",\"message\":"
                + JSON.writeValueAsString(message) + "}}";
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
