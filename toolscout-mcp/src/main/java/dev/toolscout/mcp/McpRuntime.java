package dev.toolscout.mcp;

import dev.toolscout.engine.GatewayParts;
import dev.toolscout.engine.Maintenance;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.UpstreamLimits;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.model.ToolSpec;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The MCP side of ToolScout over one engine: the upstream servers (registry, manager, their actions) and the executor
 * that runs their tools ({@link #executor}). The library ({@code toolscout-engine}) knows nothing of MCP; this is
 * where the server, and a Java application that runs upstream MCP tools (through a {@link
 * dev.toolscout.engine.ToolRunner}), add it. A gateway serving the engine's catalog, access policy, discovery tools
 * and approvals is built over it: {@code new McpGateway(runtime.scout(), runtime.actions(), principal)} (the gateway
 * package depends on this one, not the other way).
 *
 * <p>Owns the library instance it is given: {@link #close} stops the upstream servers first (an upstream
 * connection may be indexing its tools into the engine), then closes the instance. Thread-safe.
 */
public final class McpRuntime implements AutoCloseable {
    private final ToolScout scout;
    private UpstreamLimits upstreamLimits = UpstreamLimits.DEFAULT;
    private ServerRegistry registry;
    private McpActions actions;
    private McpToolExecutor executor;

    /** Takes ownership of {@code scout}: closing this closes it. */
    public McpRuntime(ToolScout scout) {
        this.scout = Objects.requireNonNull(scout, "scout");
    }

    /** Opens a data directory as {@code builder} says and takes it over. */
    public static McpRuntime open(ToolScout.Builder builder) {
        return new McpRuntime(builder.build());
    }

    /** The library's API over the same data directory (what the CLI's catalog commands and the HTTP API use). */
    public ToolScout scout() {
        return scout;
    }

    /** Sets the upstream manager's limits (serve's --max-upstream-calls); only before {@link #start}. */
    public synchronized McpRuntime upstreamLimits(UpstreamLimits limits) {
        if (registry != null) {
            throw new IllegalStateException("the upstream servers are already started");
        }
        this.upstreamLimits = Objects.requireNonNull(limits, "limits");
        return this;
    }

    /**
     * Connects the upstream MCP servers: those registered in the store and {@code declared} (from a
     * {@code --servers} file), waiting at most {@code wait} for their first connect attempts. Idempotent: a
     * second call adds nothing.
     */
    public synchronized List<UpstreamManager.Registration> start(List<ServerConfig> declared, Duration wait) {
        if (registry != null) {
            return List.of();
        }
        Maintenance m = scout.maintenance();
        GatewayParts parts = scout.gatewayParts();
        SecretBox secrets = SecretBox.open(m.dataDir(), System.getenv());
        registry = new ServerRegistry(m.store(), secrets, new UpstreamManager(parts.catalog(), upstreamLimits));
        actions = new McpActions(registry, parts.catalog(), parts.access(), ServerConfig.DEFAULT_TIMEOUT);
        // replicas sharing a store: one writes a server's tool list, and each connects the servers another registers
        registry.manager().syncGate(m::onceAcrossReplicas);
        ServerRegistry r = registry;
        m.onStoreChanges(areas -> {
            if (areas.contains(dev.toolscout.store.PostgresStateStore.Area.SERVERS)) {
                r.reconcile();
            }
        });
        return registry.start(declared, wait);
    }

    /** The MCP server registry, once {@link #start} ran. */
    public synchronized ServerRegistry registry() {
        if (registry == null) {
            throw new IllegalStateException("start was not called");
        }
        return registry;
    }

    /** The gateway's own MCP actions ({@code mcp__register_server}, ...), once {@link #start} ran. */
    public synchronized McpActions actions() {
        registry();
        return actions;
    }

    /**
     * Runs the upstream servers' tools, and the actions {@link McpToolExecutor#ACTIONS}, once {@link #start} ran: the
     * executor to register for {@link dev.toolscout.model.SourceKind#MCP} (with {@link #actionSpecs} as extra tools).
     */
    public synchronized McpToolExecutor executor() {
        if (executor == null) {
            executor = new McpToolExecutor(actions());
        }
        return executor;
    }

    /** The definitions of the MCP actions {@link #executor} runs ({@link McpToolExecutor#ACTIONS}). */
    public static List<ToolSpec> actionSpecs() {
        return McpActions.specs().stream()
                .filter(s -> McpToolExecutor.ACTIONS.contains(s.fullName()))
                .toList();
    }

    @Override
    public void close() {
        ServerRegistry r;
        synchronized (this) {
            r = registry;
        }
        try {
            if (r != null) {
                r.close();
            }
        } finally {
            scout.close();
        }
    }
}
