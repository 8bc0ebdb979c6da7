package dev.toolscout.catalog;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.model.ToolSpec;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Durable state: the catalog, the embedding vectors, the access policy and the registered upstream MCP
 * servers. The search index is rebuilt from what is here, so nothing acknowledged by a method below may be
 * lost by a crash after it returns. Implementations: SQLite (one node, the default) and PostgreSQL (shared by
 * replicas). Thread-safe.
 *
 * <p>Vectors are keyed by the hash of the text that was embedded and the model id, so an unchanged tool is
 * never embedded twice and a vector from another model is never used.
 */
public interface StateStore extends AutoCloseable {
  /** Every stored tool, in name order, and the catalog version they are at (0 for an empty store). */
  StoredCatalog loadCatalog();

  /** The current catalog version; it grows by one with each {@link #applyCatalogChange}. */
  long catalogVersion();

  /**
   * Upserts {@code upserts} (by name) and deletes {@code removals} (unknown names are ignored) in one
   * transaction, durable on return.
   *
   * @return the new catalog version
   */
  long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals);

  /** The stored vectors of {@code modelId} for these text hashes; hashes with none are left out. */
  Map<String, float[]> loadVectors(String modelId, Collection<String> textHashes);

  /** Stores vectors (replacing any with the same hash and model), durable on return. */
  void saveVectors(String modelId, Map<String, float[]> byTextHash);

  /** The stored access policy, if one was saved. */
  Optional<AccessPolicy> loadPolicy();

  /** Replaces the stored access policy, durable on return. */
  void savePolicy(AccessPolicy policy);

  /**
   * Every registered upstream server, in name order ({@link String#compareTo}); empty when none. Thread-safe;
   * sees every save and delete that has returned.
   */
  List<StoredServer> loadServers();

  /**
   * Stores {@code server}, replacing any with the same name (upsert), durable on return. The store does not
   * read the JSON; it keeps it exactly as given. Thread-safe.
   */
  void saveServer(StoredServer server);

  /**
   * Removes the server named {@code name} (exact match), durable on return. Thread-safe.
   *
   * @return true when a server was removed, false when none had that name
   */
  boolean deleteServer(String name);

  @Override
  void close();

  /**
   * One registered upstream server as stored.
   *
   * @param name the server's unique name (the key; upserts and deletes go by it)
   * @param configJson the server's configuration, opaque to the store: the module that registers servers
   *     owns its format, and any secrets in it are already sealed
   */
  record StoredServer(String name, String configJson) {
    public StoredServer {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("stored server name must not be blank, got: '" + name + "'");
      }
      if (configJson == null) {
        throw new IllegalArgumentException("stored server '" + name + "': configJson must not be null");
      }
    }

    /** Leaves the JSON out: it may hold sealed secrets, and is long. */
    @Override
    public String toString() {
      return "StoredServer[name=" + name + ", configJson=(" + configJson.length() + " chars)]";
    }
  }

  /**
   * The catalog as stored.
   *
   * @param contentHashes each tool's {@link ToolSpec#contentHash()}, in the order of {@code tools}, as stored
   *     with it (so a start need not hash every spec again)
   */
  record StoredCatalog(long version, List<ToolSpec> tools, List<String> contentHashes) {
    public StoredCatalog {
      tools = List.copyOf(tools);
      contentHashes = List.copyOf(contentHashes);
      if (contentHashes.size() != tools.size()) {
        throw new IllegalArgumentException(
            "need one content hash per tool, got " + contentHashes.size() + " for " + tools.size() + " tools");
      }
    }

    /** Hashes each spec. */
    public StoredCatalog(long version, List<ToolSpec> tools) {
      this(version, tools, tools.stream().map(ToolSpec::contentHash).toList());
    }
  }
}
