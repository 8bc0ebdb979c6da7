package dev.toolscout.mcp.upstream;

import dev.toolscout.execution.Shares;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One upstream server: its connection, its state and its reconnects. Each connect is a new generation;
 * anything an older generation reports (a late exit, a late tool list) is ignored. Thread-safe.
 */
final class UpstreamConnection {
    private static final Logger LOG = LoggerFactory.getLogger(UpstreamConnection.class);
    /** Pages of tools/list followed before a server is taken to be looping. */
    static final int MAX_PAGES = 1000;

    /** Told about new tool lists and state changes; called on the manager's threads, never under a lock. */
    interface Listener {
        void toolsListed(UpstreamConnection connection, List<McpSchema.Tool> tools);

        void stateChanged(UpstreamConnection connection);
    }

    private final ServerConfig config;
    /** The tool-name prefix: the config's ({@link ServerConfig#prefix()}), checked free by the manager. */
    private final String prefix;

    private final UpstreamLimits limits;
    private final ScheduledExecutorService scheduler;
    private final Executor io;
    private final Listener listener;
    private final McpJsonMapper json;
    private final Set<CompletableFuture<?>> inflight = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> firstAttempt = new CompletableFuture<>();
    private final AtomicBoolean relistPending = new AtomicBoolean();
    /** The bulkhead: one permit per call in progress, {@link UpstreamLimits#maxConcurrentCalls} in all. */
    private final Semaphore calls;
    /** The manager's bulkhead over all servers, {@link UpstreamLimits#maxTotalCalls} permits, shared. */
    private final Semaphore allCalls;
    /** The calls in progress per principal (absent: none), each at most {@link UpstreamLimits#maxCallsPerPrincipal}. */
    private final Shares<dev.toolscout.model.Principal> byPrincipal;
    /** Each tool call in progress, by the thread waiting for it, so that it can be cancelled. */
    private final Map<Thread, CompletableFuture<?>> callers = new ConcurrentHashMap<>();
    /** In {@link #callers} while a call holds a slot but its request is not sent yet; then cancelled, if it was. */
    private static final CompletableFuture<?> STARTING = new CompletableFuture<>();

    private static final CompletableFuture<?> CANCELLED_BEFORE_SENT = new CompletableFuture<>();

    private volatile McpAsyncClient client;
    private volatile McpClientTransport transport;
    private volatile ServerStatus.State state = ServerStatus.State.CONNECTING;
    private volatile String lastError;
    private volatile String lastProblem;
    private volatile Instant since = Instant.now();
    private volatile Instant nextRetry;
    private volatile int toolCount;
    private int generation;
    private int failures;
    private int restarts;
    private ScheduledFuture<?> retry;

    UpstreamConnection(
            ServerConfig config,
            String prefix,
            UpstreamLimits limits,
            ScheduledExecutorService scheduler,
            Executor io,
            McpJsonMapper json,
            Listener listener,
            Semaphore allCalls) {
        this.config = config;
        this.prefix = prefix;
        this.limits = limits;
        this.scheduler = scheduler;
        this.io = io;
        this.json = json;
        this.listener = listener;
        this.calls = new Semaphore(limits.maxConcurrentCalls());
        this.byPrincipal = new Shares<>(limits.maxCallsPerPrincipal());
        this.allCalls = allCalls;
    }

    ServerConfig config() {
        return config;
    }

    String prefix() {
        return prefix;
    }

    void start() {
        int gen;
        synchronized (this) {
            gen = ++generation;
        }
        run(() -> connect(gen));
    }

    /**
     * Runs blocking work (a connect, a re-list, a close: each may wait up to the server's timeout) on the
     * manager's I/O threads, never on its few scheduler threads, so a server that does not answer holds up
     * no other server. Work handed in after the manager closed is dropped.
     */
    private void run(Runnable work) {
        try {
            io.execute(work);
        } catch (RejectedExecutionException closed) {
            LOG.debug("MCP server '{}': manager closed, work dropped", config.name());
        }
    }

    /** Completes when the first connect attempt has succeeded or failed. */
    CompletableFuture<Void> firstAttempt() {
        return firstAttempt;
    }

    void toolCount(int n) {
        toolCount = n;
    }

    ServerStatus status() {
        return new ServerStatus(
                config.name(),
                prefix,
                config.transport().wire(),
                config.endpoint(),
                state,
                toolCount,
                lastError,
                restarts,
                since,
                state == ServerStatus.State.DOWN ? nextRetry : null);
    }

    /** The pid of a stdio server's process, or -1. For tests and status pages. */
    long pid() {
        return transport instanceof ProcessTransport p ? p.pid() : -1;
    }

    private void connect(int gen) {
        synchronized (this) {
            if (gen != generation || state == ServerStatus.State.STOPPED) {
                return;
            }
        }
        setState(ServerStatus.State.CONNECTING, null);
        McpAsyncClient c = null;
        try {
            c = open(gen);
            List<McpSchema.Tool> tools = listAll(c);
            synchronized (this) {
                if (gen != generation || state == ServerStatus.State.STOPPED) {
                    closeQuietly(c);
                    return;
                }
                failures = 0;
                lastProblem = null;
            }
            listener.toolsListed(this, tools);
            setState(ServerStatus.State.READY, null);
            LOG.info(
                    "MCP server '{}' ready: {} tools over {}",
                    config.name(),
                    tools.size(),
                    config.transport().wire());
        } catch (RuntimeException e) {
            closeQuietly(c);
            failed(gen, "cannot connect: " + describe(e));
        } finally {
            firstAttempt.complete(null);
        }
    }

    private McpAsyncClient open(int gen) {
        if (config.transport() != ServerConfig.Transport.STDIO) {
            probe(config.url());
        }
        if (config.transport() == ServerConfig.Transport.HTTP) {
            try {
                return initialize(gen, streamableHttp());
            } catch (RuntimeException streamable) {
                // servers that only speak the legacy transport refuse the POST; try the SSE handshake on the same URL
                try {
                    McpAsyncClient c = initialize(gen, sse());
                    LOG.info("MCP server '{}' speaks only the legacy SSE transport; using it", config.name());
                    return c;
                } catch (RuntimeException legacy) {
                    throw new UpstreamException(
                            UpstreamException.Kind.DOWN,
                            null,
                            "Streamable HTTP failed (" + describe(streamable) + "), and so did SSE (" + describe(legacy)
                                    + ")",
                            streamable);
                }
            }
        }
        return initialize(gen, config.transport() == ServerConfig.Transport.SSE ? sse() : process(gen));
    }

    /**
     * Opens and closes a TCP connection to the server first. The SDK's HTTP transports report a refused
     * connection to their error handler but leave the request waiting for its timeout, so without this a
     * server that is down would hold each reconnect for the whole timeout (twice: Streamable HTTP, then SSE).
     */
    private void probe(URI u) {
        int port = u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
        int wait = (int) Math.min(config.timeout().toMillis(), 5_000);
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(u.getHost(), port), wait);
        } catch (java.io.IOException e) {
            throw new UpstreamException(
                    UpstreamException.Kind.DOWN,
                    null,
                    "cannot reach " + u.getHost() + ":" + port + " ("
                            + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                            + ")",
                    e);
        }
    }

    private McpAsyncClient initialize(int gen, McpClientTransport t) {
        // The SDK applies its request timeout to initialize too, which must wait out a slow start; every later
        // request is held to the server's own timeout by await and call, which give up first.
        McpAsyncClient c = McpClient.async(t)
                .requestTimeout(startTimeout())
                .initializationTimeout(startTimeout())
                .clientInfo(McpSchema.Implementation.builder("toolscout", "0.1.0")
                        .title("ToolScout")
                        .build())
                .toolsChangeConsumer(ignored -> {
                    relistSoon(gen);
                    return Mono.empty();
                })
                .build();
        try {
            await(c.initialize(), "initialize", startTimeout());
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
        synchronized (this) {
            client = c;
            transport = t;
        }
        return c;
    }

    private McpClientTransport process(int gen) {
        return new ProcessTransport(
                config, json, limits.maxResponseBytes(), problem -> problem(gen, problem), why -> failed(gen, why));
    }

    private McpClientTransport streamableHttp() {
        URI u = config.url();
        return HttpClientStreamableHttpTransport.builder(origin(u))
                .endpoint(pathAndQuery(u))
                .jsonMapper(json)
                .requestBuilder(headers())
                .connectTimeout(config.timeout())
                .maxResponseSize(limits.maxResponseBytes())
                .build();
    }

    // the legacy transport is deprecated in the SDK, and still what some deployed servers speak
    @SuppressWarnings("deprecation")
    private McpClientTransport sse() {
        URI u = config.url();
        return HttpClientSseClientTransport.builder(origin(u))
                .sseEndpoint(pathAndQuery(u))
                .jsonMapper(json)
                .requestBuilder(headers())
                .connectTimeout(config.timeout())
                .maxResponseSize(limits.maxResponseBytes())
                .build();
    }

    private HttpRequest.Builder headers() {
        HttpRequest.Builder b = HttpRequest.newBuilder();
        boolean auth = false;
        for (Map.Entry<String, String> h : config.headers().entrySet()) {
            b.header(h.getKey(), h.getValue());
            auth |= h.getKey().equalsIgnoreCase("authorization");
        }
        if (config.apiKey() != null && !auth) {
            b.header("Authorization", "Bearer " + config.apiKey());
            auth = true;
        }
        String info = config.url().getRawUserInfo();
        if (info != null && !auth) {
            // https://user:password@host: HTTP clients send user-info as Basic authentication, never in the URL
            String decoded =
                    java.net.URLDecoder.decode(info.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
            b.header(
                    "Authorization",
                    "Basic "
                            + java.util.Base64.getEncoder()
                                    .encodeToString(decoded.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        return b;
    }

    /** Scheme, host and port: the user-info is sent as a header ({@link #headers()}), not in the URL. */
    private static String origin(URI u) {
        return u.getScheme() + "://"
                + (u.getRawUserInfo() == null
                        ? u.getRawAuthority()
                        : u.getRawAuthority().substring(u.getRawAuthority().lastIndexOf('@') + 1));
    }

    private static String pathAndQuery(URI u) {
        String p = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        return u.getRawQuery() == null ? p : p + "?" + u.getRawQuery();
    }

    /** Lists every tool, following {@code nextCursor}. */
    private List<McpSchema.Tool> listAll(McpAsyncClient c) {
        List<McpSchema.Tool> out = new ArrayList<>();
        Set<String> cursors = new HashSet<>();
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            McpSchema.ListToolsResult r = await(c.listTools(cursor), "tools/list");
            if (r == null) {
                throw new UpstreamException(UpstreamException.Kind.PROTOCOL, null, "tools/list returned nothing", null);
            }
            if (r.tools() != null) {
                out.addAll(r.tools());
            }
            cursor = r.nextCursor();
            if (cursor == null || cursor.isEmpty()) {
                return out;
            }
            if (!cursors.add(cursor)) {
                throw new UpstreamException(
                        UpstreamException.Kind.PROTOCOL,
                        null,
                        "tools/list returned cursor '" + ProcessTransport.abbreviate(cursor, 60) + "' twice",
                        null);
            }
        }
        throw new UpstreamException(
                UpstreamException.Kind.PROTOCOL, null, "tools/list did not end after " + MAX_PAGES + " pages", null);
    }

    /**
     * Waits for one request, at most the server's timeout; a process exit fails it at once instead of leaving
     * it to time out.
     */
    private <T> T await(Mono<T> request, String what) {
        return await(request, what, config.timeout());
    }

    private <T> T await(Mono<T> request, String what, Duration timeout) {
        CompletableFuture<T> f = request.toFuture();
        inflight.add(f);
        try {
            return f.get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            String problem = lastProblem;
            throw new UpstreamException(
                    UpstreamException.Kind.TIMEOUT,
                    null,
                    what + " got no answer within " + timeout.toMillis() + " ms"
                            + (problem == null ? "" : "; the server " + problem),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamException(UpstreamException.Kind.DOWN, null, what + " was interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r
                    ? r
                    : new UpstreamException(
                            UpstreamException.Kind.PROTOCOL,
                            null,
                            what + " failed: " + describe(e.getCause()),
                            e.getCause());
        } finally {
            inflight.remove(f);
        }
    }

    /** Lists the tools again (on {@code list_changed} or the periodic re-sync), at most one at a time. */
    void relistSoon(int gen) {
        if (!relistPending.compareAndSet(false, true)) {
            return;
        }
        run(() -> {
            relistPending.set(false);
            McpAsyncClient c;
            synchronized (this) {
                if (gen != generation) {
                    return;
                }
                c = client;
            }
            if (c == null || !(state == ServerStatus.State.READY || state == ServerStatus.State.DEGRADED)) {
                return;
            }
            try {
                List<McpSchema.Tool> tools = listAll(c);
                synchronized (this) {
                    if (gen != generation) {
                        return;
                    }
                }
                listener.toolsListed(this, tools);
            } catch (RuntimeException e) {
                failed(gen, "re-listing tools failed: " + describe(e));
            }
        });
    }

    /** The periodic re-sync: lists the tools of a ready server again. */
    void resync() {
        int gen;
        synchronized (this) {
            gen = generation;
        }
        relistSoon(gen);
    }

    /**
     * Calls one tool by its upstream name, waiting at most the server's timeout.
     *
     * @param principal whom the call is for: one principal holds at most {@link UpstreamLimits#maxCallsPerPrincipal}
     *     of this server's slots; {@code null} for ToolScout's own calls, which only the server's cap bounds
     * @throws UpstreamException naming the server and what went wrong
     */
    McpSchema.CallToolResult call(String tool, Map<String, Object> arguments, dev.toolscout.model.Principal principal) {
        McpAsyncClient c = client;
        ServerStatus.State s = state;
        if (c == null || !(s == ServerStatus.State.READY || s == ServerStatus.State.DEGRADED)) {
            throw unavailable(s);
        }
        if (principal != null && !byPrincipal.tryTake(principal)) {
            throw new UpstreamException(
                    UpstreamException.Kind.BUSY,
                    config.name(),
                    "is busy for this caller: it has "
                            + limits.maxCallsPerPrincipal()
                            + " calls in progress on this server, the most one caller may hold (half "
                            + "of --max-upstream-calls " + limits.maxConcurrentCalls()
                            + ", so others always find a slot); try again "
                            + "when one has ended",
                    null);
        }
        // noted before the slot is taken: a cancel that comes once the call counts as in progress (its client's
        // session closed) is never lost, even before the request is sent
        Thread caller = Thread.currentThread();
        callers.put(caller, STARTING);
        try {
            if (!calls.tryAcquire()) {
                throw new UpstreamException(
                        UpstreamException.Kind.BUSY,
                        config.name(),
                        "is busy: "
                                + limits.maxConcurrentCalls()
                                + " calls to it are in progress, the most one server may have "
                                + "(--max-upstream-calls); try again when one has ended",
                        null);
            }
            if (!allCalls.tryAcquire()) {
                calls.release();
                throw new UpstreamException(
                        UpstreamException.Kind.BUSY,
                        config.name(),
                        "is busy: "
                                + limits.maxTotalCalls()
                                + " calls to MCP servers are in progress, the most the gateway allows at once "
                                + "(--max-upstream-calls-total); try again when one has ended",
                        null);
            }
            try {
                return callHoldingPermit(c, tool, arguments);
            } finally {
                allCalls.release();
                calls.release();
            }
        } finally {
            callers.remove(caller);
            if (principal != null) {
                byPrincipal.release(principal);
            }
        }
    }

    /** The calls in progress on this server now. */
    int callsInProgress() {
        return limits.maxConcurrentCalls() - calls.availablePermits();
    }

    /** How long the server may take to start and answer initialize: never less than its request timeout. */
    private Duration startTimeout() {
        Duration start = limits.startTimeout();
        return start.compareTo(config.timeout()) > 0 ? start : config.timeout();
    }

    private McpSchema.CallToolResult callHoldingPermit(McpAsyncClient c, String tool, Map<String, Object> arguments) {
        CompletableFuture<McpSchema.CallToolResult> f = c.callTool(McpSchema.CallToolRequest.builder(tool)
                        .arguments(arguments == null ? Map.of() : arguments)
                        .build())
                .toFuture();
        inflight.add(f);
        if (client != c) { // removed or down while the request was sent: its sweep of inflight may have missed f
            f.completeExceptionally(new UpstreamException(
                    UpstreamException.Kind.DOWN, config.name(), "went down or was removed during the call", null));
        }
        Thread caller = Thread.currentThread();
        if (!callers.replace(caller, STARTING, f)) {
            f.cancel(true); // its client's session closed while the request was being sent
        }
        try {
            McpSchema.CallToolResult r = f.get(config.timeout().toMillis() + 500, TimeUnit.MILLISECONDS);
            if (state == ServerStatus.State.DEGRADED) {
                setState(ServerStatus.State.READY, null);
            }
            return r;
        } catch (TimeoutException e) {
            f.cancel(true);
            throw timedOut(tool);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamException(UpstreamException.Kind.DOWN, config.name(), "the call was interrupted", e);
        } catch (java.util.concurrent.CancellationException e) {
            throw new UpstreamException(
                    UpstreamException.Kind.CANCELLED,
                    config.name(),
                    "tools/call '" + tool + "' was cancelled: the client that asked is gone",
                    e);
        } catch (ExecutionException e) {
            throw classify(tool, e.getCause());
        } finally {
            inflight.remove(f);
        }
    }

    /**
     * Cancels the tool call {@code caller} is waiting for, if any: the request to the server is dropped (the
     * SDK tells it with {@code notifications/cancelled}) and the caller gets a {@code CANCELLED} error at once.
     */
    boolean cancelCallOf(Thread caller) {
        CompletableFuture<?>[] seen = new CompletableFuture<?>[1];
        callers.computeIfPresent(caller, (t, current) -> {
            seen[0] = current;
            return current == STARTING ? CANCELLED_BEFORE_SENT : current;
        });
        CompletableFuture<?> f = seen[0];
        if (f == null) {
            return false;
        }
        return f == STARTING || f == CANCELLED_BEFORE_SENT || f.cancel(true);
    }

    /**
     * Throws the retriable {@code DOWN} error a call would get when the server cannot take calls now (it is
     * connecting, down or stopped); returns quietly when it can.
     */
    void checkAvailable() {
        ServerStatus.State s = state;
        if (client == null || !(s == ServerStatus.State.READY || s == ServerStatus.State.DEGRADED)) {
            throw unavailable(s);
        }
    }

    private UpstreamException unavailable(ServerStatus.State s) {
        Instant next = nextRetry;
        String error = lastError;
        return new UpstreamException(
                UpstreamException.Kind.DOWN,
                config.name(),
                "is " + s.name().toLowerCase(java.util.Locale.ROOT) + (error == null ? "" : " (" + error + ")")
                        + (s == ServerStatus.State.DOWN && next != null
                                ? "; next reconnect in "
                                        + Math.max(
                                                0,
                                                Duration.between(Instant.now(), next)
                                                        .toMillis()) + " ms"
                                : ""),
                null);
    }

    private UpstreamException timedOut(String tool) {
        String problem = lastProblem;
        String msg = "did not answer tools/call '" + tool + "' within "
                + config.timeout().toMillis() + " ms" + (problem == null ? "" : "; it last " + problem);
        setState(ServerStatus.State.DEGRADED, msg);
        return new UpstreamException(UpstreamException.Kind.TIMEOUT, config.name(), msg, null);
    }

    private UpstreamException classify(String tool, Throwable cause) {
        if (cause instanceof UpstreamException u) {
            return u;
        }
        if (cause instanceof McpError e && e.getJsonRpcError() != null) {
            Integer code = e.getJsonRpcError().code();
            if (code != null
                    && code == UpstreamException.TOO_LARGE_CODE
                    && ProcessTransport.TOO_LARGE_DATA.equals(
                            e.getJsonRpcError().data())) {
                return new UpstreamException(
                        UpstreamException.Kind.TOO_LARGE,
                        config.name(),
                        "tools/call '" + tool + "' failed: the server "
                                + e.getJsonRpcError().message(),
                        e);
            }
            return new UpstreamException(
                    UpstreamException.Kind.PROTOCOL,
                    config.name(),
                    "tools/call '" + tool + "' failed: " + e.getJsonRpcError().message() + " (JSON-RPC error " + code
                            + ")",
                    e);
        }
        Throwable root = McpError.findRootCause(cause);
        if (root instanceof TimeoutException || cause instanceof TimeoutException) {
            return timedOut(tool);
        }
        if (state == ServerStatus.State.DOWN) {
            return new UpstreamException(
                    UpstreamException.Kind.DOWN, config.name(), "is down (" + lastError + ")", cause);
        }
        if (root instanceof java.io.IOException && config.transport() != ServerConfig.Transport.STDIO) {
            // an HTTP server that stopped answering (refused, reset): down now, not at the next re-sync
            int gen;
            synchronized (this) {
                gen = generation;
            }
            String why = "tools/call '" + tool + "' failed: " + describe(cause);
            failed(gen, why);
            return new UpstreamException(UpstreamException.Kind.DOWN, config.name(), "went down: " + why, cause);
        }
        return new UpstreamException(
                UpstreamException.Kind.PROTOCOL,
                config.name(),
                "tools/call '" + tool + "' failed: " + describe(cause),
                cause);
    }

    private void problem(int gen, String problem) {
        synchronized (this) {
            if (gen != generation) {
                return;
            }
        }
        LOG.warn("MCP server '{}' {}", config.name(), config.scrub(problem));
        lastProblem = problem;
        if (state == ServerStatus.State.READY) {
            setState(ServerStatus.State.DEGRADED, problem);
        }
    }

    /** Marks the server down, fails the calls in flight and schedules a reconnect. */
    private void failed(int gen, String why) {
        McpAsyncClient old;
        Duration wait;
        synchronized (this) {
            if (gen != generation || state == ServerStatus.State.STOPPED) {
                return;
            }
            old = client;
            client = null;
            transport = null;
            failures++;
            wait = limits.backoff(failures);
            nextRetry = Instant.now().plus(wait);
            int next = ++generation;
            if (retry != null) {
                retry.cancel(false);
            }
            retry = scheduler.schedule(
                    () -> run(() -> {
                        synchronized (this) {
                            restarts++;
                        }
                        connect(next);
                    }),
                    wait.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        LOG.warn(
                "MCP server '{}' is down: {}; reconnecting in {} ms",
                config.name(),
                config.scrub(why),
                wait.toMillis());
        setState(ServerStatus.State.DOWN, why);
        UpstreamException down =
                new UpstreamException(UpstreamException.Kind.DOWN, config.name(), "went down: " + why, null);
        for (CompletableFuture<?> f : List.copyOf(inflight)) {
            f.completeExceptionally(down);
        }
        if (old != null) {
            run(() -> closeQuietly(old));
        }
    }

    private void setState(ServerStatus.State s, String rawError) {
        // the status is shown everywhere (mcp list, mcp__list_servers, errors of calls): no secret may be in it
        String error = config.scrub(rawError);
        boolean changed;
        synchronized (this) {
            if (state == ServerStatus.State.STOPPED) {
                return;
            }
            changed = state != s || (error != null && !error.equals(lastError));
            state = s;
            if (s == ServerStatus.State.READY) {
                lastError = null;
            } else if (error != null) {
                lastError = error;
            }
            if (changed) {
                since = Instant.now();
            }
        }
        if (changed) {
            listener.stateChanged(this);
        }
    }

    void stop() {
        McpAsyncClient c;
        synchronized (this) {
            generation++;
            state = ServerStatus.State.STOPPED;
            since = Instant.now();
            if (retry != null) {
                retry.cancel(false);
            }
            c = client;
            client = null;
            transport = null;
        }
        UpstreamException stopped =
                new UpstreamException(UpstreamException.Kind.DOWN, config.name(), "was removed", null);
        inflight.forEach(f -> f.completeExceptionally(stopped));
        closeQuietly(c);
        firstAttempt.complete(null);
    }

    private static void closeQuietly(McpAsyncClient c) {
        if (c == null) {
            return;
        }
        try {
            c.closeGracefully().block(Duration.ofSeconds(3));
        } catch (RuntimeException e) {
            c.close();
        }
    }

    static String describe(Throwable e) {
        Throwable t = e;
        if (t instanceof UpstreamException u && u.server() == null) {
            return u.getMessage();
        }
        StringBuilder sb = new StringBuilder();
        Set<String> seen = new HashSet<>();
        while (t != null && sb.length() < 400) {
            String m = t.getMessage();
            if (m != null && !m.isBlank() && seen.add(m)) {
                if (!sb.isEmpty()) {
                    sb.append(": ");
                }
                sb.append(m.strip());
            } else if (m == null && sb.isEmpty()) {
                sb.append(t.getClass().getSimpleName());
            }
            t = t.getCause();
        }
        return ProcessTransport.abbreviate(sb.toString(), 400);
    }
}
