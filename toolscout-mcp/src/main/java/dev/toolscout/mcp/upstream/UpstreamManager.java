package dev.toolscout.mcp.upstream;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.model.ReservedSources;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolNaming;
import dev.toolscout.model.ToolSpec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the upstream MCP servers connected and their tools in the catalog. Each server's tools are named
 * {@code <prefix>__<tool>} ({@link ToolNaming}); a new tool list (at connect, on {@code
 * notifications/tools/list_changed}, on the periodic re-sync) is applied to the catalog as a diff, so
 * unchanged tools keep their vectors. One server failing, hanging or sending garbage affects only its own
 * tools: every server has its own connection, timeouts and reconnect schedule, and catalog writes never wait
 * on a server.
 *
 * <p>Access control is not applied here: callers ({@code McpActions}, the gateway) check the principal
 * first. Thread-safe.
 */
public final class UpstreamManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UpstreamManager.class);

    private final Catalog catalog;
    private final UpstreamLimits limits;
    /** Calls in progress on all servers together: {@link UpstreamLimits#maxTotalCalls} permits. */
    private final Semaphore allCalls;
    /** Timers only (reconnect backoff, re-sync); the work they start runs on {@link #io}. */
    private final ScheduledExecutorService scheduler;
    /** Connects, re-lists and closes: blocking work, a thread per task, so no server waits for another. */
    private final ExecutorService io;

    private final McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    private final Map<String, UpstreamConnection> byPrefix = new ConcurrentHashMap<>();
    /** One per tool prefix ever registered (a few dozen servers at most), kept so a replaced server shares it. */
    private final Map<String, Object> syncLocks = new ConcurrentHashMap<>();

    private final List<Consumer<ServerStatus>> statusListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public UpstreamManager(Catalog catalog, UpstreamLimits limits) {
        this.catalog = catalog;
        this.limits = limits;
        this.allCalls = new Semaphore(limits.maxTotalCalls());
        this.scheduler = Executors.newScheduledThreadPool(
                1, Thread.ofPlatform().daemon().name("mcp-upstream-timer-", 0).factory());
        this.io = Executors.newCachedThreadPool(
                Thread.ofPlatform().daemon().name("mcp-upstream-", 0).factory());
        long every = limits.resyncInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::resyncAll, every, every, TimeUnit.MILLISECONDS);
    }

    /** Told whenever a server's state changes (on a manager thread). */
    public void onStatus(Consumer<ServerStatus> listener) {
        statusListeners.add(listener);
    }

    /** The outcome of registering one server of a batch: one failing server is one {@code Failure}. */
    public sealed interface Registration {
        String name();

        record Success(String name, ServerStatus status) implements Registration {}

        record Failure(String name, String error) implements Registration {}
    }

    /**
     * Registers (or replaces) a server and connects to it in the background.
     *
     * @throws IllegalArgumentException when its prefix is reserved, held by built-in tools or belongs to another
     *     server (see {@link #checkRegistrable})
     */
    public ServerStatus register(ServerConfig config) {
        synchronized (this) {
            UpstreamConnection existing = find(config.name())
                    .filter(c -> c.config().name().equals(config.name()))
                    .orElse(null);
            checkRegistrable(config);
            String prefix = config.prefix();
            if (existing != null) {
                existing.stop();
                byPrefix.remove(existing.prefix());
            }
            UpstreamConnection c =
                    new UpstreamConnection(config, prefix, limits, scheduler, io, json, new Listener(), allCalls);
            byPrefix.put(prefix, c);
            c.start();
            return c.status();
        }
    }

    /**
     * Checks that {@link #register} would take this config. Its tool prefix must not be reserved ({@link
     * ReservedSources}), must not be the source of built-in tools (the demo catalog has {@code
     * memory__*} and {@code filesystem__*}) and must be no other server's. A collision is refused rather than
     * resolved by renaming, so that a tool name always means the tool the user expects.
     *
     * @throws IllegalArgumentException naming the server, the prefix and what holds it
     */
    public synchronized void checkRegistrable(ServerConfig config) {
        String prefix = config.prefix();
        ReservedSources.check("server name", config.name(), "tool prefix", prefix, "server");
        String builtIn = builtIn(catalog.snapshot(), prefix);
        if (builtIn != null) {
            throw new IllegalArgumentException("server name '" + config.name() + "' gives tool prefix '" + prefix
                    + "', which built-in tools hold (e.g. " + builtIn + "); choose another name, e.g. '" + prefix
                    + "-server'");
        }
        UpstreamConnection other = byPrefix.get(prefix);
        if (other != null && !other.config().name().equals(config.name())) {
            throw new IllegalArgumentException("server name '" + config.name() + "' gives tool prefix '" + prefix
                    + "', already used by server '" + other.config().name() + "'");
        }
    }

    /** A built-in (not MCP) tool whose source is {@code source}, or {@code null}. */
    private static String builtIn(Catalog.Snapshot snap, String source) {
        if (!snap.hasSource(source)) {
            return null;
        }
        for (CatalogEntry e : snap.entries()) {
            if (e.spec().name().source().equals(source) && e.spec().sourceKind() != SourceKind.MCP) {
                return e.spec().fullName();
            }
        }
        return null;
    }

    /** Registers servers and waits (at most {@code wait} in all) for each first connect attempt. */
    public List<Registration> registerAll(List<ServerConfig> configs, Duration wait) {
        List<Registration> out = new ArrayList<>();
        List<CompletableFuture<Void>> attempts = new ArrayList<>();
        for (ServerConfig c : configs) {
            try {
                register(c);
                attempts.add(find(c.name()).orElseThrow().firstAttempt());
                out.add(null);
            } catch (IllegalArgumentException e) {
                out.add(new Registration.Failure(c.name(), e.getMessage()));
            }
        }
        try {
            CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new))
                    .get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            // the slow ones are reported as connecting
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int i = 0; i < configs.size(); i++) {
            if (out.get(i) == null) {
                ServerStatus s = find(configs.get(i).name()).orElseThrow().status();
                out.set(
                        i,
                        s.state() == ServerStatus.State.DOWN
                                ? new Registration.Failure(s.name(), s.lastError())
                                : new Registration.Success(s.name(), s));
            }
        }
        return out;
    }

    /** Waits for a server's first connect attempt, at most {@code wait}; returns its status then. */
    public Optional<ServerStatus> awaitFirstAttempt(String name, Duration wait) {
        Optional<UpstreamConnection> c = find(name);
        c.ifPresent(x -> {
            try {
                x.firstAttempt().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // still connecting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return c.map(UpstreamConnection::status);
    }

    /** Stops a server and removes its tools from the catalog; false when there is no such server. */
    public boolean unregister(String name) {
        UpstreamConnection c;
        synchronized (this) {
            c = find(name).orElse(null);
            if (c == null) {
                return false;
            }
            byPrefix.remove(c.prefix());
        }
        c.stop();
        synchronized (syncLock(c.prefix())) { // after a sync of its tools still running: nothing of it is left behind
            catalog.sync(List.of(), toolsOf(c.prefix()));
        }
        return true;
    }

    /** Serializes the catalog writes of the server with tool prefix {@code prefix} (its syncs and its removal). */
    private Object syncLock(String prefix) {
        return syncLocks.computeIfAbsent(prefix, p -> new Object());
    }

    /** Every server's status, by name. */
    public List<ServerStatus> servers() {
        return byPrefix.values().stream()
                .map(UpstreamConnection::status)
                .sorted(java.util.Comparator.comparing(ServerStatus::name))
                .toList();
    }

    public Optional<ServerStatus> status(String name) {
        return find(name).map(UpstreamConnection::status);
    }

    /** The config a server was registered with (secrets in the clear: never print it). */
    public Optional<ServerConfig> config(String name) {
        return find(name).map(UpstreamConnection::config);
    }

    /** Cancels the tool call {@code caller} is waiting for, on whichever server; false when it waits for none. */
    public boolean cancelCallOf(Thread caller) {
        for (UpstreamConnection c : byPrefix.values()) {
            if (c.cancelCallOf(caller)) {
                return true;
            }
        }
        return false;
    }

    /** The tool calls in progress on a server now (0 when there is no such server). */
    public int callsInProgress(String name) {
        return find(name).map(UpstreamConnection::callsInProgress).orElse(0);
    }

    /** The process id of a stdio server, or -1 (tests kill it to check recovery). */
    public long pid(String name) {
        return find(name).map(UpstreamConnection::pid).orElse(-1L);
    }

    /** A server by its exact name or by its tool prefix. */
    private Optional<UpstreamConnection> find(String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (UpstreamConnection c : byPrefix.values()) {
            if (c.config().name().equals(name)) {
                return Optional.of(c);
            }
        }
        UpstreamConnection byOwnPrefix = byPrefix.get(name);
        return byOwnPrefix != null
                ? Optional.of(byOwnPrefix)
                : Optional.ofNullable(byPrefix.get(ToolNaming.serverPrefix(name)));
    }

    /**
     * Calls a catalog tool ({@code <prefix>__<tool>}) on its server, by the server's own name for it.
     *
     * @throws UpstreamException when the tool is not an upstream tool or the call fails
     */
    public McpSchema.CallToolResult callCatalogTool(String fullName, Map<String, Object> arguments) {
        return callCatalogTool(fullName, arguments, null);
    }

    /**
     * {@link #callCatalogTool(String, Map)} for {@code principal}, who may hold at most {@link
     * UpstreamLimits#maxCallsPerPrincipal} of the server's call slots ({@code null}: ToolScout's own call).
     */
    public McpSchema.CallToolResult callCatalogTool(
            String fullName, Map<String, Object> arguments, dev.toolscout.model.Principal principal) {
        CatalogEntry e = catalog.snapshot().get(fullName);
        UpstreamConnection c = e == null || e.spec().sourceKind() != SourceKind.MCP
                ? null
                : byPrefix.get(e.spec().name().source());
        if (c == null) {
            throw new UpstreamException(UpstreamException.Kind.NOT_FOUND, null, "Tool not found: " + fullName, null);
        }
        return scrubbed(c, () -> c.call(e.spec().sourceName(), arguments, principal));
    }

    /**
     * Runs a call, and takes the server's secrets out of the message of an error it ends with: transport errors
     * quote the URL, and the caller shows the message to users and models.
     */
    private static McpSchema.CallToolResult scrubbed(
            UpstreamConnection c, java.util.function.Supplier<McpSchema.CallToolResult> call) {
        try {
            return call.get();
        } catch (UpstreamException e) {
            String clean = c.config().scrub(e.getMessage());
            if (clean.equals(e.getMessage())) {
                throw e;
            }
            throw new UpstreamException(e.kind(), null, clean, null);
        }
    }

    /**
     * Calls a tool by server and tool name; the tool name may be the server's own or the catalog's.
     *
     * @throws UpstreamException when there is no such server or tool, or the call fails
     */
    public McpSchema.CallToolResult call(String server, String tool, Map<String, Object> arguments) {
        UpstreamConnection c = find(server)
                .orElseThrow(() -> new UpstreamException(
                        UpstreamException.Kind.NOT_FOUND, null, "MCP server not found: " + server, null));
        ToolSpec spec;
        try {
            spec = tool(c, tool);
        } catch (UpstreamException notListed) {
            // a server that is not up may never have listed its tools: "down" (retriable) says more than "no tool"
            scrubbed(c, () -> {
                c.checkAvailable();
                return null;
            });
            throw notListed;
        }
        return scrubbed(c, () -> c.call(spec.sourceName(), arguments, null));
    }

    /** The catalog spec of a server's tool, given by the server's own name for it or the catalog's. */
    public Optional<ToolSpec> toolOf(String server, String tool) {
        return find(server).map(c -> {
            try {
                return tool(c, tool);
            } catch (UpstreamException e) {
                return null;
            }
        });
    }

    private ToolSpec tool(UpstreamConnection c, String tool) {
        String prefix = c.prefix();
        Catalog.Snapshot snap = catalog.snapshot();
        CatalogEntry direct = snap.get(tool);
        if (direct != null
                && direct.spec().sourceKind() == SourceKind.MCP
                && direct.spec().name().source().equals(prefix)) {
            return direct.spec();
        }
        // most tool names need no sanitizing, so the wire name is the prefix plus the server's own name
        CatalogEntry plain = snap.get(prefix + "__" + tool);
        if (plain != null
                && plain.spec().sourceKind() == SourceKind.MCP
                && plain.spec().sourceName().equals(tool)) {
            return plain.spec();
        }
        for (CatalogEntry e : snap.entries()) {
            if (e.spec().sourceKind() == SourceKind.MCP
                    && e.spec().name().source().equals(prefix)
                    && e.spec().sourceName().equals(tool)) {
                return e.spec();
            }
        }
        throw new UpstreamException(
                UpstreamException.Kind.NOT_FOUND, c.config().name(), "has no tool '" + tool + "'", null);
    }

    /**
     * Removes MCP tools from the catalog whose server is not registered (left by a server that was removed
     * from the config while ToolScout was not running). Their vectors stay stored, so re-adding the server
     * embeds nothing again.
     */
    public int pruneOrphans() {
        Catalog.Change change = catalog.sync(
                List.of(),
                e -> e.spec().sourceKind() == SourceKind.MCP
                        && !byPrefix.containsKey(e.spec().name().source()));
        if (!change.isEmpty()) {
            LOG.info("removed {} tools of MCP servers that are no longer registered", change.removed());
        }
        return change.removed();
    }

    /** Selects the catalog tools of one server: the MCP tools under its prefix. */
    private static java.util.function.Predicate<CatalogEntry> toolsOf(String prefix) {
        return e -> e.spec().sourceKind() == SourceKind.MCP
                && e.spec().name().source().equals(prefix);
    }

    private void resyncAll() {
        for (UpstreamConnection c : byPrefix.values()) {
            c.resync();
        }
    }

    /**
     * Runs a server's tool-list sync, or skips it when another process sharing the store runs it now.
     */
    @FunctionalInterface
    public interface SyncGate {
        /** Runs {@code work} for server {@code server}, or not; returns whether it ran. */
        boolean run(String server, Runnable work);
    }

    private volatile SyncGate syncGate = (server, work) -> {
        work.run();
        return true;
    };

    /**
     * Sets the gate a server's tool-list sync passes (by default it always runs): with replicas sharing a store,
     * one that lets a server's sync run in one replica at a time.
     */
    public void syncGate(SyncGate gate) {
        this.syncGate = java.util.Objects.requireNonNull(gate, "gate");
    }

    private final class Listener implements UpstreamConnection.Listener {
        @Override
        public void toolsListed(UpstreamConnection c, List<McpSchema.Tool> tools) {
            ServerConfig cfg = c.config();
            List<ToolMapping.Mapped> mapped = ToolMapping.map(cfg.name(), c.prefix(), tools);
            List<ToolSpec> specs = mapped.stream().map(ToolMapping.Mapped::spec).toList();
            // replicas sharing a store all hear the server's list_changed: the gate lets one of them write the change
            // (the others get it from the store)
            Catalog.Change[] written = {null};
            boolean wrote = syncGate.run(cfg.name(), () -> {
                // one server's syncs (and its removal) one at a time, but not under the manager's lock: a listing of
                // 10,000 tools is written in batches (Catalog.apply) and must not hold up another server's registration
                synchronized (syncLock(c.prefix())) {
                    if (byPrefix.get(c.prefix()) != c) {
                        return; // replaced or removed meanwhile
                    }
                    // a diff by content hash: unchanged tools keep their vectors
                    Catalog.Change change = catalog.sync(specs, toolsOf(c.prefix()));
                    written[0] = change;
                    if (!change.isEmpty()) {
                        LOG.info(
                                "MCP server '{}': {} tools added, {} updated, {} removed",
                                cfg.name(),
                                change.added(),
                                change.updated(),
                                change.removed());
                    }
                }
            });
            if (written[0] != null) {
                // searchable before the server counts as listed (ready), but without holding the manager: other servers
                // register and sync meanwhile, and their smaller changes are indexed ahead of a large listing
                try {
                    catalog.awaitSearchable(written[0]);
                } catch (RuntimeException e) {
                    LOG.warn(
                            "MCP server '{}': its tools are stored but indexing them failed ({}); the index catches up from "
                                    + "the store",
                            cfg.name(),
                            e.getMessage());
                }
            }
            if (!wrote) {
                LOG.debug("MCP server '{}': another replica is writing its tools to the shared store", cfg.name());
                // this replica counts the server listed (ready) only once that write reached its own catalog and index,
                // as when it writes the list itself: a request right after sees the tools the status counts
                awaitWrittenElsewhere(c, specs);
            }
            c.toolCount(specs.size());
        }

        /**
         * Waits until the catalog holds exactly {@code specs} as the server's tools (another replica's write, which
         * arrives through the shared store's change feed) and they are searchable; at most the start timeout, after
         * which the server counts as listed anyway (logged), or until the server is replaced or removed.
         */
        private void awaitWrittenElsewhere(UpstreamConnection c, List<ToolSpec> specs) {
            Map<String, String> want = new HashMap<>();
            for (ToolSpec t : specs) {
                want.put(t.fullName(), t.contentHash());
            }
            long end = System.nanoTime() + limits.startTimeout().toNanos();
            while (byPrefix.get(c.prefix()) == c) {
                Catalog.Snapshot snap = catalog.snapshot();
                if (holdsExactly(snap, c.prefix(), want)) {
                    try {
                        catalog.awaitSearchableThrough(snap.version());
                    } catch (RuntimeException e) {
                        LOG.warn(
                                "MCP server '{}': its tools are stored but indexing them failed ({}); the index catches up "
                                        + "from the store",
                                c.config().name(),
                                e.getMessage());
                    }
                    return;
                }
                if (System.nanoTime() > end) {
                    LOG.warn(
                            "MCP server '{}': the tools another replica lists for it did not reach this replica's catalog "
                                    + "within {}; counted as listed anyway",
                            c.config().name(),
                            limits.startTimeout());
                    return;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        private static boolean holdsExactly(Catalog.Snapshot snap, String prefix, Map<String, String> want) {
            int held = 0;
            for (CatalogEntry e : snap.entries()) {
                if (toolsOf(prefix).test(e)) {
                    if (!e.contentHash().equals(want.get(e.spec().fullName()))) {
                        return false;
                    }
                    held++;
                }
            }
            return held == want.size();
        }

        @Override
        public void stateChanged(UpstreamConnection c) {
            ServerStatus s = c.status();
            for (Consumer<ServerStatus> l : statusListeners) {
                try {
                    l.accept(s);
                } catch (RuntimeException e) {
                    LOG.warn("a status listener failed", e);
                }
            }
        }
    }

    @Override
    public void close() {
        List<UpstreamConnection> all = new ArrayList<>(byPrefix.values());
        byPrefix.clear();
        all.parallelStream().forEach(UpstreamConnection::stop);
        scheduler.shutdownNow();
        io.shutdownNow();
    }
}
