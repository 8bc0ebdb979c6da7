package dev.toolscout.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.StateStore;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link StateStore} in PostgreSQL, shared by several ToolScout replicas. The tables are those of {@link
 * Migrations} (the same scripts as SQLite's, rendered for PostgreSQL), plus what replicas need and one node does
 * not, created by this class's own numbered steps ({@code pg_schema_version}):
 *
 * <ul>
 *   <li>{@code changes}: the change log. Every write appends one row (its {@link Area}) and sends {@code NOTIFY
 *       toolscout_changes} in the same transaction, so a listener hears of a change only once it is committed,
 *       and a replica that missed a notification (a reconnect, a restart) reads what it missed from here ({@link
 *       #changesSince}). Writers take one advisory lock just before appending, so sequence numbers become
 *       visible in order and a reader never steps over one that commits later.
 *   <li>{@code tool_removals}: the catalog version at which each tool was removed, so {@link #catalogSince}
 *       names removals as well as upserts.
 * </ul>
 *
 * <p>Vectors are shared: {@link #vectors} embeds a text only when no replica has, holding an advisory lock per
 * text hash while it embeds, so replicas starting at once on new tools embed each text once between them.
 *
 * <p>Durability is PostgreSQL's (a change is committed when its method returns). Thread-safe: a HikariCP pool;
 * every write is one transaction. A store that cannot reach the server throws {@link StoreException} naming the
 * address (without the password) and the operation.
 */
public final class PostgresStateStore implements StateStore {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresStateStore.class);

  /** The channel every write notifies, with the payload {@code <area>:<sequence number>}. */
  public static final String CHANNEL = "toolscout_changes";

  /** Connections in the pool of one store. */
  public static final int POOL_SIZE = 8;

  /** How long a call waits for a connection (the server down, the pool busy) before failing. */
  public static final long CONNECTION_TIMEOUT_MILLIS = 3_000;

  /** Change-log rows kept behind the newest; a replica further behind reloads everything. */
  static final long CHANGES_KEPT = 10_000;

  private static final String CATALOG_VERSION_KEY = "catalog_version";
  private static final String PRUNED_BELOW_KEY = "changes_pruned_below";
  private static final int POLICY_ID = 1;
  /** Advisory lock keys (any 64-bit numbers that no other application on the database uses). */
  private static final long MIGRATION_LOCK = 0x546f6f6c53636f01L;

  private static final long CHANGE_LOCK = 0x546f6f6c53636f02L;

  /** What a change touched; a replica reloads that part. */
  public enum Area {
    CATALOG,
    POLICY,
    SERVERS,
    SKILLS,
    CONVERSATIONS,
    APPROVALS,
    MEMORIES,
    /** What selection learned from use ({@code toolscout learn}). */
    LEARNED;

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The PostgreSQL-only steps, after the portable ones; append, never edit one that shipped. */
  private static final List<List<String>> PG_STEPS =
      List.of(
          List.of(
              "CREATE TABLE changes (seq BIGSERIAL PRIMARY KEY, area TEXT NOT NULL, at_millis BIGINT NOT NULL)",
              "CREATE TABLE tool_removals (name TEXT PRIMARY KEY, removed_version BIGINT NOT NULL)",
              "INSERT INTO meta (key, value) VALUES ('" + PRUNED_BELOW_KEY + "', '0')"));

  private final PostgresUrl url;
  private final HikariDataSource pool;
  private volatile boolean closed;

  private PostgresStateStore(PostgresUrl url, HikariDataSource pool) {
    this.url = url;
    this.pool = pool;
  }

  /**
   * Connects to the store at {@code address} ({@link PostgresUrl}), creating its schema when missing, and brings
   * the tables up to date. Several processes may open the same store at once: migrations are serialized by an
   * advisory lock.
   *
   * @throws IllegalArgumentException when the address is not one ({@link PostgresUrl#parse})
   * @throws IllegalStateException when the store was written by a newer ToolScout
   * @throws StoreException when the server cannot be reached or refuses the connection
   */
  public static PostgresStateStore open(String address) {
    return open(PostgresUrl.parse(address));
  }

  /** Same as {@link #open(String)}. */
  public static PostgresStateStore open(PostgresUrl url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url.jdbcUrl());
    if (url.user() != null) {
      config.setUsername(url.user());
    }
    if (url.password() != null) {
      config.setPassword(url.password());
    }
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
    config.setValidationTimeout(1_000);
    config.setPoolName("toolscout-store");
    // fail at open when the server is unreachable, rather than on the first call
    config.setInitializationFailTimeout(CONNECTION_TIMEOUT_MILLIS);
    config.setAutoCommit(true);
    createSchema(url);
    HikariDataSource ds;
    try {
      ds = new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new StoreException(url.display(), "connect", e);
    }
    PostgresStateStore store = new PostgresStateStore(url, ds);
    try {
      store.migrate();
      return store;
    } catch (RuntimeException e) {
      ds.close();
      throw e;
    }
  }

  /** The schema comes first: the pool's connections name it as their current schema. */
  private static void createSchema(PostgresUrl url) {
    try (Connection c = connect(url); Statement st = c.createStatement()) {
      // the name is checked by PostgresUrl (a-z 0-9 _), so quoting it is safe
      st.execute("CREATE SCHEMA IF NOT EXISTS \"" + url.schema() + "\"");
    } catch (SQLException e) {
      if (!"42501".equals(e.getSQLState())) { // no right to create it: it may exist, which the migration finds out
        throw new StoreException(url.display(), "connect and create schema " + url.schema(), e);
      }
    }
  }

  /** A connection outside the pool (the schema's creation, a listener). */
  static Connection connect(PostgresUrl url) throws SQLException {
    java.util.Properties p = new java.util.Properties();
    if (url.user() != null) {
      p.setProperty("user", url.user());
    }
    if (url.password() != null) {
      p.setProperty("password", url.password());
    }
    p.setProperty("connectTimeout", Long.toString(CONNECTION_TIMEOUT_MILLIS / 1000));
    p.setProperty("tcpKeepAlive", "true");
    return new org.postgresql.Driver().connect(url.jdbcUrl(), p);
  }

  /** The address, without a password. */
  public PostgresUrl url() {
    return url;
  }

  /** Whether the server answers now (a quick query on a pooled connection). */
  public boolean reachable() {
    try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
      st.setQueryTimeout(2);
      st.execute("SELECT 1");
      return true;
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  // --- the catalog ---

  @Override
  public StoredCatalog loadCatalog() {
    CatalogRows rows =
        tx("load the catalog", Connection.TRANSACTION_REPEATABLE_READ, false, c -> {
          long version = catalogVersion(c, false);
          List<SpecRow> specs = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement("SELECT name, spec_json, content_hash FROM tools")) {
            ps.setFetchSize(2_000);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                specs.add(new SpecRow(rs.getString(1), rs.getString(2), rs.getString(3)));
              }
            }
          }
          return new CatalogRows(version, specs);
        });
    List<Parsed> parsed = parse(rows.specs());
    List<ToolSpec> tools = new ArrayList<>(parsed.size());
    List<String> hashes = new ArrayList<>(parsed.size());
    for (Parsed p : parsed) {
      tools.add(p.spec());
      hashes.add(p.contentHash());
    }
    return new StoredCatalog(rows.version(), tools, hashes);
  }

  /** The names of the tools written after {@code version}, read from their column (not the whole catalog). */
  @Override
  public Set<String> toolsChangedSince(long version) {
    return read("read the tools changed since catalog version " + version, c -> {
      Set<String> out = new HashSet<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT name FROM tools WHERE updated_version > ?")) {
        ps.setLong(1, version);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(rs.getString(1));
          }
        }
      }
      return out;
    });
  }

  /**
   * What changed in the catalog after {@code version}: the tools stored now that were upserted since (as they are
   * now) and the names removed since that are not stored now, with the version they bring the catalog to. Read in
   * one snapshot.
   */
  public Catalog.StoredChange catalogSince(long version) {
    record Rows(long version, List<SpecRow> upserts, List<String> removals) {}
    Rows rows =
        tx("read the catalog changes since version " + version, Connection.TRANSACTION_REPEATABLE_READ, false, c -> {
          long now = catalogVersion(c, false);
          List<SpecRow> specs = new ArrayList<>();
          List<String> removed = new ArrayList<>();
          if (now > version) {
            try (PreparedStatement ps = c.prepareStatement(
                "SELECT name, spec_json, content_hash FROM tools WHERE updated_version > ?")) {
              ps.setLong(1, version);
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  specs.add(new SpecRow(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
              }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT r.name FROM tool_removals r WHERE "
                + "r.removed_version > ? AND NOT EXISTS (SELECT 1 FROM tools t WHERE t.name = r.name)")) {
              ps.setLong(1, version);
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  removed.add(rs.getString(1));
                }
              }
            }
          }
          return new Rows(now, specs, removed);
        });
    List<Parsed> parsed = parse(rows.upserts());
    return new Catalog.StoredChange(rows.version(), parsed.stream().map(Parsed::spec).toList(),
        parsed.stream().map(Parsed::contentHash).toList(), rows.removals().stream().sorted().toList());
  }

  @Override
  public long catalogVersion() {
    return tx("read the catalog version", Connection.TRANSACTION_READ_COMMITTED, false,
        c -> catalogVersion(c, false));
  }

  @Override
  public long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals) {
    Objects.requireNonNull(upserts, "upserts");
    Objects.requireNonNull(removals, "removals");
    Set<String> removed = new LinkedHashSet<>();
    for (String name : removals) {
      removed.add(Objects.requireNonNull(name, "removals must not hold null names"));
    }
    List<ToolRow> rows = new ArrayList<>(upserts.size());
    Set<String> seen = new HashSet<>();
    for (ToolSpec spec : upserts) {
      Objects.requireNonNull(spec, "upserts must not hold null specs");
      String name = spec.fullName();
      if (!seen.add(name)) {
        throw new IllegalArgumentException(
            "a catalog change must upsert each tool at most once, got '" + name + "' twice");
      }
      if (removed.contains(name)) {
        throw new IllegalArgumentException(
            "a catalog change must not both upsert and remove a tool, got both for '" + name + "'");
      }
      rows.add(new ToolRow(name, ToolSpecJson.toJson(spec).toString(), spec.contentHash()));
    }
    // rows locked in one order by every writer: two changes to the same tools never deadlock
    rows.sort(Comparator.comparing(ToolRow::name));
    return write("apply a catalog change", c -> {
      // the row lock on the version serializes catalog changes across replicas: each gets its own version
      long next = catalogVersion(c, true) + 1;
      if (!rows.isEmpty()) {
        try (PreparedStatement ps = c.prepareStatement(
            "INSERT INTO tools (name, spec_json, content_hash, updated_version) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET spec_json = excluded.spec_json, "
                + "content_hash = excluded.content_hash, updated_version = excluded.updated_version")) {
          for (ToolRow r : rows) {
            ps.setString(1, r.name());
            ps.setString(2, r.json());
            ps.setString(3, r.contentHash());
            ps.setLong(4, next);
            ps.addBatch();
          }
          ps.executeBatch();
        }
      }
      if (!removed.isEmpty()) {
        List<String> sorted = removed.stream().sorted().toList();
        try (PreparedStatement del = c.prepareStatement("DELETE FROM tools WHERE name = ?");
            PreparedStatement tomb = c.prepareStatement(
                "INSERT INTO tool_removals (name, removed_version) VALUES (?, ?) "
                    + "ON CONFLICT (name) DO UPDATE SET removed_version = excluded.removed_version")) {
          for (String name : sorted) {
            del.setString(1, name);
            del.addBatch();
            tomb.setString(1, name);
            tomb.setLong(2, next);
            tomb.addBatch();
          }
          del.executeBatch();
          tomb.executeBatch();
        }
      }
      try (PreparedStatement ps = c.prepareStatement("UPDATE meta SET value = ? WHERE key = ?")) {
        ps.setString(1, Long.toString(next));
        ps.setString(2, CATALOG_VERSION_KEY);
        ps.executeUpdate();
      }
      logChange(c, Area.CATALOG);
      return next;
    });
  }

  // --- vectors ---

  @Override
  public Map<String, float[]> loadVectors(String modelId, Collection<String> textHashes) {
    requireModelId(modelId);
    Objects.requireNonNull(textHashes, "textHashes");
    List<String> hashes = new ArrayList<>(new LinkedHashSet<>(textHashes));
    if (hashes.contains(null)) {
      throw new NullPointerException("textHashes must not hold null");
    }
    if (hashes.isEmpty()) {
      return new HashMap<>();
    }
    return tx("load vectors of model '" + modelId + "'", Connection.TRANSACTION_READ_COMMITTED, false,
        c -> readVectors(c, modelId, hashes));
  }

  private Map<String, float[]> readVectors(Connection c, String modelId, List<String> hashes) throws SQLException {
    Map<String, float[]> out = HashMap.newHashMap(hashes.size());
    // one array parameter, whatever the count: no statement per chunk size
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT text_hash, dimension, vector FROM vectors WHERE model_id = ? AND text_hash = ANY (?)")) {
      ps.setFetchSize(2_000);
      for (int from = 0; from < hashes.size(); from += 10_000) {
        List<String> chunk = hashes.subList(from, Math.min(hashes.size(), from + 10_000));
        ps.setString(1, modelId);
        ps.setArray(2, c.createArrayOf("text", chunk.toArray()));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            String hash = rs.getString(1);
            int dimension = rs.getInt(2);
            byte[] bytes = rs.getBytes(3);
            try {
              out.put(hash, VectorCodec.decode(bytes == null ? new byte[0] : bytes, dimension));
            } catch (IllegalArgumentException e) {
              throw new IllegalStateException("state store " + url.display() + ": stored vector of model '" + modelId
                  + "' for text hash '" + hash + "' is corrupt: " + e.getMessage(), e);
            }
          }
        }
      }
    }
    return out;
  }

  @Override
  public Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes) {
    TokenCountRows.requireCounter(counter);
    List<String> hashes = TokenCountRows.distinctHashes(contentHashes);
    if (hashes.isEmpty()) {
      return new HashMap<>();
    }
    return read("load token counts of counter '" + counter + "'", c -> {
      Map<String, Integer> out = HashMap.newHashMap(hashes.size());
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT content_hash, tokens FROM definition_tokens WHERE counter = ? AND content_hash = ANY (?)")) {
        ps.setFetchSize(2_000);
        for (int from = 0; from < hashes.size(); from += 10_000) {
          List<String> chunk = hashes.subList(from, Math.min(hashes.size(), from + 10_000));
          ps.setString(1, counter);
          ps.setArray(2, c.createArrayOf("text", chunk.toArray()));
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              out.put(rs.getString(1), rs.getInt(2));
            }
          }
        }
      }
      return out;
    });
  }

  @Override
  public void saveTokenCounts(String counter, Map<String, Integer> byContentHash) {
    TokenCountRows.requireCounter(counter);
    Map<String, Integer> rows = TokenCountRows.checked(byContentHash);
    if (rows.isEmpty()) {
      return;
    }
    write("save token counts of counter '" + counter + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO definition_tokens (content_hash, counter, tokens) VALUES (?, ?, ?) "
              + "ON CONFLICT (content_hash, counter) DO UPDATE SET tokens = excluded.tokens")) {
        for (Map.Entry<String, Integer> r : rows.entrySet()) {
          ps.setString(1, r.getKey());
          ps.setString(2, counter);
          ps.setInt(3, r.getValue());
          ps.addBatch();
        }
        ps.executeBatch();
      }
      try (PreparedStatement ps =
          c.prepareStatement(TokenCountRows.PRUNE.replace("${SAVED}", "SELECT unnest(?::text[])"))) {
        ps.setArray(1, c.createArrayOf("text", rows.keySet().toArray()));
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public void saveVectors(String modelId, Map<String, float[]> byTextHash) {
    requireModelId(modelId);
    Objects.requireNonNull(byTextHash, "byTextHash");
    List<VectorRow> rows = vectorRows(byTextHash);
    if (rows.isEmpty()) {
      return;
    }
    write("save vectors of model '" + modelId + "'", c -> {
      insertVectors(c, modelId, rows);
      return null;
    });
  }

  private static List<VectorRow> vectorRows(Map<String, float[]> byTextHash) {
    List<VectorRow> rows = new ArrayList<>(byTextHash.size());
    for (Map.Entry<String, float[]> e : byTextHash.entrySet()) {
      String hash = Objects.requireNonNull(e.getKey(), "byTextHash must not hold null hashes");
      float[] v = e.getValue();
      if (v == null || v.length == 0) {
        throw new IllegalArgumentException("vector for text hash '" + hash + "' must hold at least one value, got: "
            + (v == null ? "null" : "an empty vector"));
      }
      rows.add(new VectorRow(hash, v.length, VectorCodec.encode(v)));
    }
    // one lock order for every writer
    rows.sort(Comparator.comparing(VectorRow::hash));
    return rows;
  }

  private static void insertVectors(Connection c, String modelId, List<VectorRow> rows) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO vectors (text_hash, model_id, dimension, vector) VALUES (?, ?, ?, ?) "
            + "ON CONFLICT (text_hash, model_id) DO UPDATE SET dimension = excluded.dimension, "
            + "vector = excluded.vector")) {
      for (VectorRow r : rows) {
        ps.setString(1, r.hash());
        ps.setString(2, modelId);
        ps.setInt(3, r.dimension());
        ps.setBytes(4, r.bytes());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * The vectors of {@code modelId} for these texts (by text hash): those stored, and for the rest what {@code embed}
   * returns (one vector per text, in order), stored before this returns. Across every process sharing the store a
   * text is embedded at most once: a process embeds only the hashes whose advisory lock it takes; for those
   * another holds, it waits until that one commits and reads its vectors (embedding them itself only when that one
   * failed before storing them).
   */
  @Override
  public Map<String, float[]> vectors(String modelId, Map<String, String> textByHash,
      Function<List<String>, List<float[]>> embed) {
    requireModelId(modelId);
    Map<String, float[]> out = new HashMap<>(loadVectors(modelId, textByHash.keySet()));
    List<String> missing = textByHash.keySet().stream().filter(h -> !out.containsKey(h)).sorted().toList();
    if (missing.isEmpty()) {
      return out;
    }
    // first the texts no one else is embedding, without waiting; then the rest, waiting for their locks
    List<String> busy = embedLocked(modelId, missing, textByHash, embed, false, out);
    if (!busy.isEmpty()) {
      embedLocked(modelId, busy, textByHash, embed, true, out);
    }
    return out;
  }

  /**
   * One transaction: locks, reads what was stored meanwhile, embeds and stores the rest; returns what it could not
   * lock.
   */
  private List<String> embedLocked(String modelId, List<String> hashes, Map<String, String> textByHash,
      Function<List<String>, List<float[]>> embed, boolean wait, Map<String, float[]> out) {
    return write("embed and store vectors of model '" + modelId + "'", c -> {
      List<String> mine = new ArrayList<>();
      List<String> busy = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
          wait ? "SELECT pg_advisory_xact_lock(?)" : "SELECT pg_try_advisory_xact_lock(?)")) {
        for (String h : hashes) {
          ps.setLong(1, lockKey(modelId, h));
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            if (wait || rs.getBoolean(1)) {
              mine.add(h);
            } else {
              busy.add(h);
            }
          }
        }
      }
      if (mine.isEmpty()) {
        return busy;
      }
      out.putAll(readVectors(c, modelId, mine));
      List<String> todo = mine.stream().filter(h -> !out.containsKey(h)).toList();
      if (!todo.isEmpty()) {
        List<float[]> vs = embed.apply(todo.stream().map(textByHash::get).toList());
        if (vs.size() != todo.size()) {
          throw new IllegalStateException("the embedding model returned " + vs.size() + " vectors for "
              + todo.size() + " texts");
        }
        Map<String, float[]> fresh = new LinkedHashMap<>();
        for (int i = 0; i < todo.size(); i++) {
          fresh.put(todo.get(i), vs.get(i));
        }
        insertVectors(c, modelId, vectorRows(fresh));
        out.putAll(fresh);
      }
      return busy;
    });
  }

  private static long lockKey(String modelId, String textHash) {
    return Long.parseUnsignedLong(Hashing.sha256Hex(modelId + "\n" + textHash).substring(0, 16), 16);
  }

  // --- the policy, servers, approvals, skills, conversations ---

  @Override
  public Optional<String> loadPolicyJson() {
    return Optional.ofNullable(read("load the access policy", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT policy_json FROM policy WHERE id = ?")) {
        ps.setInt(1, POLICY_ID);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? rs.getString(1) : null;
        }
      }
    }));
  }

  @Override
  public void savePolicyJson(String json) {
    Objects.requireNonNull(json, "policy json");
    write("save the access policy", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO policy (id, policy_json) VALUES (?, ?) "
          + "ON CONFLICT (id) DO UPDATE SET policy_json = excluded.policy_json")) {
        ps.setInt(1, POLICY_ID);
        ps.setString(2, json);
        ps.executeUpdate();
      }
      logChange(c, Area.POLICY);
      return null;
    });
  }

  @Override
  public List<StoredServer> loadServers() {
    List<StoredServer> servers = read("load the registered servers", c -> {
      List<StoredServer> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT name, config_json FROM mcp_servers");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String name = rs.getString(1);
          try {
            out.add(new StoredServer(name, rs.getString(2)));
          } catch (IllegalArgumentException e) {
            throw invalidRow("server", name, e);
          }
        }
      }
      return out;
    });
    servers.sort(Comparator.comparing(StoredServer::name));
    return List.copyOf(servers);
  }

  @Override
  public void saveServer(StoredServer server) {
    Objects.requireNonNull(server, "server");
    write("save server '" + server.name() + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO mcp_servers (name, config_json) VALUES (?, ?) "
          + "ON CONFLICT (name) DO UPDATE SET config_json = excluded.config_json")) {
        ps.setString(1, server.name());
        ps.setString(2, server.configJson());
        ps.executeUpdate();
      }
      logChange(c, Area.SERVERS);
      return null;
    });
  }

  @Override
  public List<String> loadDisabledServers() {
    List<String> names = read("load the disabled servers", c -> {
      List<String> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT name FROM mcp_servers_disabled");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    });
    names.sort(Comparator.naturalOrder());
    return List.copyOf(names);
  }

  @Override
  public boolean setServerDisabled(String name, boolean disabled) {
    Objects.requireNonNull(name, "name");
    return write((disabled ? "disable" : "enable") + " server '" + name + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement(disabled
          ? "INSERT INTO mcp_servers_disabled (name, disabled_at_millis) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"
          : "DELETE FROM mcp_servers_disabled WHERE name = ?")) {
        ps.setString(1, name);
        if (disabled) {
          ps.setLong(2, System.currentTimeMillis());
        }
        boolean changed = ps.executeUpdate() > 0;
        if (changed) {
          logChange(c, Area.SERVERS); // the replicas connect or disconnect it too (ServerRegistry.reconcile)
        }
        return changed;
      }
    });
  }

  @Override
  public boolean deleteServer(String name) {
    Objects.requireNonNull(name, "name");
    return write("delete server '" + name + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM mcp_servers WHERE name = ?")) {
        ps.setString(1, name);
        boolean gone = ps.executeUpdate() > 0;
        if (gone) {
          logChange(c, Area.SERVERS);
        }
        return gone;
      }
    });
  }

  /**
   * Imported APIs' configurations live in {@code meta}, one row per source under this key prefix, as in the
   * SQLite store: no schema migration. No change-log row: the executor reads a source at each call, so every
   * replica calls with the newest configuration without being told.
   */
  private static final String OPENAPI_SOURCE_KEY = "openapi_source:";

  @Override
  public Optional<String> loadOpenApiSource(String name) {
    Objects.requireNonNull(name, "name");
    return Optional.ofNullable(read("load OpenAPI source '" + name + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
        ps.setString(1, OPENAPI_SOURCE_KEY + name);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? rs.getString(1) : null;
        }
      }
    }));
  }

  @Override
  public void saveOpenApiSource(String name, String configJson) {
    if (name == null || name.isBlank() || configJson == null) {
      throw new IllegalArgumentException("an OpenAPI source needs a name and its JSON, got: '" + name + "'");
    }
    write("save OpenAPI source '" + name + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO meta (key, value) VALUES (?, ?) "
          + "ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
        ps.setString(1, OPENAPI_SOURCE_KEY + name);
        ps.setString(2, configJson);
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public boolean deleteOpenApiSource(String name) {
    Objects.requireNonNull(name, "name");
    return write("delete OpenAPI source '" + name + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM meta WHERE key = ?")) {
        ps.setString(1, OPENAPI_SOURCE_KEY + name);
        return ps.executeUpdate() > 0;
      }
    });
  }

  /**
   * Runs {@code work} holding the advisory lock of upstream server {@code name}, if no other process holds it:
   * of several replicas syncing the same server's {@code list_changed}, one writes the catalog change.
   *
   * @return true when {@code work} ran, false when another process held the lock (nothing ran)
   */
  public boolean whileHoldingServerLock(String name, Runnable work) {
    Objects.requireNonNull(name, "name");
    long key = lockKey("mcp-server", name);
    try (Connection c = pool.getConnection()) {
      boolean got;
      try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
        ps.setLong(1, key);
        try (ResultSet rs = ps.executeQuery()) {
          got = rs.next() && rs.getBoolean(1);
        }
      }
      if (!got) {
        return false;
      }
      try {
        work.run();
        return true;
      } finally {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
          ps.setLong(1, key);
          ps.execute();
        }
      }
    } catch (SQLException e) {
      throw new StoreException(url.display(), "take the lock of server '" + name + "'", e);
    }
  }

  private static final String APPROVAL_COLUMNS =
      "id, requester, tool, arguments_json, arguments_hash, created_at_millis, status, decided_by, decided_at_millis, "
          + "channel, scope";

  @Override
  public void saveApproval(StoredApproval a) {
    Objects.requireNonNull(a, "approval");
    boolean inserted = write("save approval request '" + a.id() + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO approvals (" + APPROVAL_COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
        ps.setString(1, a.id());
        ps.setString(2, a.requester());
        ps.setString(3, a.tool());
        ps.setString(4, a.argumentsJson());
        ps.setString(5, a.argumentsHash());
        ps.setLong(6, a.createdAt().toEpochMilli());
        ps.setString(7, a.status().name());
        ps.setString(8, a.decidedBy());
        if (a.decidedAt() == null) {
          ps.setNull(9, Types.BIGINT);
        } else {
          ps.setLong(9, a.decidedAt().toEpochMilli());
        }
        ps.setString(10, a.channel());
        ps.setString(11, a.scope());
        boolean done = ps.executeUpdate() > 0;
        if (done) {
          logChange(c, Area.APPROVALS);
        }
        return done;
      }
    });
    if (!inserted) {
      throw new IllegalArgumentException("an approval request with id '" + a.id() + "' is already stored");
    }
  }

  @Override
  public Optional<StoredApproval> loadApproval(String id) {
    Objects.requireNonNull(id, "id");
    return read("load approval request '" + id + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + APPROVAL_COLUMNS + " FROM approvals WHERE id = ?")) {
        ps.setString(1, id);
        return approvals(ps);
      }
    }).stream().findFirst();
  }

  @Override
  public List<StoredApproval> loadApprovals() {
    List<StoredApproval> all = read("load the approval requests", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + APPROVAL_COLUMNS + " FROM approvals")) {
        return approvals(ps);
      }
    });
    all.sort(Comparator.comparing(StoredApproval::createdAt).thenComparing(StoredApproval::id));
    return List.copyOf(all);
  }

  @Override
  public boolean transitionApproval(
      String id, ApprovalStatus from, ApprovalStatus to, String decidedBy, Instant decidedAt) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    boolean keep = decidedBy == null && decidedAt == null;
    return write("move approval request '" + id + "' from " + from.id() + " to " + to.id(), c -> {
      // the WHERE on the old status is the compare-and-set: of two racing moves, the second finds the row
      // moved once the first commits (READ COMMITTED re-checks it) and updates nothing
      try (PreparedStatement ps = c.prepareStatement(keep
          ? "UPDATE approvals SET status = ? WHERE id = ? AND status = ?"
          : "UPDATE approvals SET status = ?, decided_by = ?, decided_at_millis = ? WHERE id = ? AND status = ?")) {
        int i = 1;
        ps.setString(i++, to.name());
        if (!keep) {
          ps.setString(i++, decidedBy);
          if (decidedAt == null) {
            ps.setNull(i++, Types.BIGINT);
          } else {
            ps.setLong(i++, decidedAt.toEpochMilli());
          }
        }
        ps.setString(i++, id);
        ps.setString(i, from.name());
        boolean moved = ps.executeUpdate() > 0;
        if (moved) {
          logChange(c, Area.APPROVALS);
        }
        return moved;
      }
    });
  }

  private List<StoredApproval> approvals(PreparedStatement ps) throws SQLException {
    List<StoredApproval> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String id = rs.getString(1);
        long decided = rs.getLong(9);
        boolean undecided = rs.wasNull();
        try {
          out.add(new StoredApproval(id, rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
              Instant.ofEpochMilli(rs.getLong(6)), ApprovalStatus.valueOf(rs.getString(7)), rs.getString(8),
              undecided ? null : Instant.ofEpochMilli(decided), rs.getString(10), rs.getString(11)));
        } catch (IllegalArgumentException | NullPointerException e) {
          throw invalidRow("approval request", id, e);
        }
      }
    }
    return out;
  }

  @Override
  public List<StoredSkill> loadSkills() {
    List<StoredSkill> skills = read("load the skills", c -> {
      List<StoredSkill> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT name, skill_json FROM skills");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String name = rs.getString(1);
          try {
            out.add(new StoredSkill(name, rs.getString(2)));
          } catch (IllegalArgumentException e) {
            throw invalidRow("skill", name, e);
          }
        }
      }
      return out;
    });
    skills.sort(Comparator.comparing(StoredSkill::name));
    return List.copyOf(skills);
  }

  @Override
  public void saveSkill(StoredSkill skill) {
    Objects.requireNonNull(skill, "skill");
    write("save skill '" + skill.name() + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO skills (name, skill_json) VALUES (?, ?) "
          + "ON CONFLICT (name) DO UPDATE SET skill_json = excluded.skill_json")) {
        ps.setString(1, skill.name());
        ps.setString(2, skill.json());
        ps.executeUpdate();
      }
      logChange(c, Area.SKILLS);
      return null;
    });
  }

  @Override
  public boolean deleteSkill(String name) {
    Objects.requireNonNull(name, "name");
    return write("delete skill '" + name + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM skills WHERE name = ?")) {
        ps.setString(1, name);
        boolean gone = ps.executeUpdate() > 0;
        if (gone) {
          logChange(c, Area.SKILLS);
        }
        return gone;
      }
    });
  }

  @Override
  public Optional<StoredConversation> loadConversation(String principal, String id) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(id, "id");
    return Optional.ofNullable(tx("load conversation '" + id + "'", Connection.TRANSACTION_REPEATABLE_READ, false,
        c -> {
          long created;
          long lastUsed;
          try (PreparedStatement ps = c.prepareStatement(
              "SELECT created_at_millis, last_used_at_millis FROM conversations WHERE principal = ? AND id = ?")) {
            ps.setString(1, principal);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return null;
              }
              created = rs.getLong(1);
              lastUsed = rs.getLong(2);
            }
          }
          return new StoredConversation(principal, id,
              conversationList(c, "conversation_skills", "skill", principal, id),
              conversationList(c, "conversation_tools", "tool", principal, id), Instant.ofEpochMilli(created),
              Instant.ofEpochMilli(lastUsed));
        }));
  }

  private static List<String> conversationList(Connection c, String table, String column, String principal,
      String id) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM " + table
        + " WHERE principal = ? AND conversation_id = ? ORDER BY position")) {
      ps.setString(1, principal);
      ps.setString(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  @Override
  public void saveConversation(StoredConversation conv) {
    Objects.requireNonNull(conv, "conversation");
    write("save conversation '" + conv.id() + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO conversations (principal, id, created_at_millis, last_used_at_millis) VALUES (?, ?, ?, ?) "
              + "ON CONFLICT (principal, id) DO UPDATE SET created_at_millis = excluded.created_at_millis, "
              + "last_used_at_millis = excluded.last_used_at_millis")) {
        ps.setString(1, conv.principal());
        ps.setString(2, conv.id());
        ps.setLong(3, conv.createdAt().toEpochMilli());
        ps.setLong(4, conv.lastUsedAt().toEpochMilli());
        ps.executeUpdate();
      }
      replaceConversationList(c, "conversation_skills", "skill", conv, conv.activeSkills());
      replaceConversationList(c, "conversation_tools", "tool", conv, conv.disclosedTools());
      logChange(c, Area.CONVERSATIONS);
      return null;
    });
  }

  private static void replaceConversationList(Connection c, String table, String column, StoredConversation conv,
      List<String> values) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM " + table + " WHERE principal = ? AND conversation_id = ?")) {
      ps.setString(1, conv.principal());
      ps.setString(2, conv.id());
      ps.executeUpdate();
    }
    if (values.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table
        + " (principal, conversation_id, position, " + column + ") VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < values.size(); i++) {
        ps.setString(1, conv.principal());
        ps.setString(2, conv.id());
        ps.setInt(3, i);
        ps.setString(4, values.get(i));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  @Override
  public boolean deleteConversation(String principal, String id) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(id, "id");
    return write("delete conversation '" + id + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM conversations WHERE principal = ? AND id = ?")) {
        ps.setString(1, principal);
        ps.setString(2, id);
        boolean gone = ps.executeUpdate() > 0;
        if (gone) {
          logChange(c, Area.CONVERSATIONS);
        }
        return gone;
      }
    });
  }

  @Override
  public int deleteConversationsUsedBefore(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    return write("delete the conversations idle since " + cutoff, c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM conversations WHERE last_used_at_millis < ?")) {
        ps.setLong(1, cutoff.toEpochMilli());
        int n = ps.executeUpdate();
        if (n > 0) {
          logChange(c, Area.CONVERSATIONS);
        }
        return n;
      }
    });
  }

  @Override
  public List<String> conversationIds(String principal) {
    Objects.requireNonNull(principal, "principal");
    record Row(String id, long lastUsed) {}
    List<Row> rows = read("list the conversations of a principal", c -> {
      List<Row> out = new ArrayList<>();
      try (PreparedStatement ps =
          c.prepareStatement("SELECT id, last_used_at_millis FROM conversations WHERE principal = ?")) {
        ps.setString(1, principal);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new Row(rs.getString(1), rs.getLong(2)));
          }
        }
      }
      return out;
    });
    rows.sort(Comparator.comparingLong(Row::lastUsed).thenComparing(Row::id));
    return rows.stream().map(Row::id).toList();
  }

  @Override
  public int conversationCount() {
    return read("count the conversations", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM conversations");
          ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    });
  }

  // --- the change log ---

  /**
   * The areas changed after change {@code after} (a sequence number; 0 for none seen), and the newest sequence
   * number. {@link Changes#gap()} is true when rows after {@code after} were pruned: reload everything.
   */
  public Changes changesSince(long after) {
    return tx("read the changes since " + after, Connection.TRANSACTION_REPEATABLE_READ, false, c -> {
      long prunedBelow = Long.parseLong(meta(c, PRUNED_BELOW_KEY, false));
      Set<Area> areas = EnumSet.noneOf(Area.class);
      long last = after;
      try (PreparedStatement ps =
          c.prepareStatement("SELECT seq, area FROM changes WHERE seq > ? ORDER BY seq")) {
        ps.setLong(1, after);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            last = rs.getLong(1);
            try {
              areas.add(Area.valueOf(rs.getString(2)));
            } catch (IllegalArgumentException newer) {
              // an area a newer ToolScout writes: reload everything this one knows
              areas.addAll(EnumSet.allOf(Area.class));
            }
          }
        }
      }
      if (last == after) {
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(seq), 0) FROM changes")) {
          rs.next();
          last = Math.max(after, rs.getLong(1));
        }
      }
      return new Changes(Set.copyOf(areas), last, after < prunedBelow);
    });
  }

  /** The newest change's sequence number (0 when none). */
  public long lastChange() {
    return read("read the newest change", c -> {
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(seq), 0) FROM changes")) {
        rs.next();
        return rs.getLong(1);
      }
    });
  }

  /**
   * What changed after a sequence number.
   *
   * @param areas the areas changed
   * @param last the newest sequence number seen (read the next changes after it)
   * @param gap true when changes after the number asked for were pruned: every area must be reloaded
   */
  public record Changes(Set<Area> areas, long last, boolean gap) {}

  /** Appends the change and notifies, in the caller's transaction (so both happen at its commit, or neither). */
  private void logChange(Connection c, Area area) throws SQLException {
    // held to the commit: sequence numbers become visible in the order they were drawn
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
      ps.setLong(1, CHANGE_LOCK);
      ps.execute();
    }
    long seq;
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO changes (area, at_millis) VALUES (?, ?) RETURNING seq")) {
      ps.setString(1, area.name());
      ps.setLong(2, System.currentTimeMillis());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        seq = rs.getLong(1);
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      ps.setString(1, CHANNEL);
      ps.setString(2, area.id() + ":" + seq);
      ps.execute();
    }
    if (seq % 1_000 == 0 && seq > CHANGES_KEPT) {
      long below = seq - CHANGES_KEPT;
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM changes WHERE seq < ?")) {
        ps.setLong(1, below);
        ps.executeUpdate();
      }
      try (PreparedStatement ps = c.prepareStatement("UPDATE meta SET value = ? WHERE key = ?")) {
        ps.setString(1, Long.toString(below));
        ps.setString(2, PRUNED_BELOW_KEY);
        ps.executeUpdate();
      }
    }
  }

  // --- lifecycle ---

  /** Closes the pool. Idempotent. */
  @Override
  public void close() {
    closed = true;
    pool.close();
  }

  @Override
  public String toString() {
    return "PostgresStateStore[" + url.display() + "]";
  }

  // --- internals ---

  private void migrate() {
    tx("create the schema version tables", Connection.TRANSACTION_READ_COMMITTED, true, c -> {
      lock(c, MIGRATION_LOCK);
      try (Statement st = c.createStatement()) {
        st.execute(Migrations.SCHEMA_VERSION_TABLE);
        st.execute(Migrations.SCHEMA_VERSION_TABLE.replace("schema_version", "pg_schema_version"));
      }
      return null;
    });
    int latest = Migrations.latestVersion();
    while (step("schema_version", latest, n -> Migrations.statements(n, Migrations.Dialect.POSTGRESQL))) {
      // one migration per transaction, re-reading the version under the lock: another replica may be migrating
    }
    while (step("pg_schema_version", PG_STEPS.size(), n -> PG_STEPS.get(n - 1))) {
      // the same, for the PostgreSQL-only steps
    }
  }

  private boolean step(String table, int latest, java.util.function.IntFunction<List<String>> statements) {
    return tx("migrate the schema (" + table + ")", Connection.TRANSACTION_READ_COMMITTED, true, c -> {
      lock(c, MIGRATION_LOCK);
      int found;
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT MAX(version) FROM " + table)) {
        found = rs.next() ? rs.getInt(1) : 0;
      }
      if (found > latest) {
        throw new IllegalStateException("state store " + url.display() + " has " + table + " " + found
            + ", newer than this ToolScout supports (up to " + latest + "); run a newer ToolScout or use another "
            + "database or schema");
      }
      if (found == latest) {
        return false;
      }
      int next = found + 1;
      try (Statement st = c.createStatement()) {
        for (String sql : statements.apply(next)) {
          st.execute(sql);
        }
      }
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO " + table + " (version, applied_at_millis) VALUES (?, ?)")) {
        ps.setInt(1, next);
        ps.setLong(2, System.currentTimeMillis());
        ps.executeUpdate();
      }
      LOG.info("state store {}: migrated {} to version {}", url.display(), table, next);
      return true;
    });
  }

  private static void lock(Connection c, long key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
      ps.setLong(1, key);
      ps.execute();
    }
  }

  private long catalogVersion(Connection c, boolean forUpdate) throws SQLException {
    String v = meta(c, CATALOG_VERSION_KEY, forUpdate);
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          "state store " + url.display() + ": meta." + CATALOG_VERSION_KEY + " must be a number, got: " + v, e);
    }
  }

  private static String meta(Connection c, String key, boolean forUpdate) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT value FROM meta WHERE key = ?" + (forUpdate ? " FOR UPDATE" : ""))) {
      ps.setString(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private List<Parsed> parse(List<SpecRow> rows) {
    var stream = rows.stream();
    if (rows.size() >= 1_000) {
      stream = stream.parallel();
    }
    List<Parsed> parsed = stream.map(r -> parseSpec(r.name(), r.json(), r.contentHash())).toList();
    Map<String, Parsed> ordered = new TreeMap<>();
    for (Parsed p : parsed) {
      if (p.error() != null) {
        throw p.error();
      }
      ordered.put(p.spec().fullName(), p);
    }
    return new ArrayList<>(ordered.values());
  }

  private Parsed parseSpec(String name, String json, String contentHash) {
    ToolSpec spec;
    try {
      spec = ToolSpecJson.fromJson(ToolSpecJson.MAPPER.readTree(json), null);
    } catch (JsonProcessingException e) {
      return new Parsed(null, null, corruptTool(name, "is not valid JSON: " + e.getOriginalMessage(), e));
    } catch (IllegalArgumentException e) {
      return new Parsed(null, null, corruptTool(name, "is not a valid tool: " + e.getMessage(), e));
    }
    if (!spec.fullName().equals(name)) {
      return new Parsed(null, null, corruptTool(name, "holds a different tool: '" + spec.fullName() + "'", null));
    }
    return new Parsed(spec, contentHash == null || contentHash.isEmpty() ? spec.contentHash() : contentHash, null);
  }

  private IllegalStateException corruptTool(String name, String problem, Exception cause) {
    return new IllegalStateException("state store " + url.display() + ": the stored spec_json of tool '" + name
        + "' " + problem + " (restore the store from a backup, or remove the tool and register it again)", cause);
  }

  private IllegalStateException invalidRow(String what, String key, RuntimeException e) {
    return new IllegalStateException(
        "state store " + url.display() + ": the stored " + what + " '" + key + "' is invalid: " + e.getMessage(), e);
  }

  private static void requireModelId(String modelId) {
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank, got: '" + modelId + "'");
    }
  }

  private <T> T read(String operation, SqlWork<T> work) {
    return tx(operation, Connection.TRANSACTION_READ_COMMITTED, false, work);
  }

  private <T> T write(String operation, SqlWork<T> work) {
    return tx(operation, Connection.TRANSACTION_READ_COMMITTED, true, work);
  }

  /**
   * Runs {@code work} in one transaction on a pooled connection, rolling back on any failure. A read at
   * REPEATABLE READ sees one snapshot in all its queries.
   */
  private <T> T tx(String operation, int isolation, boolean write, SqlWork<T> work) {
    if (closed) {
      throw new IllegalStateException("state store " + url.display() + " is closed; cannot " + operation);
    }
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      c.setTransactionIsolation(isolation);
      c.setReadOnly(!write);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (Throwable t) {
        try {
          c.rollback();
        } catch (SQLException rollbackFailure) {
          t.addSuppressed(rollbackFailure);
        }
        throw t;
      }
    } catch (SQLException e) {
      throw new StoreException(url.display(), operation, e);
    }
  }

  // --- memories: no change log entry yet (each replica loads them at start; see docs/MEMORY.md) ---

  @Override
  public List<StoredMemory> loadMemories() {
    List<StoredMemory> memories = read("load the memories", c -> {
      List<StoredMemory> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
              "SELECT id, scope, owner, memory_json, model_id, vector FROM memories");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          String model = rs.getString(5);
          byte[] bytes = rs.getBytes(6);
          try {
            out.add(new StoredMemory(id, rs.getString(2), rs.getString(3), rs.getString(4), model,
                model == null || bytes == null ? null : VectorCodec.decode(bytes, bytes.length / Float.BYTES)));
          } catch (IllegalArgumentException e) {
            throw invalidRow("memory", id, e);
          }
        }
      }
      return out;
    });
    memories.sort(Comparator.comparing(StoredMemory::id));
    return List.copyOf(memories);
  }

  @Override
  public void saveMemory(StoredMemory m) {
    Objects.requireNonNull(m, "memory");
    write("save memory '" + m.id() + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO memories (id, scope, owner, memory_json, model_id, vector) VALUES (?, ?, ?, ?, ?, ?) "
              + "ON CONFLICT (id) DO UPDATE SET scope = excluded.scope, owner = excluded.owner, "
              + "memory_json = excluded.memory_json, model_id = excluded.model_id, vector = excluded.vector")) {
        ps.setString(1, m.id());
        ps.setString(2, m.scope());
        ps.setString(3, m.owner());
        ps.setString(4, m.json());
        ps.setString(5, m.modelId());
        ps.setBytes(6, m.vector() == null ? null : VectorCodec.encode(m.vector()));
        ps.executeUpdate();
      }
      logChange(c, Area.MEMORIES);
      return null;
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>PostgreSQL keeps a deleted row's bytes in the table's pages until a vacuum lets them be overwritten; the
   * row is gone for every reader at once.
   */
  @Override
  public boolean deleteMemory(String id) {
    Objects.requireNonNull(id, "id");
    return write("delete memory '" + id + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM memories WHERE id = ?")) {
        ps.setString(1, id);
        boolean gone = ps.executeUpdate() > 0;
        if (gone) {
          logChange(c, Area.MEMORIES);
        }
        return gone;
      }
    });
  }

  // --- the agent's runs and usage records: no change log entry (no replica caches them; each reads the store) ---

  private static final String RUN_COLUMNS =
      "id, principal, conversation_id, status, approval_id, state_json, created_at_millis, updated_at_millis";

  @Override
  public void saveRun(StoredRun r) {
    Objects.requireNonNull(r, "run");
    write("save agent run '" + r.id() + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO agent_runs (" + RUN_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
              + "ON CONFLICT (id) DO UPDATE SET status = excluded.status, approval_id = excluded.approval_id, "
              + "state_json = excluded.state_json, updated_at_millis = excluded.updated_at_millis")) {
        ps.setString(1, r.id());
        ps.setString(2, r.principal());
        ps.setString(3, r.conversationId());
        ps.setString(4, r.status());
        ps.setString(5, r.approvalId());
        ps.setString(6, r.stateJson());
        ps.setLong(7, r.createdAt().toEpochMilli());
        ps.setLong(8, r.updatedAt().toEpochMilli());
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Optional<StoredRun> loadRun(String id) {
    Objects.requireNonNull(id, "id");
    return read("load agent run '" + id + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE id = ?")) {
        ps.setString(1, id);
        return runs(ps);
      }
    }).stream().findFirst();
  }

  @Override
  public List<StoredRun> loadRunsByStatus(String status) {
    Objects.requireNonNull(status, "status");
    return sortedRuns(read("load the agent runs that are " + status, c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE status = ?")) {
        ps.setString(1, status);
        return runs(ps);
      }
    }));
  }

  @Override
  public List<StoredRun> loadRuns(String principal, String conversationId) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(conversationId, "conversationId");
    return sortedRuns(read("load the agent runs of conversation '" + conversationId + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE principal = ? AND conversation_id = ?")) {
        ps.setString(1, principal);
        ps.setString(2, conversationId);
        return runs(ps);
      }
    }));
  }

  private static List<StoredRun> sortedRuns(List<StoredRun> runs) {
    runs.sort(Comparator.comparing(StoredRun::createdAt).thenComparing(StoredRun::id));
    return List.copyOf(runs);
  }

  private static List<StoredRun> runs(PreparedStatement ps) throws SQLException {
    List<StoredRun> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new StoredRun(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
            rs.getString(6), Instant.ofEpochMilli(rs.getLong(7)), Instant.ofEpochMilli(rs.getLong(8))));
      }
    }
    return out;
  }

  @Override
  public boolean deleteRun(String id) {
    Objects.requireNonNull(id, "id");
    return write("delete agent run '" + id + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM agent_runs WHERE id = ?")) {
        ps.setString(1, id);
        return ps.executeUpdate() > 0;
      }
    });
  }

  @Override
  public void saveUsage(StoredUsage u) {
    Objects.requireNonNull(u, "usage");
    write("save usage record '" + u.id() + "'", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO usage_records (id, at_millis, principal, conversation_id, record_json) VALUES (?, ?, ?, ?, ?) "
              + "ON CONFLICT (id) DO UPDATE SET at_millis = excluded.at_millis, record_json = excluded.record_json")) {
        ps.setString(1, u.id());
        ps.setLong(2, u.at().toEpochMilli());
        ps.setString(3, u.principal());
        ps.setString(4, u.conversationId());
        ps.setString(5, u.json());
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public List<StoredUsage> loadUsage(Instant since, int limit) {
    Objects.requireNonNull(since, "since");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got: " + limit);
    }
    List<StoredUsage> out = read("load the usage records since " + since, c -> {
      List<StoredUsage> rows = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT id, at_millis, principal, conversation_id, record_json FROM usage_records WHERE at_millis >= ? "
              + "ORDER BY at_millis, id LIMIT ?")) {
        ps.setLong(1, since.toEpochMilli());
        ps.setInt(2, limit);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(new StoredUsage(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getString(3),
                rs.getString(4), rs.getString(5)));
          }
        }
      }
      return rows;
    });
    out.sort(Comparator.comparing(StoredUsage::at).thenComparing(StoredUsage::id));
    return List.copyOf(out);
  }
  @Override
  public void saveLearned(List<StoredLearned> pairs) {
    Objects.requireNonNull(pairs, "pairs");
    if (pairs.isEmpty()) {
      return;
    }
    write("save " + pairs.size() + " learned pairs", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
        for (StoredLearned p : pairs) {
          ps.setString(1, LearnedRows.key(p));
          ps.setString(2, LearnedRows.value(p));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      logChange(c, Area.LEARNED);
      return null;
    });
  }

  @Override
  public List<StoredLearned> loadLearned() {
    List<StoredLearned> out = read("load the learned pairs", c -> {
      List<StoredLearned> rows = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT key, value FROM meta WHERE key COLLATE \"C\" >= ? AND key COLLATE \"C\" < ?")) {
        ps.setString(1, LearnedRows.PREFIX);
        ps.setString(2, LearnedRows.END);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(LearnedRows.read(rs.getString(1), rs.getString(2)));
          }
        }
      }
      return rows;
    });
    // by tool then message hash as Java compares strings, whatever collation the database sorted by
    out.sort(Comparator.comparing(StoredLearned::tool).thenComparing(StoredLearned::messageHash));
    return List.copyOf(out);
  }

  @Override
  public int deleteLearned(Collection<String> tools) {
    return write(tools == null ? "delete every learned pair" : "delete the learned pairs of " + tools.size() + " tools",
        c -> {
          int n = 0;
          try (PreparedStatement ps = c.prepareStatement(
              "DELETE FROM meta WHERE key COLLATE \"C\" >= ? AND key COLLATE \"C\" < ?")) {
            if (tools == null) {
              ps.setString(1, LearnedRows.PREFIX);
              ps.setString(2, LearnedRows.END);
              n = ps.executeUpdate();
            } else {
              for (String t : tools) {
                ps.setString(1, LearnedRows.from(t));
                ps.setString(2, LearnedRows.to(t));
                n += ps.executeUpdate();
              }
            }
          }
          if (n > 0) {
            logChange(c, Area.LEARNED);
          }
          return n;
        });
  }



  @FunctionalInterface
  private interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  private record CatalogRows(long version, List<SpecRow> specs) {}

  private record SpecRow(String name, String json, String contentHash) {}

  private record Parsed(ToolSpec spec, String contentHash, IllegalStateException error) {}

  private record ToolRow(String name, String json, String contentHash) {}

  private record VectorRow(String hash, int dimension, byte[] bytes) {}
}
