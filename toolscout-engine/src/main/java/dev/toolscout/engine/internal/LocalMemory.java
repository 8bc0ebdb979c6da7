package dev.toolscout.engine.internal;

import dev.toolscout.engine.MemoryService;
import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryIndex;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryTools;
import dev.toolscout.memory.MemoryType;
import dev.toolscout.model.Principal;
import java.util.List;
import java.util.Optional;

/** {@link MemoryService} over the engine's memories; writes refused when read-only. */
final class LocalMemory implements MemoryService {
  private final LocalToolScout scout;

  LocalMemory(LocalToolScout scout) {
    this.scout = scout;
  }

  @Override
  public Memory store(Principal principal, MemoryScope scope, MemoryType type, String content,
      String conversationId) {
    scout.writable("store a memory");
    if (conversationId != null) {
      dev.toolscout.conversation.Conversations.checkId(conversationId);
    }
    return scout.engine().memories().store(LocalToolScout.who(principal),
        java.util.Objects.requireNonNull(scope, "scope"),
        java.util.Objects.requireNonNull(type, "type"), content, conversationId);
  }

  @Override
  public Optional<Memory> correct(Principal principal, String id, String content, MemoryType type) {
    scout.writable("correct a memory");
    return scout.engine().memories().correct(LocalToolScout.who(principal), id, content, type);
  }

  @Override
  public Optional<Memory> get(Principal principal, String id) {
    scout.open();
    return scout.engine().memories().get(LocalToolScout.who(principal), id);
  }

  @Override
  public List<MemoryIndex.Hit> search(Principal principal, String query, MemoryType type, int limit) {
    scout.open();
    checkLimit(limit);
    return scout.engine().memories().search(LocalToolScout.who(principal), query, type, limit);
  }

  @Override
  public List<Memory> recent(Principal principal, MemoryType type, int limit) {
    scout.open();
    checkLimit(limit);
    return scout.engine().memories().recent(LocalToolScout.who(principal), type, limit);
  }

  @Override
  public boolean forget(Principal principal, String id) {
    scout.writable("forget a memory");
    return scout.engine().memories().forget(LocalToolScout.who(principal), id);
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > MemoryTools.MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + MemoryTools.MAX_LIMIT + ", got: " + limit);
    }
  }
}
