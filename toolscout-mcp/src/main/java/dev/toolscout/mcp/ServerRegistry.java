package dev.toolscout.mcp;

import dev.toolscout.catalog.StateStore;
import dev.toolscout.mcp.config.ServerConfigJson;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.mcp.upstream.UpstreamManager;
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
 * durable in the store before it is acknowledged.
 */
public final class ServerRegistry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerRegistry.class);

  private final StateStore store;
  private final SecretBox secrets;
  private final UpstreamManager manager;
  private final java.util.Set<String> declared = java.util.concurrent.ConcurrentHashMap.newKeySet();

  public ServerRegistry(StateStore store, SecretBox secrets, UpstreamManager manager) {
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
    for (StateStore.StoredServer s : store.loadServers()) {
      try {
        all.put(s.name(), ServerConfigJson.read(s.configJson(), secrets));
      } catch (RuntimeException e) {
        LOG.warn("stored MCP server '{}' cannot be read: {}", s.name(), e.getMessage());
        unreadable.add(new UpstreamManager.Registration.Failure(s.name(), e.getMessage()));
      }
    }
    for (ServerConfig c : declared) {
      all.put(c.name(), c);
      this.declared.add(c.name());
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
    manager.checkRegistrable(config); // before anything is stored
    store.saveServer(new StateStore.StoredServer(config.name(), ServerConfigJson.write(config, secrets)));
    manager.register(config);
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
    manager.checkRegistrable(config);
    manager.register(config);
    ServerStatus s = manager.awaitFirstAttempt(config.name(), wait).orElseThrow();
    if (reachable(s) || storeIfUnreachable) {
      store.saveServer(new StateStore.StoredServer(config.name(), ServerConfigJson.write(config, secrets)));
    } else {
      manager.unregister(config.name());
    }
    return s;
  }

  /**
   * Brings the connected servers in line with the store after another process sharing it registered or removed
   * some: connects the stored servers not connected here, disconnects those no longer stored (but not those of
   * this run's {@code --servers} file). Connecting does not wait for the first attempt.
   */
  public synchronized void reconcile() {
    Map<String, ServerConfig> stored = new LinkedHashMap<>();
    for (StateStore.StoredServer s : store.loadServers()) {
      try {
        stored.put(s.name(), ServerConfigJson.read(s.configJson(), secrets));
      } catch (RuntimeException e) {
        LOG.warn("stored MCP server '{}' cannot be read: {}", s.name(), e.getMessage());
      }
    }
    for (ServerConfig c : stored.values()) {
      if (!declared.contains(c.name()) && manager.config(c.name()).isEmpty()) {
        try {
          manager.register(c);
        } catch (RuntimeException e) {
          LOG.warn("stored MCP server '{}' cannot be connected: {}", c.name(), e.getMessage());
        }
      }
    }
    for (ServerStatus s : manager.servers()) {
      if (!declared.contains(s.name()) && !stored.containsKey(s.name())) {
        manager.unregister(s.name());
      }
    }
  }

  /** Whether a first attempt reached the server (its tools were listed). */
  public static boolean reachable(ServerStatus s) {
    return s.state() == ServerStatus.State.READY || s.state() == ServerStatus.State.DEGRADED;
  }

  /** Removes a registration from the store and disconnects it; false when there was none. */
  public boolean remove(String name) {
    String stored = manager.config(name).map(ServerConfig::name).orElse(name);
    boolean deleted = store.deleteServer(stored);
    boolean stopped = manager.unregister(stored);
    return deleted || stopped;
  }

  @Override
  public void close() {
    manager.close();
  }
}
