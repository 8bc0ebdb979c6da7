package dev.toolscout.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.store.PostgresStateStore.Area;
import java.sql.SQLException;
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
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.TemplateEngine;
import org.jdbi.v3.core.statement.Update;

/**
 * The state store's SQL, written once for SQLite and PostgreSQL (through JDBI's {@link Handle}). What really
 * differs between the two databases is what a subclass gives: how a transaction is run (one locked SQLite
 * connection, or a PostgreSQL pool at an isolation level), how a list of keys is bound ({@code IN (?, ...)} or
 * {@code = ANY (?)}), row locks ({@code FOR UPDATE}), the text collation of a key range, the pruning of token counts,
 * and the hooks PostgreSQL's replicas need (the change log with {@code NOTIFY}, removal tombstones) or SQLite's
 * forgetting needs (a log checkpoint). The upsert ({@code ON CONFLICT ... DO UPDATE SET ... = excluded....}) is
 * the same in both; the binary column type differs only in {@link Migrations}.
 *
 * <p>Lists come back in the order Java compares strings, whatever collation the database sorted by; times are kept
 * to the millisecond. Thread-safe as its subclasses' transactions are.
 */
public abstract sealed class SqlStateStore implements dev.toolscout.catalog.StateStore
    permits SqliteStateStore, PostgresStateStore {
  /** Catalogs at least this large are parsed on several threads. */
  private static final int PARALLEL_PARSE_MIN = 1_000;

  static final String CATALOG_VERSION_KEY = "catalog_version";
  private static final int POLICY_ID = 1;

  /**
   * Imported APIs' configurations live in {@code meta}, one row per source under this key prefix: a key-value
   * row is all they need, and it takes no schema migration. No change-log row: the executor reads a source at each
   * call.
   */
  private static final String OPENAPI_SOURCE_KEY = "openapi_source:";

  private static final String APPROVAL_COLUMNS =
      "id, requester, tool, arguments_json, arguments_hash, created_at_millis, status, decided_by, decided_at_millis, "
          + "channel, scope";

  private static final String RUN_COLUMNS =
      "id, principal, conversation_id, status, approval_id, state_json, created_at_millis, updated_at_millis";

  /**
   * JDBI over {@code connections}, with SQL taken as written: no template engine (a {@code <} in SQL is a
   * comparison, not an attribute), positional {@code ?} parameters.
   */
  static Jdbi jdbi(ConnectionFactory connections) {
    Jdbi jdbi = Jdbi.create(connections);
    jdbi.setTemplateEngine(TemplateEngine.NOP);
    return jdbi;
  }

  // --- the dialect: what differs between the databases ---

  /** The store named in messages: its file, or its address without a password. */
  abstract String where();

  /** Runs one statement's worth of reading (no snapshot needed across statements). */
  abstract <T> T query(String operation, Work<T> work);

  /** Runs {@code work} in one read transaction: its queries all see the same snapshot. */
  abstract <T> T snapshot(String operation, Work<T> work);

  /** Runs {@code work} in one write transaction, durable when this returns. */
  abstract <T> T write(String operation, Work<T> work);

  /** What follows a {@code SELECT} whose rows the transaction is about to update. */
  abstract String forUpdate();

  /** The {@code meta.key} column as compared in a key range (byte order). */
  abstract String metaKey();

  /** The wording of an invalid stored row: {@code "row of "} or nothing. */
  abstract String rowOf();

  /**
   * Runs {@code sql}, whose {@code ${IN}} stands for a match against {@code values}, with {@code first} bound before
   * them, giving each row to {@code sink}; in as many statements as the database's parameter limits need.
   */
  abstract <R> void whereIn(Handle h, String sql, String first, List<String> values, RowMapper<R> mapper,
      Consumer<R> sink) throws SQLException;

  /** How many keys {@link #whereIn} takes at once; above it, a lookup reads every row of its key instead. */
  abstract int inBatch();

  /** Deletes the token counts of content hashes no tool has, except {@code saved}. */
  abstract void pruneTokenCounts(Handle h, Collection<String> saved) throws SQLException;

  /** A write changed {@code area}, in the writer's transaction (a change log, for replicas). */
  void changed(Handle h, Area area) throws SQLException {}

  /** Tools were removed at catalog version {@code version}, in the writer's transaction. */
  void removedTools(Handle h, List<String> names, long version) throws SQLException {}

  /** A memory's old text was overwritten or deleted and is committed: clear what still holds it. */
  void forgotten(String what) {}

  // --- the catalog ---

  @Override
  public StoredCatalog loadCatalog() {
    // Version and rows come from one read transaction, so they describe the same snapshot.
    record Rows(long version, List<SpecRow> specs) {}
    Rows rows = snapshot("load the catalog", h -> new Rows(catalogVersion(h, false),
        h.createQuery("SELECT name, spec_json, content_hash FROM tools ORDER BY name").setFetchSize(2_000)
            .map(SPEC_ROW).list()));
    List<Parsed> parsed = parse(rows.specs());
    return new StoredCatalog(rows.version(), parsed.stream().map(Parsed::spec).toList(),
        parsed.stream().map(Parsed::contentHash).toList());
  }

  @Override
  public long catalogVersion() {
    return query("read the catalog version", h -> catalogVersion(h, false));
  }

  @Override
  public long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals) {
    Objects.requireNonNull(upserts, "upserts");
    Objects.requireNonNull(removals, "removals");
    Set<String> removed = new LinkedHashSet<>();
    for (String name : removals) {
      removed.add(Objects.requireNonNull(name, "removals must not hold null names"));
    }
    // Serialized before the transaction; a rejected change writes nothing.
    List<SpecRow> rows = new ArrayList<>(upserts.size());
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
      rows.add(new SpecRow(name, ToolSpecJson.toJson(spec).toString(), spec.contentHash()));
    }
    // rows locked in one order by every writer: two changes to the same tools never deadlock
    rows.sort(Comparator.comparing(SpecRow::name));
    List<String> sortedRemovals = removed.stream().sorted().toList();
    return write("apply a catalog change", h -> {
      // the row lock on the version (where there are row locks) serializes catalog changes: each gets its own
      long next = catalogVersion(h, true) + 1;
      if (!rows.isEmpty()) {
        PreparedBatch batch = h.prepareBatch("INSERT INTO tools (name, spec_json, content_hash, updated_version) "
            + "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET spec_json = excluded.spec_json, "
            + "content_hash = excluded.content_hash, updated_version = excluded.updated_version");
        for (SpecRow r : rows) {
          batch.bind(0, r.name()).bind(1, r.json()).bind(2, r.contentHash()).bind(3, next).add();
        }
        batch.execute();
      }
      if (!sortedRemovals.isEmpty()) {
        PreparedBatch batch = h.prepareBatch("DELETE FROM tools WHERE name = ?");
        sortedRemovals.forEach(name -> batch.bind(0, name).add());
        batch.execute();
        removedTools(h, sortedRemovals, next);
      }
      setMeta(h, CATALOG_VERSION_KEY, Long.toString(next));
      changed(h, Area.CATALOG);
      return next;
    });
  }

  /** The names of the tools written after {@code version}, read from their column (not the whole catalog). */
  @Override
  public Set<String> toolsChangedSince(long version) {
    return snapshot("read the tools changed since catalog version " + version,
        h -> new HashSet<>(h.createQuery("SELECT name FROM tools WHERE updated_version > ?").bind(0, version)
            .mapTo(String.class).list()));
  }

  /** The tools upserted after {@code version}, as stored now, parsed and in name order. */
  List<Parsed> toolsSince(Handle h, long version) {
    return parse(h.createQuery("SELECT name, spec_json, content_hash FROM tools WHERE updated_version > ?")
        .bind(0, version).map(SPEC_ROW).list());
  }

  long catalogVersion(Handle h, boolean forUpdate) {
    String v = meta(h, CATALOG_VERSION_KEY, forUpdate);
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) { // also thrown for a missing row (null)
      throw new IllegalStateException(
          "state store " + where() + ": meta." + CATALOG_VERSION_KEY + " must be a number, got: " + v, e);
    }
  }

  String meta(Handle h, String key, boolean forUpdate) {
    return h.createQuery("SELECT value FROM meta WHERE key = ?" + (forUpdate ? forUpdate() : "")).bind(0, key)
        .mapTo(String.class).findOne().orElse(null);
  }

  static void setMeta(Handle h, String key, String value) {
    h.createUpdate("UPDATE meta SET value = ? WHERE key = ?").bind(0, value).bind(1, key).execute();
  }

  // --- vectors and token counts ---

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
    return snapshot("load vectors of model '" + modelId + "'", h -> readVectors(h, modelId, hashes));
  }

  Map<String, float[]> readVectors(Handle h, String modelId, List<String> hashes) throws SQLException {
    Map<String, float[]> out = HashMap.newHashMap(hashes.size());
    record Row(String hash, int dimension, byte[] bytes) {}
    whereIn(h, "SELECT text_hash, dimension, vector FROM vectors WHERE model_id = ? AND text_hash ${IN}", modelId,
        hashes, (rs, ctx) -> new Row(rs.getString(1), rs.getInt(2), rs.getBytes(3)), r -> {
          try {
            out.put(r.hash(), VectorCodec.decode(r.bytes() == null ? new byte[0] : r.bytes(), r.dimension()));
          } catch (IllegalArgumentException e) {
            throw new IllegalStateException("state store " + where() + ": stored vector of model '" + modelId
                + "' for text hash '" + r.hash() + "' is corrupt: " + e.getMessage(), e);
          }
        });
    return out;
  }

  @Override
  public void saveVectors(String modelId, Map<String, float[]> byTextHash) {
    requireModelId(modelId);
    Objects.requireNonNull(byTextHash, "byTextHash");
    List<VectorRow> rows = vectorRows(byTextHash);
    if (rows.isEmpty()) {
      return;
    }
    write("save vectors of model '" + modelId + "'", h -> {
      insertVectors(h, modelId, rows);
      return null;
    });
  }

  static List<VectorRow> vectorRows(Map<String, float[]> byTextHash) {
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

  static void insertVectors(Handle h, String modelId, List<VectorRow> rows) {
    PreparedBatch batch = h.prepareBatch("INSERT INTO vectors (text_hash, model_id, dimension, vector) "
        + "VALUES (?, ?, ?, ?) ON CONFLICT (text_hash, model_id) DO UPDATE SET dimension = excluded.dimension, "
        + "vector = excluded.vector");
    for (VectorRow r : rows) {
      batch.bind(0, r.hash()).bind(1, modelId).bind(2, r.dimension()).bind(3, r.bytes()).add();
    }
    batch.execute();
  }

  @Override
  public Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes) {
    TokenCountRows.requireCounter(counter);
    List<String> hashes = TokenCountRows.distinctHashes(contentHashes);
    if (hashes.isEmpty()) {
      return new HashMap<>();
    }
    return snapshot("load token counts of counter '" + counter + "'", h -> {
      Map<String, Integer> out = HashMap.newHashMap(hashes.size());
      RowMapper<Map.Entry<String, Integer>> row = (rs, ctx) -> Map.entry(rs.getString(1), rs.getInt(2));
      if (hashes.size() > inBatch()) {
        // many (a whole catalog at open): one pass over the counter's rows, which saving keeps to about one a
        // tool, beats a statement per chunk
        Set<String> wanted = new HashSet<>(hashes);
        h.createQuery("SELECT content_hash, tokens FROM definition_tokens WHERE counter = ?").bind(0, counter)
            .map(row).forEach(e -> {
              if (wanted.contains(e.getKey())) {
                out.put(e.getKey(), e.getValue());
              }
            });
        return out;
      }
      whereIn(h, "SELECT content_hash, tokens FROM definition_tokens WHERE counter = ? AND content_hash ${IN}",
          counter, hashes, row, e -> out.put(e.getKey(), e.getValue()));
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
    write("save token counts of counter '" + counter + "'", h -> {
      PreparedBatch batch = h.prepareBatch("INSERT INTO definition_tokens (content_hash, counter, tokens) "
          + "VALUES (?, ?, ?) ON CONFLICT (content_hash, counter) DO UPDATE SET tokens = excluded.tokens");
      rows.forEach((hash, n) -> batch.bind(0, hash).bind(1, counter).bind(2, n.intValue()).add());
      batch.execute();
      // the rows just saved are kept even when no tool has their hash (the engine's own tools)
      pruneTokenCounts(h, rows.keySet());
      return null;
    });
  }

  // --- the policy, servers, OpenAPI sources ---

  @Override
  public Optional<String> loadPolicyJson() {
    return query("load the access policy", h -> h.createQuery("SELECT policy_json FROM policy WHERE id = ?")
        .bind(0, POLICY_ID).mapTo(String.class).findOne());
  }

  @Override
  public void savePolicyJson(String json) {
    Objects.requireNonNull(json, "policy json");
    write("save the access policy", h -> {
      h.createUpdate("INSERT INTO policy (id, policy_json) VALUES (?, ?) "
          + "ON CONFLICT (id) DO UPDATE SET policy_json = excluded.policy_json").bind(0, POLICY_ID).bind(1, json)
          .execute();
      changed(h, Area.POLICY);
      return null;
    });
  }

  @Override
  public List<StoredServer> loadServers() {
    List<String[]> rows = query("load the registered servers", h -> h.createQuery(
        "SELECT name, config_json FROM mcp_servers ORDER BY name").map(PAIR).list());
    List<StoredServer> servers = new ArrayList<>(rows.size());
    for (String[] r : rows) {
      try {
        servers.add(new StoredServer(r[0], r[1]));
      } catch (IllegalArgumentException e) {
        // Only a row edited by hand can get here: the columns are NOT NULL and saveServer validates.
        throw invalidRow(rowOf() + "server", r[0], e);
      }
    }
    servers.sort(Comparator.comparing(StoredServer::name));
    return List.copyOf(servers);
  }

  @Override
  public void saveServer(StoredServer server) {
    Objects.requireNonNull(server, "server");
    write("save server '" + server.name() + "'", h -> {
      h.createUpdate("INSERT INTO mcp_servers (name, config_json) VALUES (?, ?) "
          + "ON CONFLICT (name) DO UPDATE SET config_json = excluded.config_json").bind(0, server.name())
          .bind(1, server.configJson()).execute();
      changed(h, Area.SERVERS);
      return null;
    });
  }

  @Override
  public boolean deleteServer(String name) {
    Objects.requireNonNull(name, "name");
    return write("delete server '" + name + "'",
        h -> changedIf(h, update(h, "DELETE FROM mcp_servers WHERE name = ?", name), Area.SERVERS) > 0);
  }

  @Override
  public List<String> loadDisabledServers() {
    List<String> names = query("load the disabled servers",
        h -> h.createQuery("SELECT name FROM mcp_servers_disabled").mapTo(String.class).list());
    List<String> out = new ArrayList<>(names);
    out.sort(Comparator.naturalOrder());
    return List.copyOf(out);
  }

  @Override
  public boolean setServerDisabled(String name, boolean disabled) {
    Objects.requireNonNull(name, "name");
    return write((disabled ? "disable" : "enable") + " server '" + name + "'", h -> {
      Update u = disabled
          ? h.createUpdate("INSERT INTO mcp_servers_disabled (name, disabled_at_millis) VALUES (?, ?) "
              + "ON CONFLICT (name) DO NOTHING").bind(0, name).bind(1, System.currentTimeMillis())
          : h.createUpdate("DELETE FROM mcp_servers_disabled WHERE name = ?").bind(0, name);
      // the replicas connect or disconnect it too (ServerRegistry.reconcile)
      return changedIf(h, u.execute(), Area.SERVERS) > 0;
    });
  }

  @Override
  public Optional<String> loadOpenApiSource(String name) {
    Objects.requireNonNull(name, "name");
    return query("load OpenAPI source '" + name + "'", h -> Optional.ofNullable(meta(h, OPENAPI_SOURCE_KEY + name,
        false)));
  }

  @Override
  public void saveOpenApiSource(String name, String configJson) {
    if (name == null || name.isBlank() || configJson == null) {
      throw new IllegalArgumentException("an OpenAPI source needs a name and its JSON, got: '" + name + "'");
    }
    write("save OpenAPI source '" + name + "'", h -> {
      upsertMeta(h).bind(0, OPENAPI_SOURCE_KEY + name).bind(1, configJson).add().execute();
      return null;
    });
  }

  @Override
  public boolean deleteOpenApiSource(String name) {
    Objects.requireNonNull(name, "name");
    return write("delete OpenAPI source '" + name + "'",
        h -> update(h, "DELETE FROM meta WHERE key = ?", OPENAPI_SOURCE_KEY + name) > 0);
  }

  private static PreparedBatch upsertMeta(Handle h) {
    return h.prepareBatch(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  }

  // --- approvals ---

  @Override
  public void saveApproval(StoredApproval a) {
    Objects.requireNonNull(a, "approval");
    boolean inserted = write("save approval request '" + a.id() + "'", h -> changedIf(h, h.createUpdate(
        "INSERT INTO approvals (" + APPROVAL_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            + "ON CONFLICT (id) DO NOTHING")
        .bind(0, a.id()).bind(1, a.requester()).bind(2, a.tool()).bind(3, a.argumentsJson())
        .bind(4, a.argumentsHash()).bind(5, a.createdAt().toEpochMilli()).bind(6, a.status().name())
        .bind(7, a.decidedBy()).bind(8, millis(a.decidedAt())).bind(9, a.channel()).bind(10, a.scope())
        .execute(), Area.APPROVALS) > 0);
    if (!inserted) {
      throw new IllegalArgumentException("an approval request with id '" + a.id() + "' is already stored");
    }
  }

  @Override
  public Optional<StoredApproval> loadApproval(String id) {
    Objects.requireNonNull(id, "id");
    return approvals(query("load approval request '" + id + "'", h -> h.createQuery(
        "SELECT " + APPROVAL_COLUMNS + " FROM approvals WHERE id = ?").bind(0, id).map(APPROVAL_ROW).list()))
        .stream().findFirst();
  }

  @Override
  public List<StoredApproval> loadApprovals() {
    List<StoredApproval> all = approvals(query("load the approval requests", h -> h.createQuery(
        "SELECT " + APPROVAL_COLUMNS + " FROM approvals ORDER BY created_at_millis, id").map(APPROVAL_ROW).list()));
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
    return write("move approval request '" + id + "' from " + from.id() + " to " + to.id(), h -> {
      // the WHERE on the old status is the compare-and-set: of two racing moves, the second finds the row moved
      // once the first commits and updates nothing
      Update u = keep
          ? h.createUpdate("UPDATE approvals SET status = ? WHERE id = ? AND status = ?").bind(0, to.name())
              .bind(1, id).bind(2, from.name())
          : h.createUpdate("UPDATE approvals SET status = ?, decided_by = ?, decided_at_millis = ? WHERE id = ? "
              + "AND status = ?").bind(0, to.name()).bind(1, decidedBy).bind(2, millis(decidedAt)).bind(3, id)
              .bind(4, from.name());
      return changedIf(h, u.execute(), Area.APPROVALS) > 0;
    });
  }

  private List<StoredApproval> approvals(List<ApprovalRow> rows) {
    List<StoredApproval> out = new ArrayList<>(rows.size());
    for (ApprovalRow r : rows) {
      try {
        out.add(new StoredApproval(r.id(), r.requester(), r.tool(), r.argumentsJson(), r.argumentsHash(),
            Instant.ofEpochMilli(r.createdAt()), ApprovalStatus.valueOf(r.status()), r.decidedBy(),
            r.decidedAt() == null ? null : Instant.ofEpochMilli(r.decidedAt()), r.channel(), r.scope()));
      } catch (IllegalArgumentException | NullPointerException e) {
        // only a row edited by hand (or a newer ToolScout's status) gets here
        throw invalidRow("approval request", r.id(), e);
      }
    }
    return out;
  }

  // --- skills ---

  @Override
  public List<StoredSkill> loadSkills() {
    List<String[]> rows = query("load the skills",
        h -> h.createQuery("SELECT name, skill_json FROM skills ORDER BY name").map(PAIR).list());
    List<StoredSkill> skills = new ArrayList<>(rows.size());
    for (String[] r : rows) {
      try {
        skills.add(new StoredSkill(r[0], r[1]));
      } catch (IllegalArgumentException e) {
        // only a row edited by hand gets here: the columns are NOT NULL and saveSkill validates
        throw invalidRow(rowOf() + "skill", r[0], e);
      }
    }
    // name order as Java compares strings, whatever collation the database sorted by
    skills.sort(Comparator.comparing(StoredSkill::name));
    return List.copyOf(skills);
  }

  @Override
  public void saveSkill(StoredSkill skill) {
    Objects.requireNonNull(skill, "skill");
    write("save skill '" + skill.name() + "'", h -> {
      h.createUpdate("INSERT INTO skills (name, skill_json) VALUES (?, ?) "
          + "ON CONFLICT (name) DO UPDATE SET skill_json = excluded.skill_json").bind(0, skill.name())
          .bind(1, skill.json()).execute();
      changed(h, Area.SKILLS);
      return null;
    });
  }

  @Override
  public boolean deleteSkill(String name) {
    Objects.requireNonNull(name, "name");
    return write("delete skill '" + name + "'",
        h -> changedIf(h, update(h, "DELETE FROM skills WHERE name = ?", name), Area.SKILLS) > 0);
  }

  // --- conversations ---

  @Override
  public Optional<StoredConversation> loadConversation(String principal, String id) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(id, "id");
    return snapshot("load conversation '" + id + "'", h -> h.createQuery(
            "SELECT created_at_millis, last_used_at_millis FROM conversations WHERE principal = ? AND id = ?")
        .bind(0, principal).bind(1, id).map((rs, ctx) -> new long[] {rs.getLong(1), rs.getLong(2)}).findOne()
        .map(t -> new StoredConversation(principal, id, conversationList(h, "conversation_skills", "skill", principal,
            id), conversationList(h, "conversation_tools", "tool", principal, id), Instant.ofEpochMilli(t[0]),
            Instant.ofEpochMilli(t[1]))));
  }

  private static List<String> conversationList(Handle h, String table, String column, String principal, String id) {
    return h.createQuery("SELECT " + column + " FROM " + table
            + " WHERE principal = ? AND conversation_id = ? ORDER BY position")
        .bind(0, principal).bind(1, id).mapTo(String.class).list();
  }

  @Override
  public void saveConversation(StoredConversation c) {
    Objects.requireNonNull(c, "conversation");
    write("save conversation '" + c.id() + "'", h -> {
      h.createUpdate("INSERT INTO conversations (principal, id, created_at_millis, last_used_at_millis) "
              + "VALUES (?, ?, ?, ?) ON CONFLICT (principal, id) DO UPDATE SET created_at_millis = "
              + "excluded.created_at_millis, last_used_at_millis = excluded.last_used_at_millis")
          .bind(0, c.principal()).bind(1, c.id()).bind(2, c.createdAt().toEpochMilli())
          .bind(3, c.lastUsedAt().toEpochMilli()).execute();
      replaceConversationList(h, "conversation_skills", "skill", c, c.activeSkills());
      replaceConversationList(h, "conversation_tools", "tool", c, c.disclosedTools());
      changed(h, Area.CONVERSATIONS);
      return null;
    });
  }

  private static void replaceConversationList(Handle h, String table, String column, StoredConversation c,
      List<String> values) {
    h.createUpdate("DELETE FROM " + table + " WHERE principal = ? AND conversation_id = ?").bind(0, c.principal())
        .bind(1, c.id()).execute();
    if (values.isEmpty()) {
      return;
    }
    PreparedBatch batch = h.prepareBatch(
        "INSERT INTO " + table + " (principal, conversation_id, position, " + column + ") VALUES (?, ?, ?, ?)");
    for (int i = 0; i < values.size(); i++) {
      batch.bind(0, c.principal()).bind(1, c.id()).bind(2, i).bind(3, values.get(i)).add();
    }
    batch.execute();
  }

  @Override
  public boolean deleteConversation(String principal, String id) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(id, "id");
    // the skill and tool rows go with it (ON DELETE CASCADE)
    return write("delete conversation '" + id + "'", h -> changedIf(h, h.createUpdate(
        "DELETE FROM conversations WHERE principal = ? AND id = ?").bind(0, principal).bind(1, id).execute(),
        Area.CONVERSATIONS) > 0);
  }

  @Override
  public int deleteConversationsUsedBefore(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    return write("delete the conversations idle since " + cutoff, h -> changedIf(h, h.createUpdate(
        "DELETE FROM conversations WHERE last_used_at_millis < ?").bind(0, cutoff.toEpochMilli()).execute(),
        Area.CONVERSATIONS));
  }

  @Override
  public List<String> conversationIds(String principal) {
    Objects.requireNonNull(principal, "principal");
    record Row(String id, long lastUsed) {}
    List<Row> rows = new ArrayList<>(query("list the conversations of a principal", h -> h.createQuery(
        "SELECT id, last_used_at_millis FROM conversations WHERE principal = ?").bind(0, principal)
        .map((rs, ctx) -> new Row(rs.getString(1), rs.getLong(2))).list()));
    rows.sort(Comparator.comparingLong(Row::lastUsed).thenComparing(Row::id));
    return rows.stream().map(Row::id).toList();
  }

  @Override
  public int conversationCount() {
    return query("count the conversations",
        h -> h.createQuery("SELECT COUNT(*) FROM conversations").mapTo(Integer.class).findOne().orElse(0));
  }

  // --- the agent's runs and usage records: no change log entry (no replica caches them; each reads the store) ---

  @Override
  public void saveRun(StoredRun r) {
    Objects.requireNonNull(r, "run");
    write("save agent run '" + r.id() + "'", h -> h.createUpdate(
        "INSERT INTO agent_runs (" + RUN_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            + "ON CONFLICT (id) DO UPDATE SET status = excluded.status, approval_id = excluded.approval_id, "
            + "state_json = excluded.state_json, updated_at_millis = excluded.updated_at_millis")
        .bind(0, r.id()).bind(1, r.principal()).bind(2, r.conversationId()).bind(3, r.status())
        .bind(4, r.approvalId()).bind(5, r.stateJson()).bind(6, r.createdAt().toEpochMilli())
        .bind(7, r.updatedAt().toEpochMilli()).execute());
  }

  @Override
  public Optional<StoredRun> loadRun(String id) {
    Objects.requireNonNull(id, "id");
    return query("load agent run '" + id + "'", h -> h.createQuery(
        "SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE id = ?").bind(0, id).map(RUN_ROW).findOne());
  }

  @Override
  public List<StoredRun> loadRunsByStatus(String status) {
    Objects.requireNonNull(status, "status");
    return sortedRuns(query("load the agent runs that are " + status, h -> h.createQuery(
        "SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE status = ?").bind(0, status).map(RUN_ROW).list()));
  }

  @Override
  public List<StoredRun> loadRuns(String principal, String conversationId) {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(conversationId, "conversationId");
    return sortedRuns(query("load the agent runs of conversation '" + conversationId + "'", h -> h.createQuery(
        "SELECT " + RUN_COLUMNS + " FROM agent_runs WHERE principal = ? AND conversation_id = ?")
        .bind(0, principal).bind(1, conversationId).map(RUN_ROW).list()));
  }

  private static List<StoredRun> sortedRuns(List<StoredRun> runs) {
    List<StoredRun> out = new ArrayList<>(runs);
    out.sort(Comparator.comparing(StoredRun::createdAt).thenComparing(StoredRun::id));
    return List.copyOf(out);
  }

  @Override
  public boolean deleteRun(String id) {
    Objects.requireNonNull(id, "id");
    return write("delete agent run '" + id + "'", h -> update(h, "DELETE FROM agent_runs WHERE id = ?", id) > 0);
  }

  @Override
  public void saveUsage(StoredUsage u) {
    Objects.requireNonNull(u, "usage");
    write("save usage record '" + u.id() + "'", h -> h.createUpdate(
        "INSERT INTO usage_records (id, at_millis, principal, conversation_id, record_json) VALUES (?, ?, ?, ?, ?) "
            + "ON CONFLICT (id) DO UPDATE SET at_millis = excluded.at_millis, record_json = excluded.record_json")
        .bind(0, u.id()).bind(1, u.at().toEpochMilli()).bind(2, u.principal()).bind(3, u.conversationId())
        .bind(4, u.json()).execute());
  }

  @Override
  public List<StoredUsage> loadUsage(Instant since, int limit) {
    Objects.requireNonNull(since, "since");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got: " + limit);
    }
    List<StoredUsage> out = new ArrayList<>(query("load the usage records since " + since, h -> h.createQuery(
        "SELECT id, at_millis, principal, conversation_id, record_json FROM usage_records WHERE at_millis >= ? "
            + "ORDER BY at_millis, id LIMIT ?").bind(0, since.toEpochMilli()).bind(1, limit)
        .map((rs, ctx) -> new StoredUsage(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getString(3),
            rs.getString(4), rs.getString(5))).list()));
    out.sort(Comparator.comparing(StoredUsage::at).thenComparing(StoredUsage::id));
    return List.copyOf(out);
  }

  // --- memories ---

  @Override
  public List<StoredMemory> loadMemories() {
    record Row(String id, String scope, String owner, String json, String model, byte[] bytes) {}
    List<Row> rows = query("load the memories", h -> h.createQuery(
            "SELECT id, scope, owner, memory_json, model_id, vector FROM memories ORDER BY id")
        .map((rs, ctx) -> new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5), rs.getBytes(6))).list());
    List<StoredMemory> memories = new ArrayList<>(rows.size());
    for (Row r : rows) {
      try {
        memories.add(new StoredMemory(r.id(), r.scope(), r.owner(), r.json(), r.model(),
            r.model() == null || r.bytes() == null ? null
                : VectorCodec.decode(r.bytes(), r.bytes().length / Float.BYTES)));
      } catch (IllegalArgumentException e) {
        throw invalidRow(rowOf() + "memory", r.id(), e);
      }
    }
    memories.sort(Comparator.comparing(StoredMemory::id));
    return List.copyOf(memories);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Saving a memory again (a correction) leaves no readable copy of the old text where the database can help
   * it ({@link #forgotten}).
   */
  @Override
  public void saveMemory(StoredMemory m) {
    Objects.requireNonNull(m, "memory");
    boolean replaced = write("save memory '" + m.id() + "'", h -> {
      boolean existed = h.createQuery("SELECT 1 FROM memories WHERE id = ?").bind(0, m.id()).mapTo(Integer.class)
          .findOne().isPresent();
      h.createUpdate("INSERT INTO memories (id, scope, owner, memory_json, model_id, vector) VALUES (?, ?, ?, ?, ?, ?)"
              + " ON CONFLICT (id) DO UPDATE SET scope = excluded.scope, owner = excluded.owner, "
              + "memory_json = excluded.memory_json, model_id = excluded.model_id, vector = excluded.vector")
          .bind(0, m.id()).bind(1, m.scope()).bind(2, m.owner()).bind(3, m.json()).bind(4, m.modelId())
          .bind(5, m.vector() == null ? null : VectorCodec.encode(m.vector())).execute();
      changed(h, Area.MEMORIES);
      return existed;
    });
    if (replaced) {
      forgotten("correcting memory '" + m.id() + "'");
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The row is gone for every reader at once; what the database keeps of its bytes is cleared by {@link
   * #forgotten} where it can be (SQLite overwrites deleted content and checkpoints its log; PostgreSQL keeps them
   * in the table's pages until a vacuum lets them be overwritten).
   */
  @Override
  public boolean deleteMemory(String id) {
    Objects.requireNonNull(id, "id");
    boolean deleted = write("delete memory '" + id + "'",
        h -> changedIf(h, update(h, "DELETE FROM memories WHERE id = ?", id), Area.MEMORIES) > 0);
    if (deleted) {
      forgotten("deleting memory '" + id + "'");
    }
    return deleted;
  }

  // --- learned pairs: rows of meta under a key prefix ---

  @Override
  public void saveLearned(List<StoredLearned> pairs) {
    Objects.requireNonNull(pairs, "pairs");
    if (pairs.isEmpty()) {
      return;
    }
    write("save " + pairs.size() + " learned pairs", h -> {
      PreparedBatch batch = upsertMeta(h);
      pairs.forEach(p -> batch.bind(0, LearnedRows.key(p)).bind(1, LearnedRows.value(p)).add());
      batch.execute();
      changed(h, Area.LEARNED);
      return null;
    });
  }

  @Override
  public List<StoredLearned> loadLearned() {
    List<String[]> rows = query("load the learned pairs", h -> h.createQuery(
            "SELECT key, value FROM meta WHERE " + metaKey() + " >= ? AND " + metaKey() + " < ?")
        .bind(0, LearnedRows.PREFIX).bind(1, LearnedRows.END).map(PAIR).list());
    List<StoredLearned> out = new ArrayList<>(rows.size());
    rows.forEach(r -> out.add(LearnedRows.read(r[0], r[1])));
    // by tool then message hash as Java compares strings, whatever collation the database sorted by
    out.sort(Comparator.comparing(StoredLearned::tool).thenComparing(StoredLearned::messageHash));
    return List.copyOf(out);
  }

  @Override
  public int deleteLearned(Collection<String> tools) {
    return write(tools == null ? "delete every learned pair" : "delete the learned pairs of " + tools.size() + " tools",
        h -> {
          String sql = "DELETE FROM meta WHERE " + metaKey() + " >= ? AND " + metaKey() + " < ?";
          int n = 0;
          if (tools == null) {
            n = h.createUpdate(sql).bind(0, LearnedRows.PREFIX).bind(1, LearnedRows.END).execute();
          } else {
            for (String t : tools) {
              n += h.createUpdate(sql).bind(0, LearnedRows.from(t)).bind(1, LearnedRows.to(t)).execute();
            }
          }
          return changedIf(h, n, Area.LEARNED);
        });
  }

  // --- shared helpers ---

  private int changedIf(Handle h, int rows, Area area) throws SQLException {
    if (rows > 0) {
      changed(h, area);
    }
    return rows;
  }

  private static int update(Handle h, String sql, String key) {
    return h.createUpdate(sql).bind(0, key).execute();
  }

  private static Long millis(Instant at) {
    return at == null ? null : at.toEpochMilli();
  }

  IllegalStateException invalidRow(String what, String key, RuntimeException e) {
    return new IllegalStateException(
        "state store " + where() + ": the stored " + what + " '" + key + "' is invalid: " + e.getMessage(), e);
  }

  static void requireModelId(String modelId) {
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank, got: '" + modelId + "'");
    }
  }

  /**
   * Parses the rows on several threads when there are many (most of a cold start's cost), and returns them in name
   * order. Errors are collected, not thrown from the workers: a fork-join pool rethrows a copy that wraps the
   * original message, and the first bad row in the rows' order should be the one reported, every time.
   */
  List<Parsed> parse(List<SpecRow> rows) {
    var stream = rows.stream();
    if (rows.size() >= PARALLEL_PARSE_MIN) {
      stream = stream.parallel();
    }
    List<Parsed> parsed = stream.map(r -> parseSpec(r.name(), r.json(), r.contentHash())).toList();
    // name order as Java compares strings, whatever collation the database sorted by
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
    // a row written by an older hashing recipe (or by hand) is hashed afresh rather than trusted blindly
    return new Parsed(spec, contentHash == null || contentHash.isEmpty() ? spec.contentHash() : contentHash, null);
  }

  private IllegalStateException corruptTool(String name, String problem, Exception cause) {
    return new IllegalStateException("state store " + where() + ": the stored spec_json of tool '" + name + "' "
        + problem + " (restore the store from a backup, or remove the tool and register it again)", cause);
  }

  private static final RowMapper<SpecRow> SPEC_ROW =
      (rs, ctx) -> new SpecRow(rs.getString(1), rs.getString(2), rs.getString(3));

  private static final RowMapper<String[]> PAIR = (rs, ctx) -> new String[] {rs.getString(1), rs.getString(2)};

  private static final RowMapper<ApprovalRow> APPROVAL_ROW = (rs, ctx) -> {
    long decided = rs.getLong(9);
    Long decidedAt = rs.wasNull() ? null : decided;
    return new ApprovalRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
        rs.getLong(6), rs.getString(7), rs.getString(8), decidedAt, rs.getString(10), rs.getString(11));
  };

  private static final RowMapper<StoredRun> RUN_ROW = (rs, ctx) -> new StoredRun(rs.getString(1), rs.getString(2),
      rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), Instant.ofEpochMilli(rs.getLong(7)),
      Instant.ofEpochMilli(rs.getLong(8)));

  /** Work in one transaction on a JDBI handle. */
  @FunctionalInterface
  interface Work<T> {
    T run(Handle h) throws SQLException;
  }

  record SpecRow(String name, String json, String contentHash) {}

  /** A parsed row: the spec, or the error that names the tool. */
  record Parsed(ToolSpec spec, String contentHash, IllegalStateException error) {}

  record VectorRow(String hash, int dimension, byte[] bytes) {}

  private record ApprovalRow(String id, String requester, String tool, String argumentsJson, String argumentsHash,
      long createdAt, String status, String decidedBy, Long decidedAt, String channel, String scope) {}
}
