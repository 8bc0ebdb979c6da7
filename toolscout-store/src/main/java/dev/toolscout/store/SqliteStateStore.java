package dev.toolscout.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.toolscout.catalog.StateStore;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link StateStore} in one SQLite file: the embedded default, no server needed.
 *
 * <p>The file runs in WAL mode with {@code synchronous=FULL}, so a change is on disk when its method returns
 * (the WAL is synced on every commit). The schema is created and upgraded by {@link Migrations} when the
 * store opens; a file written by a newer ToolScout is refused rather than guessed at.
 *
 * <p>Thread-safe: one JDBC connection, used under a lock; every write is one transaction. Other processes
 * may open the same file (SQLite locks it); they wait up to {@value #BUSY_TIMEOUT_MILLIS} ms for a lock.
 * JSON is serialized and parsed outside the lock.
 */
public final class SqliteStateStore implements StateStore {
  private static final Logger LOG = LoggerFactory.getLogger(SqliteStateStore.class);

  /** How long a statement waits for another connection's lock before failing. */
  public static final int BUSY_TIMEOUT_MILLIS = 10_000;

  /** Hashes per {@code IN (...)} list: well under SQLite's and PostgreSQL's bound-parameter limits. */
  static final int IN_BATCH = 500;

  /** Catalogs at least this large are parsed on several threads. */
  private static final int PARALLEL_PARSE_MIN = 1_000;

  private static final String CATALOG_VERSION_KEY = "catalog_version";
  private static final int POLICY_ID = 1;

  private final Path file;
  private final Connection conn;
  private final boolean readOnly;
  private final ReentrantLock lock = new ReentrantLock();
  private boolean closed;

  private SqliteStateStore(Path file, Connection conn, boolean readOnly) {
    this.file = file;
    this.conn = conn;
    this.readOnly = readOnly;
  }

  /**
   * Opens the store in {@code file}, creating the file and its parent directories when absent, and brings
   * its schema up to date.
   *
   * @throws IllegalStateException when the file was written by a newer schema version than this code knows
   * @throws StoreException when the file cannot be created or is not an SQLite database
   */
  public static SqliteStateStore open(Path file) {
    Path path = file.toAbsolutePath().normalize();
    try {
      Path dir = path.getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
    } catch (IOException e) {
      throw new StoreException(path, "create the directory " + path.getParent(), e);
    }
    Connection c;
    try {
      c = DriverManager.getConnection("jdbc:sqlite:" + path);
    } catch (SQLException e) {
      throw new StoreException(path, "open the database", e);
    }
    try {
      configure(c, path);
      migrate(c, path);
      return new SqliteStateStore(path, c, false);
    } catch (SQLException e) {
      closeQuietly(c, path);
      throw new StoreException(path, "open the database", e);
    } catch (RuntimeException e) {
      closeQuietly(c, path);
      throw e;
    }
  }

  /**
   * Opens an existing store for reading only, beside a process that may be writing it: the connection is
   * SQLite's read-only one (no write reaches the database file, whatever is called), nothing is migrated and
   * the journal mode is left as it is. Every write method throws {@link IllegalStateException}. Each read sees
   * the last change committed before it.
   *
   * <p>A reader of a WAL-mode database uses SQLite's shared-memory index {@code state.db-shm} and the log
   * {@code state.db-wal} beside it: those of the writer when one has the file open (the reader records its
   * read position in the -shm), else SQLite creates them (an empty log) and leaves them at close, for the next
   * writer to remove. They hold no data of their own; the database file is never written.
   *
   * @throws StoreException when the file does not exist or is not an SQLite database
   * @throws IllegalStateException when the file's schema version is not this code's, older or newer: a
   *     read-only store cannot migrate, and a newer one is refused rather than guessed at
   */
  public static SqliteStateStore openReadOnly(Path file) {
    Path path = file.toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) {
      // SQLite would create an empty database in read-write mode; in read-only mode it fails less clearly
      throw new StoreException(path, "open the database read-only", new java.nio.file.NoSuchFileException(
          path.toString(), null, "no such file"));
    }
    Connection c;
    try {
      org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
      config.setReadOnly(true);
      config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
      c = DriverManager.getConnection("jdbc:sqlite:" + path, config.toProperties());
    } catch (SQLException e) {
      throw new StoreException(path, "open the database read-only", e);
    }
    try {
      checkSchema(c, path);
      return new SqliteStateStore(path, c, true);
    } catch (SQLException e) {
      closeQuietly(c, path);
      throw new StoreException(path, "open the database read-only", e);
    } catch (RuntimeException e) {
      closeQuietly(c, path);
      throw e;
    }
  }

  /** Whether this store was opened with {@link #openReadOnly}. */
  public boolean readOnly() {
    return readOnly;
  }

  /** The store file (absolute). */
  public Path file() {
    return file;
  }

  @Override
  public StoredCatalog loadCatalog() {
    // Version and rows come from one read transaction, so they describe the same snapshot.
    CatalogRows rows =
        read(
            "load the catalog",
            () -> {
              long version = readCatalogVersion();
              List<SpecRow> specs = new ArrayList<>();
              try (PreparedStatement ps =
                      conn.prepareStatement("SELECT name, spec_json, content_hash FROM tools ORDER BY name");
                  ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  specs.add(new SpecRow(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
              }
              return new CatalogRows(version, specs);
            });
    // Parsing is most of the cost of a cold start (10k specs), and each row parses on its own; the rows are
    // already read, so parallel parsing holds no lock and no connection.
    Stream<SpecRow> stream = rows.specs().stream();
    if (rows.specs().size() >= PARALLEL_PARSE_MIN) {
      stream = stream.parallel();
    }
    // Errors are collected, not thrown from the workers: a fork-join pool rethrows a copy that wraps the
    // original message, and the first bad row in name order should be the one reported, every time.
    List<Parsed> parsed = stream.map(r -> parseSpec(r.name(), r.json(), r.contentHash())).toList();
    List<Parsed> ordered = new ArrayList<>(parsed.size());
    for (Parsed p : parsed) {
      if (p.error() != null) {
        throw p.error();
      }
      ordered.add(p);
    }
    // Name order as Java compares strings, whatever collation the database sorted by.
    ordered.sort(Comparator.comparing(p -> p.spec().fullName()));
    List<ToolSpec> tools = new ArrayList<>(ordered.size());
    List<String> hashes = new ArrayList<>(ordered.size());
    for (Parsed p : ordered) {
      tools.add(p.spec());
      hashes.add(p.contentHash());
    }
    return new StoredCatalog(rows.version(), tools, hashes);
  }

  @Override
  public long catalogVersion() {
    return locked("read the catalog version", this::readCatalogVersion);
  }

  @Override
  public long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals) {
    Objects.requireNonNull(upserts, "upserts");
    Objects.requireNonNull(removals, "removals");
    Set<String> removed = new LinkedHashSet<>();
    for (String name : removals) {
      removed.add(Objects.requireNonNull(name, "removals must not hold null names"));
    }
    // Serialized before taking the lock; a rejected change writes nothing.
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
      // toJson, not canonical(): the parameters' property order is meaningful and must survive a reload.
      rows.add(new ToolRow(name, ToolSpecJson.toJson(spec).toString(), spec.contentHash()));
    }
    return write(
        "apply a catalog change",
        () -> {
          long next = readCatalogVersion() + 1;
          if (!rows.isEmpty()) {
            try (PreparedStatement ps =
                conn.prepareStatement(
                    "INSERT INTO tools (name, spec_json, content_hash, updated_version) "
                        + "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET "
                        + "spec_json = excluded.spec_json, content_hash = excluded.content_hash, "
                        + "updated_version = excluded.updated_version")) {
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
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM tools WHERE name = ?")) {
              for (String name : removed) {
                ps.setString(1, name);
                ps.addBatch();
              }
              ps.executeBatch();
            }
          }
          try (PreparedStatement ps = conn.prepareStatement("UPDATE meta SET value = ? WHERE key = ?")) {
            ps.setString(1, Long.toString(next));
            ps.setString(2, CATALOG_VERSION_KEY);
            ps.executeUpdate();
          }
          return next;
        });
  }

  @Override
  public Set<String> toolsChangedSince(long version) {
    return read(
        "read the tools changed since catalog version " + version,
        () -> {
          Set<String> out = new HashSet<>();
          try (PreparedStatement ps = conn.prepareStatement("SELECT name FROM tools WHERE updated_version > ?")) {
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
    return read(
        "load vectors of model '" + modelId + "'",
        () -> {
          Map<String, float[]> out = HashMap.newHashMap(hashes.size());
          // Full chunks share one statement; only the last, shorter chunk needs its own.
          try (PreparedStatement full = conn.prepareStatement(selectVectorsSql(IN_BATCH))) {
            for (int from = 0; from < hashes.size(); from += IN_BATCH) {
              List<String> chunk = hashes.subList(from, Math.min(hashes.size(), from + IN_BATCH));
              if (chunk.size() == IN_BATCH) {
                readVectors(full, modelId, chunk, out);
              } else {
                try (PreparedStatement last = conn.prepareStatement(selectVectorsSql(chunk.size()))) {
                  readVectors(last, modelId, chunk, out);
                }
              }
            }
          }
          return out;
        });
  }

  @Override
  public Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes) {
    TokenCountRows.requireCounter(counter);
    List<String> hashes = TokenCountRows.distinctHashes(contentHashes);
    if (hashes.isEmpty()) {
      return new HashMap<>();
    }
    return read(
        "load token counts of counter '" + counter + "'",
        () -> {
          Map<String, Integer> out = HashMap.newHashMap(hashes.size());
          if (hashes.size() > IN_BATCH) {
            // many (a whole catalog at open): one pass over the counter's rows, which saving keeps to about one a
            // tool, beats a statement per chunk (10k hashes: 20 statements of 500 parameters each)
            Set<String> wanted = new HashSet<>(hashes);
            try (PreparedStatement ps =
                conn.prepareStatement("SELECT content_hash, tokens FROM definition_tokens WHERE counter = ?")) {
              ps.setString(1, counter);
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  String h = rs.getString(1);
                  if (wanted.contains(h)) {
                    out.put(h, rs.getInt(2));
                  }
                }
              }
            }
            return out;
          }
          for (int from = 0; from < hashes.size(); from += IN_BATCH) {
            List<String> chunk = hashes.subList(from, Math.min(hashes.size(), from + IN_BATCH));
            try (PreparedStatement ps = conn.prepareStatement(
                "SELECT content_hash, tokens FROM definition_tokens WHERE counter = ? AND content_hash IN ("
                    + String.join(", ", java.util.Collections.nCopies(chunk.size(), "?")) + ")")) {
              ps.setString(1, counter);
              for (int i = 0; i < chunk.size(); i++) {
                ps.setString(i + 2, chunk.get(i));
              }
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
    write(
        "save token counts of counter '" + counter + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement(
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
          // the rows just saved are kept even when no tool has their hash (the engine's own tools)
          try (Statement st = conn.createStatement()) {
            st.execute("CREATE TEMP TABLE IF NOT EXISTS saved_token_hashes (content_hash TEXT PRIMARY KEY)");
            st.execute("DELETE FROM saved_token_hashes");
          }
          try (PreparedStatement ps =
              conn.prepareStatement("INSERT OR IGNORE INTO saved_token_hashes (content_hash) VALUES (?)")) {
            for (String h : rows.keySet()) {
              ps.setString(1, h);
              ps.addBatch();
            }
            ps.executeBatch();
          }
          try (Statement st = conn.createStatement()) {
            st.executeUpdate(TokenCountRows.PRUNE.replace("${SAVED}", "SELECT content_hash FROM saved_token_hashes"));
            st.execute("DELETE FROM saved_token_hashes");
          }
          return null;
        });
  }

  @Override
  public void saveVectors(String modelId, Map<String, float[]> byTextHash) {
    requireModelId(modelId);
    Objects.requireNonNull(byTextHash, "byTextHash");
    List<VectorRow> rows = new ArrayList<>(byTextHash.size());
    for (Map.Entry<String, float[]> e : byTextHash.entrySet()) {
      String hash = Objects.requireNonNull(e.getKey(), "byTextHash must not hold null hashes");
      float[] v = e.getValue();
      if (v == null || v.length == 0) {
        throw new IllegalArgumentException(
            "vector for text hash '" + hash + "' must hold at least one value, got: "
                + (v == null ? "null" : "an empty vector"));
      }
      rows.add(new VectorRow(hash, v.length, VectorCodec.encode(v)));
    }
    if (rows.isEmpty()) {
      return;
    }
    write(
        "save vectors of model '" + modelId + "'",
        () -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "INSERT INTO vectors (text_hash, model_id, dimension, vector) VALUES (?, ?, ?, ?) "
                      + "ON CONFLICT (text_hash, model_id) DO UPDATE SET "
                      + "dimension = excluded.dimension, vector = excluded.vector")) {
            for (VectorRow r : rows) {
              ps.setString(1, r.hash());
              ps.setString(2, modelId);
              ps.setInt(3, r.dimension());
              ps.setBytes(4, r.bytes());
              ps.addBatch();
            }
            ps.executeBatch();
          }
          return null;
        });
  }

  @Override
  public Optional<String> loadPolicyJson() {
    return Optional.ofNullable(
        locked(
            "load the access policy",
            () -> {
              try (PreparedStatement ps =
                  conn.prepareStatement("SELECT policy_json FROM policy WHERE id = ?")) {
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
    write(
        "save the access policy",
        () -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "INSERT INTO policy (id, policy_json) VALUES (?, ?) "
                      + "ON CONFLICT (id) DO UPDATE SET policy_json = excluded.policy_json")) {
            ps.setInt(1, POLICY_ID);
            ps.setString(2, json);
            ps.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public List<StoredServer> loadServers() {
    List<StoredServer> servers =
        locked(
            "load the registered servers",
            () -> {
              List<StoredServer> out = new ArrayList<>();
              try (PreparedStatement ps =
                      conn.prepareStatement("SELECT name, config_json FROM mcp_servers ORDER BY name");
                  ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  out.add(storedServer(rs.getString(1), rs.getString(2)));
                }
              }
              return out;
            });
    // Name order as Java compares strings, whatever collation the database sorted by.
    servers.sort(Comparator.comparing(StoredServer::name));
    return List.copyOf(servers);
  }

  @Override
  public void saveServer(StoredServer server) {
    Objects.requireNonNull(server, "server");
    write(
        "save server '" + server.name() + "'",
        () -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "INSERT INTO mcp_servers (name, config_json) VALUES (?, ?) "
                      + "ON CONFLICT (name) DO UPDATE SET config_json = excluded.config_json")) {
            ps.setString(1, server.name());
            ps.setString(2, server.configJson());
            ps.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public List<String> loadDisabledServers() {
    List<String> names =
        locked(
            "load the disabled servers",
            () -> {
              List<String> out = new ArrayList<>();
              try (PreparedStatement ps = conn.prepareStatement("SELECT name FROM mcp_servers_disabled");
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
    return write(
        (disabled ? "disable" : "enable") + " server '" + name + "'",
        () -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  disabled
                      ? "INSERT INTO mcp_servers_disabled (name, disabled_at_millis) VALUES (?, ?) "
                          + "ON CONFLICT (name) DO NOTHING"
                      : "DELETE FROM mcp_servers_disabled WHERE name = ?")) {
            ps.setString(1, name);
            if (disabled) {
              ps.setLong(2, System.currentTimeMillis());
            }
            return ps.executeUpdate() > 0;
          }
        });
  }

  @Override
  public boolean deleteServer(String name) {
    Objects.requireNonNull(name, "name");
    return write(
        "delete server '" + name + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement("DELETE FROM mcp_servers WHERE name = ?")) {
            ps.setString(1, name);
            return ps.executeUpdate() > 0;
          }
        });
  }

  /**
   * Imported APIs' configurations live in {@code meta}, one row per source under this key prefix: a key-value
   * row is all they need, and it takes no schema migration (so none to order against the others).
   */
  private static final String OPENAPI_SOURCE_KEY = "openapi_source:";

  @Override
  public Optional<String> loadOpenApiSource(String name) {
    Objects.requireNonNull(name, "name");
    return Optional.ofNullable(
        locked(
            "load OpenAPI source '" + name + "'",
            () -> {
              try (PreparedStatement ps = conn.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
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
    write(
        "save OpenAPI source '" + name + "'",
        () -> {
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "INSERT INTO meta (key, value) VALUES (?, ?) "
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
    return write(
        "delete OpenAPI source '" + name + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement("DELETE FROM meta WHERE key = ?")) {
            ps.setString(1, OPENAPI_SOURCE_KEY + name);
            return ps.executeUpdate() > 0;
          }
        });
  }

  private static final String APPROVAL_COLUMNS =
      "id, requester, tool, arguments_json, arguments_hash, created_at_millis, status, decided_by, decided_at_millis, "
          + "channel, scope";

  @Override
  public void saveApproval(StoredApproval a) {
    Objects.requireNonNull(a, "approval");
    boolean inserted = write(
        "save approval request '" + a.id() + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement(
              "INSERT INTO approvals (" + APPROVAL_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                  + "ON CONFLICT (id) DO NOTHING")) {
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
            return ps.executeUpdate() > 0;
          }
        });
    if (!inserted) {
      throw new IllegalArgumentException("an approval request with id '" + a.id() + "' is already stored");
    }
  }

  @Override
  public Optional<StoredApproval> loadApproval(String id) {
    Objects.requireNonNull(id, "id");
    List<StoredApproval> found = locked(
        "load approval request '" + id + "'",
        () -> {
          try (PreparedStatement ps =
              conn.prepareStatement("SELECT " + APPROVAL_COLUMNS + " FROM approvals WHERE id = ?")) {
            ps.setString(1, id);
            return approvals(ps);
          }
        });
    return found.stream().findFirst();
  }

  @Override
  public List<StoredApproval> loadApprovals() {
    List<StoredApproval> all = locked(
        "load the approval requests",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement(
              "SELECT " + APPROVAL_COLUMNS + " FROM approvals ORDER BY created_at_millis, id")) {
            return approvals(ps);
          }
        });
    // id order as Java compares strings, whatever collation the database sorted by
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
    return write(
        "move approval request '" + id + "' from " + from.id() + " to " + to.id(),
        () -> {
          // the WHERE on the old status is the compare-and-set: of two racing moves, one updates no row
          try (PreparedStatement ps = conn.prepareStatement(keep
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
            return ps.executeUpdate() > 0;
          }
        });
  }

  @Override
  public List<StoredSkill> loadSkills() {
    List<StoredSkill> skills = locked(
        "load the skills",
        () -> {
          List<StoredSkill> out = new ArrayList<>();
          try (PreparedStatement ps = conn.prepareStatement("SELECT name, skill_json FROM skills ORDER BY name");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              String name = rs.getString(1);
              try {
                out.add(new StoredSkill(name, rs.getString(2)));
              } catch (IllegalArgumentException e) {
                // only a row edited by hand gets here: the columns are NOT NULL and saveSkill validates
                throw new IllegalStateException(
                    "state store " + file + ": the stored row of skill '" + name + "' is invalid: " + e.getMessage(),
                    e);
              }
            }
          }
          return out;
        });
    // name order as Java compares strings, whatever collation the database sorted by
    skills.sort(Comparator.comparing(StoredSkill::name));
    return List.copyOf(skills);
  }

  @Override
  public void saveSkill(StoredSkill skill) {
    Objects.requireNonNull(skill, "skill");
    write(
        "save skill '" + skill.name() + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement(
              "INSERT INTO skills (name, skill_json) VALUES (?, ?) "
                  + "ON CONFLICT (name) DO UPDATE SET skill_json = excluded.skill_json")) {
            ps.setString(1, skill.name());
            ps.setString(2, skill.json());
            ps.executeUpdate();
          }
          return null;
        });
  }

  @Override
  public boolean deleteSkill(String name) {
    Objects.requireNonNull(name, "name");
    return write(
        "delete skill '" + name + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement("DELETE FROM skills WHERE name = ?")) {
            ps.setString(1, name);
            return ps.executeUpdate() > 0;
          }
        });
  }

  @Override
  public Optional<StoredConversation> loadConversation(String principal, String id) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(id, "id");
    return Optional.ofNullable(read(
        "load conversation '" + id + "'",
        () -> {
          long created;
          long lastUsed;
          try (PreparedStatement ps = conn.prepareStatement(
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
          return new StoredConversation(principal, id, conversationList("conversation_skills", "skill", principal, id),
              conversationList("conversation_tools", "tool", principal, id), Instant.ofEpochMilli(created),
              Instant.ofEpochMilli(lastUsed));
        }));
  }

  private List<String> conversationList(String table, String column, String principal, String id)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = conn.prepareStatement("SELECT " + column + " FROM " + table
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
  public void saveConversation(StoredConversation c) {
    Objects.requireNonNull(c, "conversation");
    write(
        "save conversation '" + c.id() + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement(
              "INSERT INTO conversations (principal, id, created_at_millis, last_used_at_millis) VALUES (?, ?, ?, ?) "
                  + "ON CONFLICT (principal, id) DO UPDATE SET created_at_millis = excluded.created_at_millis, "
                  + "last_used_at_millis = excluded.last_used_at_millis")) {
            ps.setString(1, c.principal());
            ps.setString(2, c.id());
            ps.setLong(3, c.createdAt().toEpochMilli());
            ps.setLong(4, c.lastUsedAt().toEpochMilli());
            ps.executeUpdate();
          }
          replaceConversationList("conversation_skills", "skill", c, c.activeSkills());
          replaceConversationList("conversation_tools", "tool", c, c.disclosedTools());
          return null;
        });
  }

  private void replaceConversationList(String table, String column, StoredConversation c, List<String> values)
      throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement("DELETE FROM " + table + " WHERE principal = ? AND conversation_id = ?")) {
      ps.setString(1, c.principal());
      ps.setString(2, c.id());
      ps.executeUpdate();
    }
    if (values.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = conn.prepareStatement("INSERT INTO " + table
        + " (principal, conversation_id, position, " + column + ") VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < values.size(); i++) {
        ps.setString(1, c.principal());
        ps.setString(2, c.id());
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
    return write(
        "delete conversation '" + id + "'",
        () -> {
          // the skill and tool rows go with it (ON DELETE CASCADE)
          try (PreparedStatement ps =
              conn.prepareStatement("DELETE FROM conversations WHERE principal = ? AND id = ?")) {
            ps.setString(1, principal);
            ps.setString(2, id);
            return ps.executeUpdate() > 0;
          }
        });
  }

  @Override
  public int deleteConversationsUsedBefore(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    return write(
        "delete the conversations idle since " + cutoff,
        () -> {
          try (PreparedStatement ps =
              conn.prepareStatement("DELETE FROM conversations WHERE last_used_at_millis < ?")) {
            ps.setLong(1, cutoff.toEpochMilli());
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public List<String> conversationIds(String principal) {
    Objects.requireNonNull(principal, "principal");
    record Row(String id, long lastUsed) {}
    List<Row> rows = locked(
        "list the conversations of a principal",
        () -> {
          List<Row> out = new ArrayList<>();
          try (PreparedStatement ps = conn.prepareStatement(
              "SELECT id, last_used_at_millis FROM conversations WHERE principal = ?")) {
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
    return locked(
        "count the conversations",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement("SELECT COUNT(*) FROM conversations");
              ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
          }
        });
  }

  private static final String RUN_COLUMNS =
      "id, principal, conversation_id, status, approval_id, state_json, created_at_millis, updated_at_millis";

  @Override
  public void saveRun(StoredRun r) {
    Objects.requireNonNull(r, "run");
    write(
        "save agent run '" + r.id() + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement(
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
    return locked("load agent run '" + id + "'", () -> {
      try (PreparedStatement ps = conn.prepareStatement("SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE id = ?")) {
        ps.setString(1, id);
        return runs(ps);
      }
    }).stream().findFirst();
  }

  @Override
  public List<StoredRun> loadRunsByStatus(String status) {
    Objects.requireNonNull(status, "status");
    return sortedRuns(locked("load the agent runs that are " + status, () -> {
      try (PreparedStatement ps =
          conn.prepareStatement("SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE status = ?")) {
        ps.setString(1, status);
        return runs(ps);
      }
    }));
  }

  @Override
  public List<StoredRun> loadRuns(String principal, String conversationId) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(conversationId, "conversationId");
    return sortedRuns(locked("load the agent runs of conversation '" + conversationId + "'", () -> {
      try (PreparedStatement ps = conn.prepareStatement(
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

  private List<StoredRun> runs(PreparedStatement ps) throws SQLException {
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
    return write("delete agent run '" + id + "'", () -> {
      try (PreparedStatement ps = conn.prepareStatement("DELETE FROM agent_runs WHERE id = ?")) {
        ps.setString(1, id);
        return ps.executeUpdate() > 0;
      }
    });
  }

  @Override
  public void saveUsage(StoredUsage u) {
    Objects.requireNonNull(u, "usage");
    write("save usage record '" + u.id() + "'", () -> {
      try (PreparedStatement ps = conn.prepareStatement(
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
    List<StoredUsage> out = locked("load the usage records since " + since, () -> {
      List<StoredUsage> rows = new ArrayList<>();
      try (PreparedStatement ps = conn.prepareStatement(
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
  public List<StoredMemory> loadMemories() {
    List<StoredMemory> memories = locked(
        "load the memories",
        () -> {
          List<StoredMemory> out = new ArrayList<>();
          try (PreparedStatement ps = conn.prepareStatement(
                  "SELECT id, scope, owner, memory_json, model_id, vector FROM memories ORDER BY id");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              String id = rs.getString(1);
              String model = rs.getString(5);
              byte[] bytes = rs.getBytes(6);
              try {
                out.add(new StoredMemory(id, rs.getString(2), rs.getString(3), rs.getString(4), model,
                    model == null || bytes == null ? null : VectorCodec.decode(bytes, bytes.length / Float.BYTES)));
              } catch (IllegalArgumentException e) {
                throw new IllegalStateException(
                    "state store " + file + ": the stored row of memory '" + id + "' is invalid: " + e.getMessage(),
                    e);
              }
            }
          }
          return out;
        });
    memories.sort(Comparator.comparing(StoredMemory::id));
    return List.copyOf(memories);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Saving a memory again (a correction) overwrites the old row in the database pages ({@code secure_delete})
   * and then checkpoints and truncates the write-ahead log, as {@link #deleteMemory} does: the log still held the
   * old text's page images until its next checkpoint.
   */
  @Override
  public void saveMemory(StoredMemory memory) {
    Objects.requireNonNull(memory, "memory");
    boolean replaced = write(
        "save memory '" + memory.id() + "'",
        () -> {
          boolean existed;
          try (PreparedStatement ps = conn.prepareStatement("SELECT 1 FROM memories WHERE id = ?")) {
            ps.setString(1, memory.id());
            try (ResultSet rs = ps.executeQuery()) {
              existed = rs.next();
            }
          }
          try (PreparedStatement ps = conn.prepareStatement(
              "INSERT INTO memories (id, scope, owner, memory_json, model_id, vector) VALUES (?, ?, ?, ?, ?, ?) "
                  + "ON CONFLICT (id) DO UPDATE SET scope = excluded.scope, owner = excluded.owner, "
                  + "memory_json = excluded.memory_json, model_id = excluded.model_id, vector = excluded.vector")) {
            ps.setString(1, memory.id());
            ps.setString(2, memory.scope());
            ps.setString(3, memory.owner());
            ps.setString(4, memory.json());
            ps.setString(5, memory.modelId());
            ps.setBytes(6, memory.vector() == null ? null : VectorCodec.encode(memory.vector()));
            ps.executeUpdate();
          }
          return existed;
        });
    if (replaced) {
      checkpointAfter("correcting memory '" + memory.id() + "'");
    }
  }

  /** Checkpoints and truncates the write-ahead log, which holds the page images of a memory's old text. */
  private void checkpointAfter(String what) {
    locked("checkpoint the log after " + what, () -> {
      try (Statement st = conn.createStatement()) {
        st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      }
      return null;
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>The connection runs with {@code secure_delete} on, so SQLite overwrites the deleted row's bytes (and a
   * corrected memory's old text) with zeros in the database pages; then the write-ahead log, which still holds
   * the old page images, is checkpointed and truncated. A reader holding an old snapshot (another process) can
   * keep the log from being truncated until it finishes; the next delete or the close truncates it then.
   */
  @Override
  public boolean deleteMemory(String id) {
    Objects.requireNonNull(id, "id");
    boolean deleted = write(
        "delete memory '" + id + "'",
        () -> {
          try (PreparedStatement ps = conn.prepareStatement("DELETE FROM memories WHERE id = ?")) {
            ps.setString(1, id);
            return ps.executeUpdate() > 0;
          }
        });
    if (deleted) {
      checkpointAfter("deleting memory '" + id + "'");
    }
    return deleted;
  }
  @Override
  public void saveLearned(List<StoredLearned> pairs) {
    Objects.requireNonNull(pairs, "pairs");
    if (pairs.isEmpty()) {
      return;
    }
    write("save " + pairs.size() + " learned pairs", () -> {
      try (PreparedStatement ps = conn.prepareStatement(
          "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
        for (StoredLearned p : pairs) {
          ps.setString(1, LearnedRows.key(p));
          ps.setString(2, LearnedRows.value(p));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      return null;
    });
  }

  @Override
  public List<StoredLearned> loadLearned() {
    List<StoredLearned> out = locked("load the learned pairs", () -> {
      List<StoredLearned> rows = new ArrayList<>();
      try (PreparedStatement ps = conn.prepareStatement("SELECT key, value FROM meta WHERE key >= ? AND key < ?")) {
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
        () -> {
          int n = 0;
          try (PreparedStatement ps = conn.prepareStatement("DELETE FROM meta WHERE key >= ? AND key < ?")) {
            if (tools == null) {
              ps.setString(1, LearnedRows.PREFIX);
              ps.setString(2, LearnedRows.END);
              return ps.executeUpdate();
            }
            for (String t : tools) {
              ps.setString(1, LearnedRows.from(t));
              ps.setString(2, LearnedRows.to(t));
              n += ps.executeUpdate();
            }
          }
          return n;
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
          // only a row edited by hand (or a newer ToolScout's status) gets here
          throw new IllegalStateException(
              "state store " + file + ": the stored approval request '" + id + "' is invalid: " + e.getMessage(), e);
        }
      }
    }
    return out;
  }

  /** Closes the connection; SQLite checkpoints the WAL into the main file. Idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      conn.close();
    } catch (SQLException e) {
      throw new StoreException(file, "close the database", e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "SqliteStateStore[" + file + "]";
  }

  // --- internals ---

  private static void configure(Connection c, Path path) throws SQLException {
    try (Statement st = c.createStatement()) {
      // First, so that the statements below already wait for another process's lock.
      st.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS);
      String mode;
      try (ResultSet rs = st.executeQuery("PRAGMA journal_mode = WAL")) {
        mode = rs.next() ? rs.getString(1) : "?";
      }
      if (!"wal".equalsIgnoreCase(mode)) {
        // Some file systems (network shares) cannot do WAL; synchronous=FULL keeps changes durable anyway.
        LOG.warn(
            "state store {}: journal_mode stays '{}' (WAL unavailable here); readers will wait for writers",
            path,
            mode);
      }
      st.execute("PRAGMA synchronous = FULL");
      st.execute("PRAGMA foreign_keys = ON");
      // a forgotten memory's text must not stay in free pages (docs/MEMORY.md); see deleteMemory
      st.execute("PRAGMA secure_delete = ON");
    }
  }

  private static void migrate(Connection c, Path path) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(Migrations.SCHEMA_VERSION_TABLE);
    }
    int latest = Migrations.latestVersion();
    boolean more = true;
    while (more) {
      // Each step re-reads the version inside its write transaction: another process may be migrating too.
      more =
          inTransaction(
              c,
              "BEGIN IMMEDIATE",
              () -> {
                int found = schemaVersion(c);
                if (found > latest) {
                  throw new IllegalStateException(
                      "state store " + path + " has schema version " + found
                          + ", newer than this ToolScout supports (up to " + latest
                          + "); run a newer ToolScout or point it at another data directory");
                }
                if (found == latest) {
                  return false;
                }
                int next = found + 1;
                try (Statement st = c.createStatement()) {
                  for (String sql : Migrations.statements(next, Migrations.Dialect.SQLITE)) {
                    st.execute(sql);
                  }
                }
                try (PreparedStatement ps =
                    c.prepareStatement(
                        "INSERT INTO schema_version (version, applied_at_millis) VALUES (?, ?)")) {
                  ps.setInt(1, next);
                  ps.setLong(2, System.currentTimeMillis());
                  ps.executeUpdate();
                }
                LOG.info("state store {}: migrated schema to version {}", path, next);
                return true;
              });
    }
  }

  /** A read-only store must be at exactly this code's schema version: it can neither migrate nor guess. */
  private static void checkSchema(Connection c, Path path) throws SQLException {
    int found;
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")) {
      found = rs.next() && rs.getInt(1) > 0 ? schemaVersion(c) : 0;
    }
    int latest = Migrations.latestVersion();
    if (found > latest) {
      throw new IllegalStateException("state store " + path + " has schema version " + found
          + ", newer than this ToolScout supports (up to " + latest + "); read it with the newer ToolScout that "
          + "wrote it");
    }
    if (found < latest) {
      throw new IllegalStateException("state store " + path + " has schema version " + found
          + ", older than this ToolScout's " + latest + ", and a read-only opening does not migrate it; open the "
          + "data directory once for writing (when no other process holds it), or read it with the ToolScout "
          + "that wrote it");
    }
  }

  private static int schemaVersion(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
      return rs.next() ? rs.getInt(1) : 0; // MAX of no rows is NULL, which getInt reads as 0
    }
  }

  private long readCatalogVersion() throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
      ps.setString(1, CATALOG_VERSION_KEY);
      try (ResultSet rs = ps.executeQuery()) {
        String v = rs.next() ? rs.getString(1) : null;
        try {
          return Long.parseLong(v);
        } catch (NumberFormatException e) { // also thrown for a missing row (null)
          throw new IllegalStateException(
              "state store " + file + ": meta." + CATALOG_VERSION_KEY + " must be a number, got: " + v, e);
        }
      }
    }
  }

  private static String selectVectorsSql(int n) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT text_hash, dimension, vector FROM vectors WHERE model_id = ? AND text_hash IN (");
    for (int i = 0; i < n; i++) {
      sql.append(i == 0 ? "?" : ", ?");
    }
    return sql.append(')').toString();
  }

  private void readVectors(PreparedStatement ps, String modelId, List<String> chunk, Map<String, float[]> out)
      throws SQLException {
    ps.setString(1, modelId);
    for (int i = 0; i < chunk.size(); i++) {
      ps.setString(i + 2, chunk.get(i));
    }
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String hash = rs.getString(1);
        int dimension = rs.getInt(2);
        byte[] bytes = rs.getBytes(3);
        try {
          out.put(hash, VectorCodec.decode(bytes == null ? new byte[0] : bytes, dimension));
        } catch (IllegalArgumentException e) {
          throw new IllegalStateException(
              "state store " + file + ": stored vector of model '" + modelId + "' for text hash '" + hash
                  + "' is corrupt: " + e.getMessage(),
              e);
        }
      }
    }
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
    // a row written by an older hashing recipe (or by hand) is hashed afresh rather than trusted blindly
    return new Parsed(spec, contentHash == null || contentHash.isEmpty() ? spec.contentHash() : contentHash, null);
  }

  private StoredServer storedServer(String name, String json) {
    try {
      return new StoredServer(name, json);
    } catch (IllegalArgumentException e) {
      // Only a row edited by hand can get here: the columns are NOT NULL and saveServer validates.
      throw new IllegalStateException(
          "state store " + file + ": the stored row of server '" + name + "' is invalid: " + e.getMessage(), e);
    }
  }

  private IllegalStateException corruptTool(String name, String problem, Exception cause) {
    return new IllegalStateException(
        "state store " + file + ": the stored spec_json of tool '" + name + "' " + problem
            + " (restore the store from a backup, or remove the tool and register it again)",
        cause);
  }

  private static void requireModelId(String modelId) {
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank, got: '" + modelId + "'");
    }
  }

  /** Runs {@code work} in one read transaction: its queries all see the same snapshot. */
  private <T> T read(String operation, SqlWork<T> work) {
    return locked(operation, () -> inTransaction(conn, "BEGIN", work));
  }

  private <T> T write(String operation, SqlWork<T> work) {
    if (readOnly) {
      throw new IllegalStateException("state store " + file + " is open read-only; cannot " + operation);
    }
    return locked(operation, () -> inTransaction(conn, "BEGIN IMMEDIATE", work));
  }

  private <T> T locked(String operation, SqlWork<T> work) {
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("state store " + file + " is closed; cannot " + operation);
      }
      return work.run();
    } catch (SQLException e) {
      throw new StoreException(file, operation, e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs {@code work} between {@code begin} and COMMIT, rolling back on any failure. The connection stays in
   * JDBC auto-commit mode and transactions are explicit SQL: the driver's own auto-commit-off mode keeps a
   * transaction open between calls, which would pin an old WAL snapshot and stop checkpoints.
   * {@code BEGIN IMMEDIATE} takes the write lock up front, so a writer never fails half-way upgrading a read
   * lock that another process also holds.
   */
  private static <T> T inTransaction(Connection c, String begin, SqlWork<T> work) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(begin);
    }
    try {
      T result = work.run();
      try (Statement st = c.createStatement()) {
        st.execute("COMMIT");
      }
      return result;
    } catch (Throwable t) {
      try (Statement st = c.createStatement()) {
        st.execute("ROLLBACK");
      } catch (SQLException rollbackFailure) {
        t.addSuppressed(rollbackFailure);
      }
      throw t;
    }
  }

  private static void closeQuietly(Connection c, Path path) {
    try {
      c.close();
    } catch (SQLException e) {
      LOG.warn("state store {}: closing after a failed open also failed", path, e);
    }
  }

  @FunctionalInterface
  private interface SqlWork<T> {
    T run() throws SQLException;
  }

  private record CatalogRows(long version, List<SpecRow> specs) {}

  private record SpecRow(String name, String json, String contentHash) {}

  /** A parsed row: the spec, or the error that names the tool. */
  private record Parsed(ToolSpec spec, String contentHash, IllegalStateException error) {}

  private record ToolRow(String name, String json, String contentHash) {}

  private record VectorRow(String hash, int dimension, byte[] bytes) {}
}
