package dev.toolscout.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.catalog.CatalogStore.StoredCatalog;
import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.conversation.ConversationStore.StoredConversation;
import dev.toolscout.catalog.ServerStore.StoredServer;
import dev.toolscout.catalog.MemoryStore.StoredMemory;
import dev.toolscout.catalog.SkillStore.StoredSkill;
import java.time.Instant;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link StateStore} must do, run against each implementation (SQLite, PostgreSQL). A subclass
 * supplies {@link #newStore()} and {@link #reopen()}; the suite opens a new store before each test and
 * closes it after.
 */
public abstract class StateStoreContract {
  protected static final String MODEL = "test-model";

  /** The store under test; {@link #reopened()} replaces it. */
  protected StateStore store;

  /** A new, empty store. Called once before each test. */
  protected abstract StateStore newStore();

  /**
   * A new instance over the data of the store last returned by {@link #newStore()}, as after a restart.
   * The suite has closed the previous instance when it calls this.
   */
  protected abstract StateStore reopen();

  @BeforeEach
  final void openStore() {
    store = newStore();
  }

  @AfterEach
  final void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  /** Closes the current instance and continues with a reopened one. */
  protected final StateStore reopened() {
    store.close();
    store = reopen();
    return store;
  }

  // --- the catalog ---

  @Test
  void empty_store_has_version_zero_and_holds_nothing() {
    assertThat(store.catalogVersion()).isZero();
    assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(0, List.of()));
    assertThat(store.loadVectors(MODEL, List.of("h1"))).isEmpty();
    assertThat(store.loadPolicyJson()).isEmpty();
    assertThat(store.loadServers()).isEmpty();
  }

  @Test
  void the_tools_changed_since_a_version_include_every_tool_written_after_it() {
    long first = store.applyCatalogChange(List.of(tool("crm__a"), tool("crm__b")), List.of());
    store.applyCatalogChange(List.of(tool("crm__a").toBuilder().tags(List.of("changed")).build(), tool("crm__c")),
        List.of());

    // a store that keeps each tool's version names exactly these; the default (every stored tool) is a superset
    assertThat(store.toolsChangedSince(first)).contains("crm__a", "crm__c")
        .isSubsetOf("crm__a", "crm__b", "crm__c");
    assertThat(store.toolsChangedSince(first + 1)).isSubsetOf("crm__a", "crm__b", "crm__c");
  }

  @Test
  void apply_change_upserts_and_removes_in_one_step() {
    store.applyCatalogChange(List.of(tool("crm__a"), tool("crm__b"), tool("crm__c")), List.of());

    ToolSpec newA = tool("crm__a").toBuilder().tags(List.of("changed")).build();
    long version = store.applyCatalogChange(List.of(newA, tool("crm__d")), List.of("crm__b", "crm__c"));

    assertThat(version).isEqualTo(2);
    assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(2, List.of(newA, tool("crm__d"))));
  }

  @Test
  void removing_unknown_tools_is_ignored() {
    store.applyCatalogChange(List.of(tool("crm__a")), List.of());

    long version = store.applyCatalogChange(List.of(), List.of("crm__never_stored"));

    assertThat(version).isEqualTo(2);
    assertThat(names(store.loadCatalog())).containsExactly("crm__a");
  }

  @Test
  void change_that_upserts_and_removes_the_same_tool_is_rejected_and_writes_nothing() {
    store.applyCatalogChange(List.of(tool("crm__a")), List.of());

    assertThatThrownBy(
            () -> store.applyCatalogChange(List.of(tool("crm__b"), tool("crm__a")), List.of("crm__a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'crm__a'");
    assertThatThrownBy(() -> store.applyCatalogChange(List.of(tool("crm__b"), tool("crm__b")), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'crm__b'");

    assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(1, List.of(tool("crm__a"))));
  }

  @Test
  void version_grows_by_one_per_change_even_an_empty_one() {
    List<Long> versions = new ArrayList<>();
    versions.add(store.applyCatalogChange(List.of(tool("crm__a")), List.of()));
    versions.add(store.applyCatalogChange(List.of(), List.of()));
    versions.add(store.applyCatalogChange(List.of(), List.of("crm__a")));

    assertThat(versions).containsExactly(1L, 2L, 3L);
    assertThat(store.catalogVersion()).isEqualTo(3);
    assertThat(store.loadCatalog().version()).isEqualTo(3);
  }

  @Test
  void upsert_replaces_the_tool_with_the_same_name() {
    store.applyCatalogChange(List.of(tool("crm__a")), List.of());
    ToolSpec changed = ToolSpec.builder("crm__a", "A new description").aiAccess(AiAccess.BLOCKED).build();

    store.applyCatalogChange(List.of(changed), List.of());

    assertThat(store.loadCatalog().tools()).containsExactly(changed);
  }

  @Test
  void tools_load_in_name_order() {
    List<String> names =
        new ArrayList<>(
            List.of("b__x", "a__y", "A__z", "a-b__c", "a_b__c", "a__y2", "a__Y", "Z9__q", "a__y-1"));
    Collections.shuffle(names, new Random(42));

    store.applyCatalogChange(names.stream().map(StateStoreContract::tool).toList(), List.of());

    assertThat(names(store.loadCatalog())).containsExactlyElementsOf(new TreeSet<>(names));
  }

  @Test
  void specs_round_trip_exactly() {
    ToolSpec rich = richTool();
    ToolSpec plain = tool("plain__tool");

    store.applyCatalogChange(List.of(rich, plain), List.of());
    List<ToolSpec> loaded = reopened().loadCatalog().tools();

    assertThat(loaded).containsExactly(rich, plain);
    ToolSpec back = loaded.get(0);
    assertThat(back.contentHash()).isEqualTo(rich.contentHash());
    // Equality of JSON objects ignores key order; the parameters' order is shown to the model, so check it.
    assertThat(back.parameterNames()).containsExactly("zeta", "address", "count", "ratio", "flags", "maybe");
    assertThat(ToolSpecJson.toJson(back).toString()).isEqualTo(ToolSpecJson.toJson(rich).toString());
  }

  @Test
  void readers_never_see_half_a_change() throws Exception {
    // Change i replaces tool n{i-1} by n{i}: a consistent snapshot at version v holds exactly step__n{v}.
    int changes = 60;
    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    CountDownLatch readerStarted = new CountDownLatch(1);
    Thread reader =
        new Thread(
            () -> {
              readerStarted.countDown();
              do {
                StoredCatalog c = store.loadCatalog();
                List<String> expected = c.version() == 0 ? List.of() : List.of("step__n" + c.version());
                if (!names(c).equals(expected)) {
                  violations.add("version " + c.version() + " holds " + names(c));
                }
              } while (!done.get());
            });
    reader.start();
    readerStarted.await();
    try {
      for (int i = 1; i <= changes; i++) {
        List<String> removals = i == 1 ? List.of() : List.of("step__n" + (i - 1));
        store.applyCatalogChange(List.of(tool("step__n" + i)), removals);
      }
    } finally {
      done.set(true);
      reader.join();
    }

    assertThat(violations).isEmpty();
    assertThat(names(store.loadCatalog())).containsExactly("step__n" + changes);
  }

  @Test
  void concurrent_changes_each_get_their_own_version() throws Exception {
    int threads = 4;
    int perThread = 8;
    ConcurrentLinkedQueue<Long> versions = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      writers.add(
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < perThread; i++) {
                    versions.add(store.applyCatalogChange(List.of(tool("w" + id + "__t" + i)), List.of()));
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              }));
    }
    writers.forEach(Thread::start);
    for (Thread w : writers) {
      w.join();
    }

    assertThat(failures).isEmpty();
    assertThat(versions)
        .containsExactlyInAnyOrderElementsOf(
            IntStream.rangeClosed(1, threads * perThread).mapToObj(i -> (long) i).toList());
    assertThat(store.loadCatalog().tools()).hasSize(threads * perThread);
  }

  // --- vectors ---

  @Test
  void vectors_round_trip_bit_exactly() {
    float[] edgy = {
      0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE,
      Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 1f / 3f, (float) Math.PI, 1e-30f, -7.5f
    };
    float[] random = randomVector(new Random(7), 384);
    float[] single = {0.5f};

    store.saveVectors(MODEL, Map.of("edgy", edgy, "random", random, "single", single));
    Map<String, float[]> loaded = reopened().loadVectors(MODEL, List.of("edgy", "random", "single"));

    assertThat(loaded).containsOnlyKeys("edgy", "random", "single");
    assertThat(rawBits(loaded.get("edgy"))).containsExactly(rawBits(edgy));
    assertThat(rawBits(loaded.get("random"))).containsExactly(rawBits(random));
    assertThat(rawBits(loaded.get("single"))).containsExactly(rawBits(single));
  }

  @Test
  void saved_vector_is_not_changed_by_later_writes_to_the_caller_array() {
    float[] v = {1f, 2f, 3f};
    store.saveVectors(MODEL, Map.of("h", v));

    v[0] = 99f;

    assertThat(store.loadVectors(MODEL, List.of("h")).get("h")).containsExactly(1f, 2f, 3f);
  }

  @Test
  void vectors_of_another_model_are_not_returned() {
    store.saveVectors("model-a", Map.of("shared", new float[] {1f, 2f}, "only-a", new float[] {3f}));
    store.saveVectors("model-b", Map.of("shared", new float[] {9f, 8f, 7f}));

    Map<String, float[]> forB = store.loadVectors("model-b", List.of("shared", "only-a"));

    assertThat(forB).containsOnlyKeys("shared");
    assertThat(forB.get("shared")).containsExactly(9f, 8f, 7f);
    assertThat(store.loadVectors("model-a", List.of("shared")).get("shared")).containsExactly(1f, 2f);
  }

  @Test
  void saving_a_vector_again_replaces_it() {
    store.saveVectors(MODEL, Map.of("h", new float[] {1f, 2f}));

    store.saveVectors(MODEL, Map.of("h", new float[] {3f, 4f, 5f}));

    assertThat(store.loadVectors(MODEL, List.of("h")).get("h")).containsExactly(3f, 4f, 5f);
  }

  @Test
  void loading_many_vectors_returns_exactly_the_stored_ones() {
    // More hashes than fit one query, with unknown and repeated ones mixed in.
    Random random = new Random(11);
    Map<String, float[]> stored = new LinkedHashMap<>();
    for (int i = 0; i < 1234; i++) {
      stored.put("hash-" + i, randomVector(random, 8));
    }
    store.saveVectors(MODEL, stored);
    List<String> asked = new ArrayList<>(stored.keySet());
    IntStream.range(0, 700).forEach(i -> asked.add("missing-" + i));
    asked.addAll(List.of("hash-0", "hash-1233"));
    Collections.shuffle(asked, random);

    Map<String, float[]> loaded = store.loadVectors(MODEL, asked);

    assertThat(loaded).containsOnlyKeys(stored.keySet());
    stored.forEach((hash, v) -> assertThat(loaded.get(hash)).as(hash).containsExactly(v));
  }

  @Test
  void loading_no_hashes_returns_nothing() {
    store.saveVectors(MODEL, Map.of("h", new float[] {1f}));

    assertThat(store.loadVectors(MODEL, List.of())).isEmpty();
  }

  // --- policy ---

  // --- definition token counts (render.StoredTokenCounts) ---

  private static final String COUNTER = "cl100k_base/anthropic-definition-v1";

  @Test
  void token_counts_survive_a_reopen_and_only_the_asked_hashes_come_back() {
    ToolSpec a = tool("crm__a");
    ToolSpec b = tool("crm__b");
    store.applyCatalogChange(List.of(a, b), List.of());
    store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 41, b.contentHash(), 0));

    StateStore after = reopened();

    assertThat(after.loadTokenCounts(COUNTER, List.of(a.contentHash(), b.contentHash(), "no-such-hash")))
        .containsExactlyInAnyOrderEntriesOf(Map.of(a.contentHash(), 41, b.contentHash(), 0));
    assertThat(after.loadTokenCounts(COUNTER, List.of(b.contentHash()))).containsOnlyKeys(b.contentHash());
    assertThat(after.loadTokenCounts(COUNTER, List.of())).isEmpty();
  }

  @Test
  void token_counts_of_another_counter_are_not_returned() {
    ToolSpec a = tool("crm__a");
    store.applyCatalogChange(List.of(a), List.of());
    store.saveTokenCounts("o200k_base/anthropic-definition-v1", Map.of(a.contentHash(), 7));

    assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash()))).isEmpty();

    store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 9));
    assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash()))).containsEntry(a.contentHash(), 9);
    assertThat(store.loadTokenCounts("o200k_base/anthropic-definition-v1", List.of(a.contentHash())))
        .containsEntry(a.contentHash(), 7);
  }

  @Test
  void saving_token_counts_again_replaces_them() {
    ToolSpec a = tool("crm__a");
    store.applyCatalogChange(List.of(a), List.of());
    store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 5));
    store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 6));

    assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash()))).containsExactlyEntriesOf(
        Map.of(a.contentHash(), 6));
  }

  @Test
  void saving_token_counts_prunes_those_of_hashes_no_tool_has_but_keeps_the_ones_saved() {
    ToolSpec removed = tool("crm__removed");
    ToolSpec changed = tool("crm__changed");
    ToolSpec kept = tool("crm__kept");
    store.applyCatalogChange(List.of(removed, changed, kept), List.of());
    store.saveTokenCounts(COUNTER, Map.of(removed.contentHash(), 1, changed.contentHash(), 2, kept.contentHash(), 3));
    store.saveTokenCounts("another/counter", Map.of(removed.contentHash(), 4));
    ToolSpec changedNow = ToolSpec.builder(changed.fullName(), "Does other things now").build();
    store.applyCatalogChange(List.of(changedNow), List.of(removed.fullName()));
    List<String> all = List.of(removed.contentHash(), changed.contentHash(), kept.contentHash(),
        changedNow.contentHash(), "engine-tool-hash");

    // a save prunes; rows saved in it stay even when no tool has their hash (the engine's own tools)
    store.saveTokenCounts(COUNTER, Map.of(changedNow.contentHash(), 8, "engine-tool-hash", 10));

    assertThat(store.loadTokenCounts(COUNTER, all)).containsExactlyInAnyOrderEntriesOf(
        Map.of(kept.contentHash(), 3, changedNow.contentHash(), 8, "engine-tool-hash", 10));
    assertThat(store.loadTokenCounts("another/counter", all)).isEmpty();
  }

  @Test
  void a_negative_token_count_is_refused_and_saves_nothing() {
    ToolSpec a = tool("crm__a");
    ToolSpec b = tool("crm__b");
    store.applyCatalogChange(List.of(a, b), List.of());
    Map<String, Integer> bad = new java.util.TreeMap<>(Map.of(a.contentHash(), 3, b.contentHash(), -1));

    assertThatThrownBy(() -> store.saveTokenCounts(COUNTER, bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(b.contentHash())
        .hasMessageContaining("-1");
    assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash(), b.contentHash()))).isEmpty();
  }

  @Test
  void policy_round_trips() {
    AccessPolicy policy = samplePolicy();

    store.savePolicyJson(json(policy));

    assertThat(store.loadPolicyJson()).contains(json(policy));
    assertThat(reopened().loadPolicyJson()).contains(json(policy));
  }

  @Test
  void saving_a_policy_replaces_the_previous_one() {
    store.savePolicyJson(json(samplePolicy()));

    store.savePolicyJson(json(AccessPolicy.ALLOW_ALL));

    assertThat(store.loadPolicyJson()).contains(json(AccessPolicy.ALLOW_ALL));
  }

  // --- imported OpenAPI sources ---

  @Test
  void openapi_sources_round_trip_exactly_replace_by_name_and_survive_reopen() {
    String petstore = "{ \"name\": \"petstore\", \"auth\": {\"secret_sealed\": \"enc:v1:AAEC+/==\"}, \"x\": \"中🚀\" }";
    store.saveOpenApiSource("petstore", "{\"v\":1}");
    store.saveOpenApiSource("petstore", petstore);
    store.saveOpenApiSource("crm", "{}");

    assertThat(store.loadOpenApiSource("petstore")).contains(petstore);
    assertThat(reopened().loadOpenApiSource("petstore")).contains(petstore);
    assertThat(store.loadOpenApiSource("crm")).contains("{}");
    assertThat(store.loadOpenApiSource("never-stored")).isEmpty();
    // one catalog version, untouched by a source's configuration
    assertThat(store.catalogVersion()).isZero();
  }

  @Test
  void delete_openapi_source_reports_whether_one_was_removed_and_leaves_the_others() {
    store.saveOpenApiSource("petstore", "{}");
    store.saveOpenApiSource("crm", "{}");

    boolean first = store.deleteOpenApiSource("petstore");
    boolean again = store.deleteOpenApiSource("petstore");

    assertThat(first).isTrue();
    assertThat(again).isFalse();
    assertThat(reopened().loadOpenApiSource("petstore")).isEmpty();
    assertThat(store.loadOpenApiSource("crm")).contains("{}");
  }

  // --- registered servers ---

  @Test
  void servers_round_trip_exactly_and_survive_reopen() {
    StoredServer github = server("github", "{\"command\":\"npx\",\"args\":[\"-y\",\"@mcp/github\"]}");
    // The JSON is opaque: odd spacing, unicode and sealed-looking values come back byte for byte.
    StoredServer odd =
        server(
            "Notizen ✓",
            "{ \"url\" : \"https://example.com/mcp\",\n  \"apiKey\": \"enc:v1:AAEC+/==\", \"x\": \"中🚀\" }");

    store.saveServer(github);
    store.saveServer(odd);

    assertThat(store.loadServers()).containsExactly(odd, github);
    assertThat(reopened().loadServers()).containsExactly(odd, github);
  }

  @Test
  void saving_a_server_again_replaces_it() {
    store.saveServer(server("github", "{\"v\":1}"));
    store.saveServer(server("slack", "{\"v\":1}"));

    store.saveServer(server("github", "{\"v\":2}"));

    assertThat(store.loadServers()).containsExactly(server("github", "{\"v\":2}"), server("slack", "{\"v\":1}"));
    assertThat(reopened().loadServers())
        .containsExactly(server("github", "{\"v\":2}"), server("slack", "{\"v\":1}"));
  }

  @Test
  void a_disabled_server_stays_disabled_across_reopen_until_enabled() {
    store.saveServer(server("github", "{}"));

    boolean disabled = store.setServerDisabled("github", true);
    boolean again = store.setServerDisabled("github", true);
    // a server of a --servers file is not stored, and is disabled by name all the same
    boolean declared = store.setServerDisabled("Notizen ✓", true);

    assertThat(disabled).isTrue();
    assertThat(again).isFalse();
    assertThat(declared).isTrue();
    assertThat(store.loadDisabledServers()).containsExactly("Notizen ✓", "github");
    StateStore other = reopened();
    assertThat(other.loadDisabledServers()).containsExactly("Notizen ✓", "github");
    assertThat(other.loadServers()).containsExactly(server("github", "{}"));

    boolean enabled = store.setServerDisabled("github", false);
    boolean enabledAgain = store.setServerDisabled("github", false);

    assertThat(enabled).isTrue();
    assertThat(enabledAgain).isFalse();
    assertThat(reopened().loadDisabledServers()).containsExactly("Notizen ✓");
  }

  @Test
  void delete_server_reports_whether_one_was_removed() {
    store.saveServer(server("github", "{}"));
    store.saveServer(server("slack", "{}"));

    boolean first = store.deleteServer("github");
    boolean again = store.deleteServer("github");
    boolean unknown = store.deleteServer("never-stored");

    assertThat(first).isTrue();
    assertThat(again).isFalse();
    assertThat(unknown).isFalse();
    assertThat(store.loadServers()).containsExactly(server("slack", "{}"));
    assertThat(reopened().loadServers()).containsExactly(server("slack", "{}"));
  }

  @Test
  void servers_load_in_name_order() {
    // "ｚ" (U+FF5A) sorts after "🚀" in Java's UTF-16 order but before it in UTF-8 byte order.
    List<String> names =
        new ArrayList<>(List.of("slack", "github", "Zendesk", "a-b", "a_b", "a", "ä", "ｚ", "🚀", "10", "9"));
    Collections.shuffle(names, new Random(5));

    names.forEach(n -> store.saveServer(server(n, "{\"name\":\"" + n + "\"}")));

    assertThat(store.loadServers()).extracting(StoredServer::name).containsExactlyElementsOf(new TreeSet<>(names));
  }

  @Test
  void servers_are_kept_apart_from_the_catalog_and_the_policy() {
    store.applyCatalogChange(List.of(tool("github__search")), List.of());
    store.savePolicyJson(json(samplePolicy()));

    store.saveServer(server("github", "{}"));
    store.deleteServer("github");

    assertThat(store.loadServers()).isEmpty();
    assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(1, List.of(tool("github__search"))));
    assertThat(store.loadPolicyJson()).contains(json(samplePolicy()));
  }

  @Test
  void stored_server_needs_a_name_and_json() {
    assertThatThrownBy(() -> new StoredServer("  ", "{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name must not be blank, got: '  '");
    assertThatThrownBy(() -> new StoredServer(null, "{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name must not be blank, got: 'null'");
    assertThatThrownBy(() -> new StoredServer("github", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'github'")
        .hasMessageContaining("configJson must not be null");
  }

  // --- approval requests ---

  private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.678Z");

  private static StoredApproval approval(String id, Instant created) {
    return StoredApproval.pending(id, "key:alice", "kg__delete_entities", "{\"entityNames\":[\"Temp ✓\"]}",
        "hash-" + id, created);
  }

  @Test
  void approvals_round_trip_exactly_and_survive_reopen() {
    StoredApproval a = approval("ap-1", T0);
    StoredApproval decided = new StoredApproval("ap-2", "local", "mcp__register_server", "{}", "h2",
        T0.plusSeconds(1), ApprovalStatus.DENIED, "cli:ops", T0.plusSeconds(2)).in("agent", "run-7");

    store.saveApproval(a);
    store.saveApproval(decided);

    assertThat(store.loadApproval("ap-1")).contains(a);
    assertThat(store.loadApproval("ap-2")).contains(decided);
    assertThat(store.loadApproval("ap-2").orElseThrow().scope()).isEqualTo("run-7");
    assertThat(store.loadApproval("ap-1").orElseThrow().channel()).isNull();
    assertThat(store.loadApproval("ap-3")).isEmpty();
    assertThat(reopened().loadApprovals()).containsExactly(a, decided);
  }

  @Test
  void approval_times_are_kept_to_the_millisecond() {
    StoredApproval a = approval("ap-1", T0.plusNanos(123_456));

    store.saveApproval(a);

    assertThat(a.createdAt()).isEqualTo(T0);
    assertThat(store.loadApproval("ap-1").orElseThrow().createdAt()).isEqualTo(T0);
  }

  @Test
  void saving_an_approval_with_a_taken_id_is_refused_and_changes_nothing() {
    store.saveApproval(approval("ap-1", T0));

    assertThatThrownBy(() -> store.saveApproval(approval("ap-1", T0.plusSeconds(9))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'ap-1'");
    assertThat(store.loadApprovals()).containsExactly(approval("ap-1", T0));
  }

  @Test
  void approvals_load_oldest_first_then_by_id() {
    store.saveApproval(approval("ap-c", T0.plusSeconds(5)));
    store.saveApproval(approval("ap-b", T0));
    store.saveApproval(approval("ap-a", T0.plusSeconds(5)));

    assertThat(store.loadApprovals()).extracting(StoredApproval::id).containsExactly("ap-b", "ap-a", "ap-c");
  }

  @Test
  void an_approval_moves_only_from_the_status_it_is_in() {
    store.saveApproval(approval("ap-1", T0));

    boolean wrongFrom = store.transitionApproval("ap-1", ApprovalStatus.APPROVED, ApprovalStatus.USED, null, null);
    boolean approved = store.transitionApproval(
        "ap-1", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "cli:ops", T0.plusSeconds(60));
    boolean again = store.transitionApproval(
        "ap-1", ApprovalStatus.PENDING, ApprovalStatus.DENIED, "key:mallory", T0.plusSeconds(61));
    boolean unknown = store.transitionApproval("ap-9", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "x", T0);

    assertThat(wrongFrom).isFalse();
    assertThat(approved).isTrue();
    assertThat(again).isFalse();
    assertThat(unknown).isFalse();
    StoredApproval now = reopened().loadApproval("ap-1").orElseThrow();
    assertThat(now.status()).isEqualTo(ApprovalStatus.APPROVED);
    assertThat(now.decidedBy()).isEqualTo("cli:ops");
    assertThat(now.decidedAt()).isEqualTo(T0.plusSeconds(60));
  }

  @Test
  void marking_an_approval_used_keeps_who_approved_it_and_when() {
    store.saveApproval(approval("ap-1", T0));
    store.transitionApproval("ap-1", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "cli:ops", T0.plusSeconds(60));

    assertThat(store.transitionApproval("ap-1", ApprovalStatus.APPROVED, ApprovalStatus.USED, null, null)).isTrue();

    assertThat(store.loadApproval("ap-1")).contains(
        approval("ap-1", T0).moved(ApprovalStatus.USED, "cli:ops", T0.plusSeconds(60)));
  }

  @Test
  void of_racing_moves_of_one_approval_exactly_one_wins() throws Exception {
    store.saveApproval(approval("ap-1", T0));
    store.transitionApproval("ap-1", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "cli:ops", T0);
    int threads = 8;
    CountDownLatch go = new CountDownLatch(1);
    ConcurrentLinkedQueue<Boolean> won = new ConcurrentLinkedQueue<>();
    List<Thread> all = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      all.add(Thread.ofPlatform().start(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        won.add(store.transitionApproval("ap-1", ApprovalStatus.APPROVED, ApprovalStatus.USED, null, null));
      }));
    }
    go.countDown();
    for (Thread t : all) {
      t.join();
    }

    assertThat(won).hasSize(threads).containsOnlyOnce(true);
  }

  @Test
  void approvals_are_kept_apart_from_servers_and_the_catalog() {
    store.saveServer(server("github", "{}"));
    store.saveApproval(approval("ap-1", T0));

    assertThat(store.loadServers()).containsExactly(server("github", "{}"));
    assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(0, List.of()));
    assertThat(store.catalogVersion()).isZero();
  }

  @Test
  void stored_approval_names_the_missing_field() {
    assertThatThrownBy(() -> StoredApproval.pending("ap-1", " ", "t", "{}", "h", T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'ap-1'")
        .hasMessageContaining("requester must not be blank");
    assertThatThrownBy(() -> StoredApproval.pending("ap-1", "local", "t", "{}", "h", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("createdAt and status are required");
  }

  // --- restart ---

  @Test
  void reopen_keeps_everything() {
    store.applyCatalogChange(List.of(tool("crm__a"), richTool()), List.of());
    store.applyCatalogChange(List.of(tool("crm__b")), List.of("crm__a"));
    float[] v = randomVector(new Random(3), 384);
    store.saveVectors(MODEL, Map.of("h", v));
    store.savePolicyJson(json(samplePolicy()));
    store.saveServer(server("github", "{\"command\":\"npx\"}"));
    StoredCatalog before = store.loadCatalog();

    StateStore again = reopened();

    assertThat(again.catalogVersion()).isEqualTo(2);
    assertThat(again.loadCatalog()).isEqualTo(before);
    assertThat(rawBits(again.loadVectors(MODEL, List.of("h")).get("h"))).containsExactly(rawBits(v));
    assertThat(again.loadPolicyJson()).contains(json(samplePolicy()));
    assertThat(again.loadServers()).containsExactly(server("github", "{\"command\":\"npx\"}"));
    assertThat(again.applyCatalogChange(List.of(), List.of())).isEqualTo(3);
  }

  // --- fixtures ---

  /** A minimal valid tool. */
  protected static ToolSpec tool(String name) {
    return ToolSpec.builder(name, "Does " + name + " things").build();
  }

  /** A tool using every field: nested parameters, enums, nulls, numbers and text in several scripts. */
  protected static ToolSpec richTool() {
    ObjectNode params =
        json(
            """
            {
              "type": "object",
              "properties": {
                "zeta": {"type": "string", "enum": ["ä", "β", "🚀", "中"], "description": "Ünïcödé — עברית"},
                "address": {
                  "type": "object",
                  "properties": {
                    "street": {"type": "string"},
                    "geo": {"type": "object", "properties": {"lat": {"type": "number"}, "lng": {}}}
                  },
                  "required": ["street"]
                },
                "count": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
                "ratio": {"type": "number", "default": 0.25},
                "flags": {"type": "array", "items": {"type": "boolean"}, "default": [true, false]},
                "maybe": {"type": ["string", "null"], "default": null}
              },
              "required": ["zeta", "address"],
              "additionalProperties": false
            }
            """);
    return ToolSpec.builder("crm__update_contact", "Updates a contact 📇 — Kontakt ändern, 更新联系人, עדכון")
        .sourceKind(SourceKind.MCP)
        .category("crm.contacts")
        .tags(List.of("contacts", "ünïcode", "更新"))
        .parameters(params)
        .aiAccess(AiAccess.PROPOSE)
        .sideEffect(SideEffect.DELETE)
        .dependsOn(List.of("crm__get_contact", "crm__list_contacts"))
        .originalName("Update Contact ✓")
        .build();
  }

  protected static StoredServer server(String name, String configJson) {
    return new StoredServer(name, configJson);
  }

  /** The policy as the engine stores it: the store keeps the JSON opaque. */
  private static String json(AccessPolicy policy) {
    return dev.toolscout.access.AccessPolicyJson.toJson(policy).toString();
  }

  protected static AccessPolicy samplePolicy() {
    return new AccessPolicy(
        Effect.DENY,
        Map.of("kitchen", "home", "home", "house", "garage", "house"),
        List.of(
            new AccessRule(Effect.ALLOW, Target.TOOL, "gmail__list_emails", Subject.USER, "zoë"),
            new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.GROUP, "kids"),
            new AccessRule(Effect.DENY, Target.CATEGORY, "admin", Subject.SPACE, "home"),
            new AccessRule(Effect.ALLOW, Target.CATEGORY, "general", Subject.EVERYONE, null)));
  }

  protected static float[] randomVector(Random random, int dimension) {
    float[] v = new float[dimension];
    for (int i = 0; i < dimension; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return v;
  }

  /** The raw bits, so that NaN and -0.0 compare exactly. */
  protected static int[] rawBits(float[] v) {
    int[] bits = new int[v.length];
    for (int i = 0; i < v.length; i++) {
      bits[i] = Float.floatToRawIntBits(v[i]);
    }
    return bits;
  }

  protected static List<String> names(StoredCatalog catalog) {
    return catalog.tools().stream().map(ToolSpec::fullName).toList();
  }

  private static ObjectNode json(String text) {
    try {
      return (ObjectNode) ToolSpecJson.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }
  // --- skills ---

  @Test
  void skills_round_trip_exactly_in_name_order_and_survive_reopen() {
    StoredSkill db = new StoredSkill("database", "{\"name\":\"database\",\"description\":\"Edits ✓ features\"}");
    StoredSkill maps = new StoredSkill("maps", "{\"name\":\"maps\"}");

    store.saveSkill(maps);
    store.saveSkill(db);

    assertThat(store.loadSkills()).containsExactly(db, maps);
    assertThat(reopened().loadSkills()).containsExactly(db, maps);
  }

  @Test
  void saving_a_skill_again_replaces_it_and_delete_reports_whether_one_was_removed() {
    store.saveSkill(new StoredSkill("database", "{\"v\":1}"));
    store.saveSkill(new StoredSkill("database", "{\"v\":2}"));

    assertThat(store.loadSkills()).containsExactly(new StoredSkill("database", "{\"v\":2}"));
    assertThat(store.deleteSkill("database")).isTrue();
    assertThat(store.deleteSkill("database")).isFalse();
    assertThat(reopened().loadSkills()).isEmpty();
  }

  @Test
  void skills_are_kept_apart_from_the_catalog_and_the_servers() {
    store.saveSkill(new StoredSkill("database", "{}"));

    assertThat(store.loadCatalog().tools()).isEmpty();
    assertThat(store.catalogVersion()).isZero();
    assertThat(store.loadServers()).isEmpty();
  }

  // --- memories ---

  private static StoredMemory memory(String id, String owner, String json) {
    return new StoredMemory(id, "user", owner, json, MODEL, new float[] {0.6f, -0.8f, 0f});
  }

  @Test
  void memories_round_trip_with_their_vectors_in_id_order_and_survive_reopen() {
    StoredMemory b = memory("mem_b", "bob", "{\"content\":\"Bob's dog is called Rex ✓\"}");
    StoredMemory a = new StoredMemory("mem_a", "space", "team", "{\"content\":\"no vector yet\"}", null, null);

    store.saveMemory(b);
    store.saveMemory(a);

    for (List<StoredMemory> loaded : List.of(store.loadMemories(), reopened().loadMemories())) {
      assertThat(loaded).extracting(StoredMemory::id).containsExactly("mem_a", "mem_b");
      assertThat(loaded.get(0).vector()).isNull();
      assertThat(loaded.get(0).modelId()).isNull();
      assertThat(loaded.get(0).scope()).isEqualTo("space");
      assertThat(loaded.get(1).json()).isEqualTo(b.json());
      assertThat(loaded.get(1).owner()).isEqualTo("bob");
      assertThat(loaded.get(1).modelId()).isEqualTo(MODEL);
      assertThat(loaded.get(1).vector()).containsExactly(0.6f, -0.8f, 0f);
    }
  }

  @Test
  void saving_a_memory_again_replaces_it_and_delete_removes_it_for_good() {
    store.saveMemory(memory("mem_a", "ann", "{\"v\":1}"));
    store.saveMemory(memory("mem_a", "ann", "{\"v\":2}"));

    assertThat(store.loadMemories()).extracting(StoredMemory::json).containsExactly("{\"v\":2}");
    assertThat(store.deleteMemory("mem_a")).isTrue();
    assertThat(store.deleteMemory("mem_a")).isFalse();
    assertThat(store.loadMemories()).isEmpty();
    assertThat(reopened().loadMemories()).isEmpty();
  }

  @Test
  void memories_are_kept_apart_from_the_catalog_vectors_and_skills() {
    store.saveMemory(memory("mem_a", "ann", "{}"));

    assertThat(store.loadCatalog().tools()).isEmpty();
    assertThat(store.loadSkills()).isEmpty();
    assertThat(store.loadVectors(MODEL, List.of("mem_a"))).isEmpty();
  }

  // --- conversations ---

  private static StoredConversation conversation(String principal, String id, Instant lastUsed) {
    return new StoredConversation(principal, id, List.of("database", "maps"),
        List.of("kg__read_graph", "geo__distance"), T0, lastUsed);
  }

  @Test
  void conversations_round_trip_exactly_with_their_lists_in_order_and_survive_reopen() {
    StoredConversation c = new StoredConversation("p:ann", "conv-1", List.of("zeta", "alpha", "mid"),
        List.of("z__last", "a__first"), T0, T0.plusSeconds(30));

    store.saveConversation(c);

    assertThat(store.loadConversation("p:ann", "conv-1")).contains(c);
    assertThat(reopened().loadConversation("p:ann", "conv-1")).contains(c);
  }

  @Test
  void a_conversation_is_keyed_by_principal_and_id_so_another_principal_never_reaches_it() {
    store.saveConversation(conversation("p:ann", "shared-id", T0));

    assertThat(store.loadConversation("p:bob", "shared-id")).isEmpty();
    assertThat(store.deleteConversation("p:bob", "shared-id")).isFalse();
    store.saveConversation(new StoredConversation("p:bob", "shared-id", List.of(), List.of(), T0, T0));

    assertThat(store.loadConversation("p:ann", "shared-id")).contains(conversation("p:ann", "shared-id", T0));
    assertThat(store.loadConversation("p:bob", "shared-id").orElseThrow().activeSkills()).isEmpty();
    assertThat(store.conversationCount()).isEqualTo(2);
  }

  @Test
  void saving_a_conversation_again_replaces_its_lists() {
    store.saveConversation(conversation("p:ann", "c", T0));
    StoredConversation shorter =
        new StoredConversation("p:ann", "c", List.of("maps"), List.of(), T0, T0.plusSeconds(5));

    store.saveConversation(shorter);

    assertThat(reopened().loadConversation("p:ann", "c")).contains(shorter);
  }

  @Test
  void deleting_a_conversation_removes_it_with_its_lists() {
    store.saveConversation(conversation("p:ann", "c", T0));

    assertThat(store.deleteConversation("p:ann", "c")).isTrue();
    assertThat(store.deleteConversation("p:ann", "c")).isFalse();
    assertThat(store.loadConversation("p:ann", "c")).isEmpty();
    // a new conversation under the same key starts empty: no rows of the old one survive
    store.saveConversation(new StoredConversation("p:ann", "c", List.of(), List.of(), T0, T0));
    assertThat(reopened().loadConversation("p:ann", "c").orElseThrow().disclosedTools()).isEmpty();
  }

  @Test
  void idle_conversations_are_deleted_by_their_last_use() {
    store.saveConversation(conversation("p:ann", "old", T0));
    store.saveConversation(conversation("p:bob", "edge", T0.plusSeconds(60)));
    store.saveConversation(conversation("p:ann", "new", T0.plusSeconds(61)));

    int removed = store.deleteConversationsUsedBefore(T0.plusSeconds(60));

    assertThat(removed).isEqualTo(1);
    assertThat(store.loadConversation("p:ann", "old")).isEmpty();
    assertThat(store.loadConversation("p:bob", "edge")).isPresent();
    assertThat(reopened().conversationCount()).isEqualTo(2);
  }

  @Test
  void conversation_ids_of_a_principal_come_least_recently_used_first() {
    store.saveConversation(conversation("p:ann", "b", T0.plusSeconds(2)));
    store.saveConversation(conversation("p:ann", "c", T0.plusSeconds(1)));
    store.saveConversation(conversation("p:ann", "a", T0.plusSeconds(2)));
    store.saveConversation(conversation("p:bob", "z", T0));

    assertThat(store.conversationIds("p:ann")).containsExactly("c", "a", "b");
    assertThat(store.conversationIds("p:bob")).containsExactly("z");
    assertThat(store.conversationIds("p:cy")).isEmpty();
  }

  @Test
  void conversation_times_are_kept_to_the_millisecond() {
    StoredConversation c = conversation("p:ann", "c", T0.plusNanos(999_999));

    store.saveConversation(c);

    assertThat(store.loadConversation("p:ann", "c").orElseThrow().lastUsedAt()).isEqualTo(T0);
  }

  // --- the agent's runs and usage records ---

  @Test
  void runs_upsert_by_id_and_load_by_status_and_by_conversation() {
    Instant t = Instant.parse("2026-11-26T08:00:00.123456Z");
    store.saveRun(new StateStore.StoredRun("r1", "p:ann", "c1", "running", null, "{\"a\":1}", t, t));
    store.saveRun(new StateStore.StoredRun("r2", "p:ann", "c1", "done", null, "{}", t.plusSeconds(1), t));
    store.saveRun(new StateStore.StoredRun("r3", "p:bob", "c1", "done", null, "{}", t, t));
    store.saveRun(new StateStore.StoredRun("r1", "p:ann", "c1", "awaiting_approval", "ap-1", "{\"a\":2}", t,
        t.plusSeconds(5)));

    StateStore.StoredRun r1 = store.loadRun("r1").orElseThrow();
    assertThat(r1.status()).isEqualTo("awaiting_approval");
    assertThat(r1.approvalId()).isEqualTo("ap-1");
    assertThat(r1.stateJson()).isEqualTo("{\"a\":2}");
    assertThat(r1.createdAt()).isEqualTo(Instant.parse("2026-11-26T08:00:00.123Z"));
    assertThat(store.loadRunsByStatus("awaiting_approval")).extracting(StateStore.StoredRun::id).containsExactly("r1");
    assertThat(store.loadRuns("p:ann", "c1")).extracting(StateStore.StoredRun::id).containsExactly("r1", "r2");
    assertThat(store.deleteRun("r2")).isTrue();
    assertThat(store.deleteRun("r2")).isFalse();
    assertThat(store.loadRun("r2")).isEmpty();
  }

  @Test
  void usage_records_replace_by_id_and_load_since_a_time_oldest_first() {
    Instant t = Instant.parse("2026-11-26T08:00:00Z");
    store.saveUsage(new StateStore.StoredUsage("u2", t.plusSeconds(2), "p", "c", "{\"n\":2}"));
    store.saveUsage(new StateStore.StoredUsage("u1", t.plusSeconds(1), "p", "c", "{\"n\":1}"));
    store.saveUsage(new StateStore.StoredUsage("u0", t, "p", "c", "{\"n\":0}"));
    store.saveUsage(new StateStore.StoredUsage("u1", t.plusSeconds(3), "p", "c", "{\"n\":11}"));

    assertThat(store.loadUsage(t.plusSeconds(1), 10)).extracting(StateStore.StoredUsage::json)
        .containsExactly("{\"n\":2}", "{\"n\":11}");
    assertThat(store.loadUsage(Instant.EPOCH, 1)).extracting(StateStore.StoredUsage::id).containsExactly("u0");
  }

  @Test
  void learned_pairs_upsert_by_tool_and_message_survive_a_reopen_and_delete_by_tool_or_all() {
    Instant t = Instant.parse("2026-11-26T08:00:00Z");
    store.saveLearned(List.of(
        new StateStore.StoredLearned("b__x", "h1", "book a room", "th-b", "p:ann", "c1", t),
        new StateStore.StoredLearned("a__y", "h1", "book a room", "th-a", null, null, t),
        new StateStore.StoredLearned("a__y", "h2", "cancel it", "th-a", null, null, t.plusSeconds(1))));
    // the same tool and message again replaces the pair
    store.saveLearned(List.of(new StateStore.StoredLearned("b__x", "h1", "book a room", "th-b2", "p:bob", "c2", t)));

    assertThat(reopened().loadLearned()).extracting(StateStore.StoredLearned::tool, StateStore.StoredLearned::messageHash,
            StateStore.StoredLearned::toolHash)
        .containsExactly(tuple("a__y", "h1", "th-a"), tuple("a__y", "h2", "th-a"), tuple("b__x", "h1", "th-b2"));
    assertThat(store.loadLearned().get(2).principal()).isEqualTo("p:bob");
    assertThat(store.loadLearned().get(0).principal()).isNull();

    assertThat(store.deleteLearned(List.of("a__y", "missing"))).isEqualTo(2);
    assertThat(store.loadLearned()).extracting(StateStore.StoredLearned::tool).containsExactly("b__x");
    assertThat(store.deleteLearned(null)).isEqualTo(1);
    assertThat(store.loadLearned()).isEmpty();
  }
}
