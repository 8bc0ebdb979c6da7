package dev.toolscout.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.catalog.CatalogStore.StoredCatalog;
import dev.toolscout.conversation.ConversationStore.StoredConversation;
import dev.toolscout.memory.MemoryStore.StoredMemory;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.servers.ServerStore.StoredServer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the store contracts share: a new store before each test, closed after, a way to reopen it as after a restart,
 * and the fixtures. Each concept's contract ({@code CatalogStoreContract}, {@code ApprovalStoreContract}, ...)
 * extends it; a store module runs every one against each of its implementations (SQLite, PostgreSQL). A subclass
 * supplies {@link #newStore()} and {@link #reopen()}.
 */
public abstract class StoreContract {
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

    // --- fixtures ---

    /** A minimal valid tool. */
    protected static ToolSpec tool(String name) {
        return ToolSpec.builder(name, "Does " + name + " things").build();
    }

    /** A tool using every field: nested parameters, enums, nulls, numbers and text in several scripts. */
    protected static ToolSpec richTool() {
        ObjectNode params = json("""
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
    protected static String json(AccessPolicy policy) {
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

    protected static ObjectNode json(String text) {
        try {
            return (ObjectNode) ToolSpecJson.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    protected static final String COUNTER = "cl100k_base/anthropic-definition-v1";

    protected static final Instant T0 = Instant.parse("2026-01-02T03:04:05.678Z");

    protected static StoredApproval approval(String id, Instant created) {
        return StoredApproval.pending(
                id, "key:alice", "kg__delete_entities", "{\"entityNames\":[\"Temp ✓\"]}", "hash-" + id, created);
    }

    protected static StoredMemory memory(String id, String owner, String json) {
        return new StoredMemory(id, "user", owner, json, MODEL, new float[] {0.6f, -0.8f, 0f});
    }

    protected static StoredConversation conversation(String principal, String id, Instant lastUsed) {
        return new StoredConversation(
                principal, id, List.of("database", "maps"), List.of("kg__read_graph", "geo__distance"), T0, lastUsed);
    }
}
