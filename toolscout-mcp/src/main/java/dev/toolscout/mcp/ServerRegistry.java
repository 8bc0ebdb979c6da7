package dev.toolscout.mcp;

import dev.toolscout.mcp.config.ServerConfigJson;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.servers.ServerStore;
import dev.toolscout.servers.ServerStore.StoredServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registered upstream servers: those stored in the state store (registered by {@code
 * mcp__register_server} or {@code toolscout mcp add}; they survive restarts, secrets sealed) and those
 * declared in a {@code --servers} file for this run (not stored: the file is their home). A registration is
 * durable in the store before it is acknowledged. An admin may disable a server of either kind: the flag is stored
 * by name, the server is disconnected and its tools leave the catalog, and it stays so across restarts until it is
 * enabled (or removed, or added again). Thread-safe.
 */
public final class ServerRegistry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerRegistry.class);

    private final ServerStore store;
    private final SecretBox secrets;
    private final UpstreamManager manager;
    private final Map<String, ServerConfig> declared = new java.util.concurrent.ConcurrentHashMap<>();
    /** The disabled servers this process knows the config of (not connected), by name. */
    private final Map<String, Disabled> disabled = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Servers connected by an {@link #add(ServerConfig, Duration, boolean)} that has not decided yet whether to
     * store them (it waits for the first attempt): {@link #reconcile} leaves them connected, though no store and
     * no file holds them yet. Guarded by {@code this}.
     */
    private final java.util.Set<String> adding = new java.util.HashSet<>();

    private record Disabled(ServerConfig config, java.time.Instant since) {}

    public ServerRegistry(ServerStore store, SecretBox secrets, UpstreamManager manager) {
        this.store = store;
        this.secrets = secrets;
        this.manager = manager;
    }

    public UpstreamManager manager() {
        return manager;
    }

    /**
     * Connects every stored server and every declared one (a declared server replaces a stored one of the
     * same name for this run), prunes the tools of servers no longer registered, and waits at most {@code
     * wait} for the first connect attempts. A stored registration that cannot be read (say, sealed with
     * another key) is reported as a failure and left stored.
     */
    public List<UpstreamManager.Registration> start(List<ServerConfig> declared, Duration wait) {
        Map<String, ServerConfig> all = new LinkedHashMap<>();
        List<UpstreamManager.Registration> unreadable = new ArrayList<>();
        for (StoredServer s : store.loadServers()) {
            try {
                all.put(s.name(), ServerConfigJson.read(s.configJson(), secrets));
            } catch (RuntimeException e) {
                LOG.warn("stored MCP server '{}' cannot be read: {}", s.name(), e.getMessage());
                unreadable.add(new UpstreamManager.Registration.Failure(s.name(), e.getMessage()));
            }
        }
        for (ServerConfig c : declared) {
            all.put(c.name(), c);
            this.declared.put(c.name(), c);
        }
        java.time.Instant now = java.time.Instant.now();
        for (String name : store.loadDisabledServers()) {
            ServerConfig c = all.remove(name);
            if (c != null) {
                disabled.put(name, new Disabled(c, now));
            }
        }
        List<UpstreamManager.Registration> out = new ArrayList<>(unreadable);
        out.addAll(manager.registerAll(List.copyOf(all.values()), wait));
        manager.pruneOrphans();
        return out;
    }

    /**
     * Stores a registration (secrets sealed), then connects it; waits at most {@code wait} for the first
     * connect attempt.
     *
     * @throws IllegalArgumentException when the name's tool prefix is taken
     */
    public ServerStatus add(ServerConfig config, Duration wait) {
        // stored and connected as one step for reconcile, which runs on other threads (replicas' changes)
        synchronized (this) {
            manager.checkRegistrable(config); // before anything is stored
            store.saveServer(new StoredServer(config.name(), ServerConfigJson.write(config, secrets)));
            forgetDisabled(config.name());
            manager.register(config);
        }
        return manager.awaitFirstAttempt(config.name(), wait).orElseThrow();
    }

    /**
     * Connects a server first and stores it only once it answered (ready, or degraded), as the seed's flow
     * validates before it registers: a server that is down or still connecting after {@code wait} is
     * disconnected and nothing is stored, unless {@code storeIfUnreachable} (a server that is offline now but
     * will be reachable where the gateway runs). What {@code toolscout mcp add} does.
     *
     * @return the server's status after the first attempt; it was stored when {@link #reachable} or {@code
     *     storeIfUnreachable}
     * @throws IllegalArgumentException when the name's tool prefix is taken
     */
    public ServerStatus add(ServerConfig config, Duration wait, boolean storeIfUnreachable) {
        String name = config.name();
        synchronized (this) {
            manager.checkRegistrable(config);
            manager.register(config);
            adding.add(name); // connected, not stored yet: reconcile must not disconnect it meanwhile
        }
        try {
            // not under the lock: the first attempt may take the whole wait, and reconcile, disable and enable go on
            ServerStatus s = manager.awaitFirstAttempt(name, wait).orElseThrow();
            synchronized (this) {
                if (reachable(s) || storeIfUnreachable) {
                    store.saveServer(new StoredServer(name, ServerConfigJson.write(config, secrets)));
                    forgetDisabled(name); // added again: the new registration is enabled
                } else {
                    manager.unregister(name);
                }
            }
            return s;
        } catch (RuntimeException e) {
            synchronized (this) {
                manager.unregister(name);
            }
            throw e;
        } finally {
            synchronized (this) {
                adding.remove(name);
            }
        }
    }

    /**
     * Brings the connected servers in line with the store after another process sharing it registered or removed
     * some: connects the stored servers not connected here, disconnects those no longer stored (but not those of
     * this run's {@code --servers} file). Connecting does not wait for the first attempt.
     */
    public synchronized void reconcile() {
        Map<String, ServerConfig> stored = new LinkedHashMap<>();
        for (StoredServer s : store.loadServers()) {
            try {
                stored.put(s.name(), ServerConfigJson.read(s.configJson(), secrets));
            } catch (RuntimeException e) {
                LOG.warn("stored MCP server '{}' cannot be read: {}", s.name(), e.getMessage());
            }
        }
        java.util.Set<String> off = new java.util.HashSet<>(store.loadDisabledServers());
        for (ServerStatus s : manager.servers()) { // disabled by another process
            if (off.contains(s.name())) {
                manager.config(s.name())
                        .ifPresent(c -> disabled.put(c.name(), new Disabled(c, java.time.Instant.now())));
                manager.unregister(s.name());
            }
        }
        for (String name : List.copyOf(disabled.keySet())) { // enabled or removed by another process
            if (!off.contains(name) || !declared.containsKey(name) && !stored.containsKey(name)) {
                Disabled d = disabled.remove(name);
                ServerConfig c = declared.containsKey(name) ? declared.get(name) : stored.get(name);
                if (c != null && manager.config(name).isEmpty()) {
                    try {
                        manager.register(c);
                    } catch (RuntimeException e) {
                        LOG.warn("MCP server '{}' cannot be connected again: {}", name, e.getMessage());
                        disabled.put(name, d);
                    }
                }
            }
        }
        for (ServerConfig c : stored.values()) {
            if (!declared.containsKey(c.name())
                    && !off.contains(c.name())
                    && manager.config(c.name()).isEmpty()) {
                try {
                    manager.register(c);
                } catch (RuntimeException e) {
                    LOG.warn("stored MCP server '{}' cannot be connected: {}", c.name(), e.getMessage());
                }
            }
        }
        for (ServerStatus s : manager.servers()) {
            if (!declared.containsKey(s.name()) && !stored.containsKey(s.name()) && !adding.contains(s.name())) {
                manager.unregister(s.name());
            }
        }
    }

    /** Whether a first attempt reached the server (its tools were listed). */
    public static boolean reachable(ServerStatus s) {
        return s.state() == ServerStatus.State.READY || s.state() == ServerStatus.State.DEGRADED;
    }

    /** Removes a registration from the store and disconnects it (a disabled one too); false when there was none. */
    public synchronized boolean remove(String name) {
        String stored = manager.config(name).map(ServerConfig::name).orElse(name);
        boolean deleted = store.deleteServer(stored);
        boolean stopped = manager.unregister(stored);
        boolean wasDisabled = forgetDisabled(stored);
        return deleted || stopped || wasDisabled;
    }

    /**
     * Disables a server: stores the flag (durable on return), then disconnects it and removes its tools from the
     * catalog. Idempotent.
     *
     * @return its status ({@link ServerStatus.State#STOPPED}, no tools), or empty when no server has that name
     */
    public synchronized java.util.Optional<ServerStatus> disable(String name) {
        if (disabled.containsKey(name)) {
            return java.util.Optional.of(disabledStatus(disabled.get(name)));
        }
        ServerConfig c = manager.config(name).filter(x -> x.name().equals(name)).orElse(null);
        if (c == null) {
            return java.util.Optional.empty();
        }
        store.setServerDisabled(name, true); // first: a crash after it leaves the server disabled, as asked
        Disabled d = new Disabled(c, java.time.Instant.now());
        disabled.put(name, d);
        manager.unregister(name);
        return java.util.Optional.of(disabledStatus(d));
    }

    /**
     * Enables a disabled server again: clears the flag and connects it, waiting at most {@code wait} for the first
     * attempt. A server that is not disabled is left as it is.
     *
     * @return its status, or empty when no server has that name
     * @throws IllegalArgumentException when another server took its tool prefix meanwhile (it stays disabled)
     */
    public java.util.Optional<ServerStatus> enable(String name, Duration wait) {
        synchronized (this) {
            Disabled d = disabled.get(name);
            if (d == null) {
                return manager.config(name).filter(x -> x.name().equals(name)).flatMap(x -> manager.status(name));
            }
            manager.checkRegistrable(d.config());
            store.setServerDisabled(name, false);
            disabled.remove(name);
            manager.register(d.config());
        }
        return manager.awaitFirstAttempt(name, wait);
    }

    /** Whether the server of this name is disabled. */
    public boolean isDisabled(String name) {
        return disabled.containsKey(name);
    }

    /** Every server's status by name, the disabled ones ({@link ServerStatus.State#STOPPED}, no tools) too. */
    public List<ServerStatus> servers() {
        List<ServerStatus> out = new ArrayList<>(manager.servers());
        disabled.values().forEach(d -> out.add(disabledStatus(d)));
        out.sort(java.util.Comparator.comparing(ServerStatus::name));
        return out;
    }

    private static ServerStatus disabledStatus(Disabled d) {
        ServerConfig c = d.config();
        return new ServerStatus(
                c.name(),
                c.prefix(),
                c.transport().wire(),
                c.endpoint(),
                ServerStatus.State.STOPPED,
                0,
                null,
                0,
                d.since(),
                null);
    }

    private synchronized boolean forgetDisabled(String name) {
        boolean flagged = store.setServerDisabled(name, false);
        return disabled.remove(name) != null || flagged;
    }

    @Override
    public void close() {
        manager.close();
    }
}
