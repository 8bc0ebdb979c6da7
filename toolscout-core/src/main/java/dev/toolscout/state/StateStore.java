package dev.toolscout.state;

import dev.toolscout.access.PolicyStore;
import dev.toolscout.approval.ApprovalStore;
import dev.toolscout.catalog.CatalogStore;
import dev.toolscout.conversation.ConversationStore;
import dev.toolscout.embedding.VectorStore;
import dev.toolscout.learning.LearnedStore;
import dev.toolscout.memory.MemoryStore;
import dev.toolscout.openapi.OpenApiSourceStore;
import dev.toolscout.render.TokenCountStore;
import dev.toolscout.runs.RunStore;
import dev.toolscout.runs.UsageStore;
import dev.toolscout.servers.ServerStore;
import dev.toolscout.skills.SkillStore;

/**
 * Every store of one concept in one: what the engine opens (SQLite or PostgreSQL) and hands each part to the code
 * that needs it. Durable state: the catalog, the embedding vectors, the access policy, the registered upstream MCP
 * servers, the approval requests, the skills, the conversations, the memories, and each tool definition's token
 * count (a cache, by content hash and counter). The search index is rebuilt from what is here, so nothing
 * acknowledged by a method below may be lost by a crash after it returns. Implementations: SQLite (one node, the
 * default) and PostgreSQL (shared by replicas). Thread-safe.
 *
 * <p>Vectors are keyed by the hash of the text that was embedded and the model id, so an unchanged tool is
 * never embedded twice and a vector from another model is never used.
 *
 * <p>Each concept's methods are declared (and documented) in its own small interface, in that concept's package:
 * {@link CatalogStore}, {@link VectorStore}, {@link TokenCountStore}, {@link PolicyStore}, {@link ServerStore},
 * {@link OpenApiSourceStore}, {@link ApprovalStore}, {@link SkillStore}, {@link ConversationStore},
 * {@link MemoryStore}, {@link LearnedStore}, {@link RunStore} and {@link UsageStore}; code that needs one concept
 * takes that interface. This package depends on every concept's package, and none of them depends on it.
 */
public interface StateStore
        extends CatalogStore,
                VectorStore,
                TokenCountStore,
                PolicyStore,
                ServerStore,
                OpenApiSourceStore,
                ApprovalStore,
                SkillStore,
                ConversationStore,
                MemoryStore,
                LearnedStore,
                RunStore,
                UsageStore,
                AutoCloseable {
    @Override
    void close();
}
