package dev.toolscout.catalog;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.runs.RunStore;
import dev.toolscout.runs.UsageStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Durable state: the catalog, the embedding vectors, the access policy, the registered upstream MCP
 * servers, the approval requests, the skills, the conversations, the memories, and each tool definition's token
 * count (a cache, by content hash and counter). The search index is rebuilt from what is here, so nothing acknowledged by a method below may be
 * lost by a crash after it returns. Implementations: SQLite (one node, the default) and PostgreSQL (shared by
 * replicas). Thread-safe.
 *
 * <p>Vectors are keyed by the hash of the text that was embedded and the model id, so an unchanged tool is
 * never embedded twice and a vector from another model is never used.
 */
public interface StateStore extends RunStore, UsageStore, AutoCloseable {
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

  /**
   * The names of the stored tools written by a catalog change after {@code version} (those a search index
   * committed at {@code version} may hold in an older form). Removed tools are not named: an index finds them as
   * the names it holds that the catalog does not. What an index catches up from, on start and on each re-sync.
   * The default names every stored tool, which is correct and slower; a store that keeps each tool's version
   * answers exactly.
   */
  default java.util.Set<String> toolsChangedSince(long version) {
    java.util.Set<String> all = new java.util.HashSet<>();
    loadCatalog().tools().forEach(t -> all.add(t.fullName()));
    return all;
  }

  /** The stored vectors of {@code modelId} for these text hashes; hashes with none are left out. */
  Map<String, float[]> loadVectors(String modelId, Collection<String> textHashes);

  /** Stores vectors (replacing any with the same hash and model), durable on return. */
  void saveVectors(String modelId, Map<String, float[]> byTextHash);

  /**
   * The vectors of {@code modelId} for these texts (keyed by text hash): the stored ones, and for the rest what
   * {@code embed} returns for their texts (one vector per text, in order), stored before this returns. This
   * default loads, embeds what is missing and saves it: right for a store only one process writes. A store shared
   * by several processes (PostgreSQL) overrides it so that a text is embedded at most once across all of them.
   */
  default Map<String, float[]> vectors(String modelId, Map<String, String> textByHash,
      java.util.function.Function<List<String>, List<float[]>> embed) {
    Map<String, float[]> out = new java.util.HashMap<>(loadVectors(modelId, textByHash.keySet()));
    List<String> missing = textByHash.keySet().stream().filter(h -> !out.containsKey(h)).toList();
    if (!missing.isEmpty()) {
      List<float[]> vs = embed.apply(missing.stream().map(textByHash::get).toList());
      Map<String, float[]> fresh = new java.util.LinkedHashMap<>();
      for (int i = 0; i < missing.size(); i++) {
        fresh.put(missing.get(i), vs.get(i));
      }
      saveVectors(modelId, fresh);
      out.putAll(fresh);
    }
    return out;
  }

  /**
   * The stored token counts of tool definitions counted by {@code counter} (see {@code render.TokenCounter#identity}),
   * by content hash, for these hashes; hashes with none are left out. Counts of other counters are never returned.
   * Rows are returned as stored: the caller checks them (a negative count is not a count).
   */
  Map<String, Integer> loadTokenCounts(String counter, Collection<String> contentHashes);

  /**
   * Stores definition token counts of {@code counter} by content hash (replacing any with the same hash and
   * counter) and, in the same transaction, removes the stored counts (of any counter) of every content hash that
   * is neither a stored tool's nor given here, so counts of removed or changed tools do not pile up. Durable on
   * return.
   *
   * @throws IllegalArgumentException when a count is negative
   */
  void saveTokenCounts(String counter, Map<String, Integer> byContentHash);

  /**
   * The stored access policy's JSON, exactly as saved, if one was saved. The store does not read it: the
   * access package owns the format ({@code access.AccessPolicyJson}), and keeping it opaque keeps this package
   * free of a dependency on access (which depends on the catalog).
   */
  Optional<String> loadPolicyJson();

  /** Replaces the stored access policy's JSON (kept exactly as given), durable on return. */
  void savePolicyJson(String json);

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

  /**
   * The names of the upstream servers an admin disabled, in name order ({@link String#compareTo}); a name need not
   * be a stored server's (a server of a {@code --servers} file is not stored). Thread-safe.
   */
  List<String> loadDisabledServers();

  /**
   * Marks the server named {@code name} disabled, or enabled again, durable on return. Thread-safe.
   *
   * @return true when the flag changed, false when it already was so
   */
  boolean setServerDisabled(String name, boolean disabled);

  /**
   * The stored configuration of the API imported as source {@code name} (exact match): its base URL, its
   * credential (a secret sealed, or the name of an environment variable) and how each of its tools becomes an HTTP
   * request. Opaque here, as a server's config is: the agent module owns the format. Thread-safe.
   */
  Optional<String> loadOpenApiSource(String name);

  /**
   * Stores the configuration of an imported API, replacing any of the same name (upsert), durable on return.
   * Secrets in it are already sealed. Thread-safe.
   */
  void saveOpenApiSource(String name, String configJson);

  /**
   * Removes the configuration of an imported API, durable on return. Thread-safe.
   *
   * @return true when one was removed, false when none had that name
   */
  boolean deleteOpenApiSource(String name);

  /**
   * Stores a new approval request, durable on return. Thread-safe.
   *
   * @throws IllegalArgumentException when a request with the same id is already stored (nothing is changed)
   */
  void saveApproval(StoredApproval approval);

  /** The approval request with this id (exact match), if one is stored. */
  Optional<StoredApproval> loadApproval(String id);

  /** Every stored approval request, oldest first (by creation time, then id); empty when none. */
  List<StoredApproval> loadApprovals();

  /**
   * Moves one approval request from status {@code from} to {@code to} atomically (compare and set), durable on
   * return: of several callers making the same move, exactly one succeeds. With {@code decidedBy} and {@code
   * decidedAt} both null the request keeps who decided it and when (marking an approved request used).
   *
   * @return true when the request was in {@code from} and is now in {@code to}; false when there is no such
   *     request or it was in another status (nothing is changed)
   */
  boolean transitionApproval(String id, ApprovalStatus from, ApprovalStatus to, String decidedBy, Instant decidedAt);

  /** Every stored skill, in name order ({@link String#compareTo}); empty when none. */
  List<StoredSkill> loadSkills();

  /** Stores {@code skill}, replacing any with the same name (upsert), durable on return. */
  void saveSkill(StoredSkill skill);

  /**
   * Removes the skill named {@code name} (exact match), durable on return. Conversations that activated it keep
   * its name (a skill of that name added again is active for them again).
   *
   * @return true when a skill was removed, false when none had that name
   */
  boolean deleteSkill(String name);

  /**
   * The conversation {@code id} of {@code principal}, if one is stored. Conversations are keyed by both: the
   * same id under another principal is another conversation, so one principal can never read or resume
   * another's.
   */
  Optional<StoredConversation> loadConversation(String principal, String id);

  /** Stores {@code conversation}, replacing the one with the same principal and id (upsert), durable on return. */
  void saveConversation(StoredConversation conversation);

  /**
   * Removes one conversation, durable on return.
   *
   * @return true when it was stored
   */
  boolean deleteConversation(String principal, String id);

  /**
   * Removes every conversation last used before {@code cutoff} (idle expiry), durable on return.
   *
   * @return how many were removed
   */
  int deleteConversationsUsedBefore(Instant cutoff);

  /** The ids of {@code principal}'s conversations, least recently used first (then by id). */
  List<String> conversationIds(String principal);

  /** How many conversations are stored, of every principal. */
  int conversationCount();

  // --- the agent loop (toolscout-agent): its runs and usage records are RunStore's and UsageStore's ---

  // --- memories (docs/MEMORY.md) ---

  /** Every stored memory, in id order; empty when none. */
  List<StoredMemory> loadMemories();

  /** Stores {@code memory}, replacing any with the same id (upsert), durable on return. */
  void saveMemory(StoredMemory memory);

  /**
   * Removes memory {@code id} for good, durable on return: its text and vector must not stay readable in the
   * store's files (SQLite overwrites deleted content and checkpoints its log; see docs/MEMORY.md).
   *
   * @return true when a memory was removed, false when none had that id
   */
  boolean deleteMemory(String id);

  // --- what selection learned from use (learning.UsageMemory): (message, tool) pairs ---

  /**
   * Stores learned pairs, replacing those with the same tool and message hash (upsert), in one transaction,
   * durable on return.
   */
  void saveLearned(List<StoredLearned> pairs);

  /** Every learned pair, by tool then message hash ({@link String#compareTo}); empty when none. */
  List<StoredLearned> loadLearned();

  /**
   * Removes the learned pairs of {@code tools} (exact names), or every learned pair when {@code tools} is null, in
   * one transaction, durable on return.
   *
   * @return how many pairs were removed
   */
  int deleteLearned(Collection<String> tools);

  @Override
  void close();

  /** Where an approval request stands. */
  enum ApprovalStatus {
    /** Waiting for someone entitled to approve it. */
    PENDING,
    /** Approved; the requester's next identical call runs, once. */
    APPROVED,
    /** Denied; the identical call is refused. */
    DENIED,
    /** Not decided (or, approved, not used) in time; an identical call files a new request. */
    EXPIRED,
    /** Approved and run once; an identical call files a new request. */
    USED;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One request to run a tool that needs approval.
   *
   * @param id the request's unique id (what an approver names)
   * @param requester who asked (a caller id such as {@code key:alice}); never the one who may approve it
   * @param tool the tool's full name
   * @param argumentsJson the call's arguments as canonical JSON, secrets masked (never a secret in clear)
   * @param argumentsHash what identifies exactly this call ({@code approval.Approvals.matchKey}: a digest of
   *     the unredacted arguments, channel, scope, requester and tool); an identical later call has the same one
   * @param createdAt when it was asked (kept to the millisecond, as stored)
   * @param decidedBy who approved or denied it ({@code null} while pending)
   * @param decidedAt when ({@code null} while pending; kept to the millisecond)
   * @param channel where the call was made ({@code gateway}, {@code agent}); {@code null} for a request stored
   *     before channels were recorded
   * @param scope within the channel, the agent run that made it; {@code null} when the channel has none
   */
  record StoredApproval(
      String id, String requester, String tool, String argumentsJson, String argumentsHash, Instant createdAt,
      ApprovalStatus status, String decidedBy, Instant decidedAt, String channel, String scope) {
    /** A request without a channel or scope (as stored before they were recorded). */
    public StoredApproval(
        String id, String requester, String tool, String argumentsJson, String argumentsHash, Instant createdAt,
        ApprovalStatus status, String decidedBy, Instant decidedAt) {
      this(id, requester, tool, argumentsJson, argumentsHash, createdAt, status, decidedBy, decidedAt, null, null);
    }

    public StoredApproval {
      for (String[] f : new String[][] {{"id", id}, {"requester", requester}, {"tool", tool},
          {"argumentsJson", argumentsJson}, {"argumentsHash", argumentsHash}}) {
        if (f[1] == null || f[1].isBlank()) {
          throw new IllegalArgumentException("approval request '" + id + "': " + f[0] + " must not be blank, got: '"
              + f[1] + "'");
        }
      }
      if (createdAt == null || status == null) {
        throw new IllegalArgumentException("approval request '" + id + "': createdAt and status are required, got: "
            + createdAt + ", " + status);
      }
      createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
      decidedAt = decidedAt == null ? null : decidedAt.truncatedTo(ChronoUnit.MILLIS);
      channel = channel == null || channel.isBlank() ? null : channel;
      scope = scope == null || scope.isBlank() ? null : scope;
    }

    /** This request made in {@code channel}, within {@code scope} (either may be null). */
    public StoredApproval in(String channel, String scope) {
      return new StoredApproval(id, requester, tool, argumentsJson, argumentsHash, createdAt, status, decidedBy,
          decidedAt, channel, scope);
    }

    /** A new pending request. */
    public static StoredApproval pending(
        String id, String requester, String tool, String argumentsJson, String argumentsHash, Instant createdAt) {
      return new StoredApproval(id, requester, tool, argumentsJson, argumentsHash, createdAt,
          ApprovalStatus.PENDING, null, null);
    }

    /** This request in another status (decider kept when both are null). */
    public StoredApproval moved(ApprovalStatus to, String by, Instant at) {
      boolean keep = by == null && at == null;
      return new StoredApproval(id, requester, tool, argumentsJson, argumentsHash, createdAt, to,
          keep ? decidedBy : by, keep ? decidedAt : at, channel, scope);
    }
  }

  /**
   * One skill as stored.
   *
   * @param name the skill's unique name (the key)
   * @param json the skill, opaque to the store: the skills package owns its format ({@code skills.SkillJson}),
   *     and keeping it opaque keeps this package free of a dependency on skills (which depends on the catalog)
   */
  record StoredSkill(String name, String json) {
    public StoredSkill {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("stored skill name must not be blank, got: '" + name + "'");
      }
      if (json == null) {
        throw new IllegalArgumentException("stored skill '" + name + "': json must not be null");
      }
    }
  }

  /**
   * One conversation as stored.
   *
   * @param principal the key of the principal it belongs to (opaque here; {@code conversation.Conversations}
   *     makes it), part of the key
   * @param id the conversation's id as its caller gave it, the other part of the key
   * @param activeSkills the names of the skills activated in it, in activation order
   * @param disclosedTools the names of the tools discovery disclosed to it, in order
   * @param createdAt when it started (kept to the millisecond, as stored)
   * @param lastUsedAt when it was last used (kept to the millisecond); idle expiry counts from here
   */
  record StoredConversation(
      String principal, String id, List<String> activeSkills, List<String> disclosedTools, Instant createdAt,
      Instant lastUsedAt) {
    public StoredConversation {
      if (principal == null || id == null || id.isBlank()) {
        throw new IllegalArgumentException("stored conversation needs a principal and an id, got: " + principal
            + ", '" + id + "'");
      }
      if (createdAt == null || lastUsedAt == null) {
        throw new IllegalArgumentException("stored conversation '" + id + "': createdAt and lastUsedAt are "
            + "required, got: " + createdAt + ", " + lastUsedAt);
      }
      activeSkills = List.copyOf(activeSkills == null ? List.of() : activeSkills);
      disclosedTools = List.copyOf(disclosedTools == null ? List.of() : disclosedTools);
      createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
      lastUsedAt = lastUsedAt.truncatedTo(ChronoUnit.MILLIS);
    }
  }

  /**
   * One memory as stored.
   *
   * @param id the memory's unique id (the key)
   * @param scope its scope ({@code user}, {@code group}, {@code space}), kept in a column of its own
   * @param owner the scope's user, group or space (the empty string for principals with no user)
   * @param json the memory, opaque to the store: the memory package owns its format ({@code memory.MemoryJson})
   * @param modelId the model that embedded {@code vector}, or {@code null} when it has none
   * @param vector the vector of its text, or {@code null}
   */
  record StoredMemory(String id, String scope, String owner, String json, String modelId, float[] vector) {
    public StoredMemory {
      if (id == null || id.isBlank()) {
        throw new IllegalArgumentException("stored memory id must not be blank, got: '" + id + "'");
      }
      if (scope == null || owner == null || json == null) {
        throw new IllegalArgumentException("stored memory '" + id + "': scope, owner and json are required, got: "
            + scope + ", " + owner + ", " + (json == null ? null : "(json)"));
      }
      if ((modelId == null) != (vector == null)) {
        throw new IllegalArgumentException("stored memory '" + id + "': a vector needs its model id and a model id "
            + "its vector, got: " + modelId + ", " + (vector == null ? null : vector.length + " floats"));
      }
    }

    /** Leaves the text out: a memory is private. */
    @Override
    public String toString() {
      return "StoredMemory[id=" + id + ", scope=" + scope + ", json=(" + json.length() + " chars)]";
    }
  }

  /**
   * One (message, tool) pair selection learned from: the tool was used for the message.
   *
   * @param tool the tool's full name (part of the key)
   * @param messageHash the SHA-256 of the message (the other part of the key)
   * @param toolHash the tool's content hash when it was learned: a tool changed since has its pairs dropped
   * @param principal who sent the message, or null
   * @param conversationId its conversation, or null
   * @param at when it was used (kept to the millisecond)
   */
  record StoredLearned(
      String tool, String messageHash, String message, String toolHash, String principal, String conversationId,
      Instant at) {
    public StoredLearned {
      if (tool == null || tool.isBlank() || messageHash == null || messageHash.isBlank() || message == null
          || toolHash == null || at == null) {
        throw new IllegalArgumentException("a learned pair needs a tool, a message and its hash, the tool's hash "
            + "and a time, got: '" + tool + "', '" + messageHash + "', '" + toolHash + "', " + at);
      }
      at = at.truncatedTo(ChronoUnit.MILLIS);
    }
  }

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
