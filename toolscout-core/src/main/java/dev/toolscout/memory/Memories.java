package dev.toolscout.memory;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.memory.MemoryStore.StoredMemory;
import dev.toolscout.model.Principal;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Long-term memory: facts, preferences, events and notes, each in a scope (a user's own, a group's, a space's)
 * that decides who reads it. Written to the {@link MemoryStore} first, with the vector of its text (so a restart
 * embeds nothing), then visible, then published as {@link MemoryEvent}s (to the {@link MemoryIndex}).
 *
 * <p>Access, before anything else (docs/MEMORY.md): a principal reads the memories of its own user scope, its
 * group's, and its space's and every space above it in the access policy's tree; it writes only into its own user,
 * group or space (never into a scope named by an argument). A memory it may not read and a missing one are
 * answered alike ({@link Optional#empty()}, {@code false}). Forgetting removes the row with its text and vector
 * (the store overwrites deleted content, see {@link MemoryStore#deleteMemory}) and the index entry.
 *
 * <p>Limits: {@value #MAX_CONTENT_CHARS} characters a memory, {@value #MAX_PER_SCOPE} memories a scope,
 * {@value #MAX_TOTAL} in all; past them a store is refused, naming the limit.
 *
 * <p>Thread-safety: readers see an immutable map; writers are serialized.
 */
public final class Memories {
    /** The longest memory, in characters: a short self-contained statement, not a document. */
    public static final int MAX_CONTENT_CHARS = 4_000;
    /** The most memories one scope (one user's, one group's, one space's) keeps. */
    public static final int MAX_PER_SCOPE = 5_000;
    /** The most memories kept in all (their vectors are held in memory: about 1.5 KiB each). */
    public static final int MAX_TOTAL = 50_000;

    private static final SecureRandom IDS = new SecureRandom();

    private final MemoryStore store;
    private final EmbeddingModel model;
    private final Supplier<AccessPolicy> policy;
    private final Clock clock;
    private final MemoryIndex index;
    private final Consumer<? super List<MemoryEvent>> events;
    private volatile Map<String, Memory> byId;
    private final java.util.concurrent.atomic.AtomicLong version = new java.util.concurrent.atomic.AtomicLong();

    private Memories(
            MemoryStore store,
            EmbeddingModel model,
            Supplier<AccessPolicy> policy,
            Clock clock,
            MemoryIndex index,
            Consumer<? super List<MemoryEvent>> events,
            Map<String, Memory> initial) {
        this.store = store;
        this.model = model;
        this.policy = policy;
        this.clock = clock;
        this.index = index;
        this.events = events;
        this.byId = initial;
    }

    /**
     * Loads the memories from the store and indexes them, embedding only those stored with another model's vector
     * and storing the new vectors ({@code readOnly}: embedding and storing nothing, those memories are not searched).
     *
     * @param policy the access policy in force, read on every call (its space tree decides space membership)
     * @param events receives each change's events, in order, after the change is durable
     * @throws IllegalStateException naming the memory when a stored one cannot be read
     */
    public static Memories load(
            MemoryStore store,
            EmbeddingModel model,
            Supplier<AccessPolicy> policy,
            Clock clock,
            MemoryIndex index,
            Consumer<? super List<MemoryEvent>> events,
            boolean readOnly) {
        Map<String, Memory> m = new TreeMap<>();
        Map<Memory, float[]> vectors = new LinkedHashMap<>();
        List<StoredMemory> stale = new ArrayList<>();
        for (StoredMemory s : store.loadMemories()) {
            Memory memory = MemoryJson.fromStoredJson(s.id(), s.json());
            m.put(memory.id(), memory);
            if (model.modelId().equals(s.modelId()) && s.vector() != null && s.vector().length == model.dimension()) {
                vectors.put(memory, s.vector());
            } else {
                stale.add(s);
            }
        }
        if (!stale.isEmpty() && readOnly) {
            // a read-only opening embeds nothing: memories with no vector of this model stay out of searches
            stale.clear();
        }
        if (!stale.isEmpty()) {
            List<float[]> fresh = model.embedDocuments(
                    stale.stream().map(s -> m.get(s.id()).content()).toList());
            for (int i = 0; i < stale.size(); i++) {
                StoredMemory s = stale.get(i);
                vectors.put(m.get(s.id()), fresh.get(i));
                if (!readOnly) {
                    store.saveMemory(
                            new StoredMemory(s.id(), s.scope(), s.owner(), s.json(), model.modelId(), fresh.get(i)));
                }
            }
        }
        index.rebuild(vectors);
        return new Memories(store, model, policy, clock, index, events, Collections.unmodifiableMap(m));
    }

    /**
     * Reads the memories again from the store, for a replica sharing it with writers in other processes: the map and
     * the index become the store's, with the stored vectors. A memory with no vector of this model is left out of
     * searches until a start embeds it (this replica writes nothing here). No events are published: the changes are
     * other processes' and were theirs to announce.
     */
    public synchronized void reload() {
        Map<String, Memory> m = new TreeMap<>();
        Map<Memory, float[]> vectors = new LinkedHashMap<>();
        for (StoredMemory s : store.loadMemories()) {
            Memory memory = MemoryJson.fromStoredJson(s.id(), s.json());
            m.put(memory.id(), memory);
            if (model.modelId().equals(s.modelId()) && s.vector() != null && s.vector().length == model.dimension()) {
                vectors.put(memory, s.vector());
            }
        }
        index.rebuild(vectors);
        byId = Collections.unmodifiableMap(m);
        version.incrementAndGet();
    }

    /** The index these memories keep current (the router searches it). */
    public MemoryIndex index() {
        return index;
    }

    /** How many memories are kept, in every scope. */
    public int size() {
        return byId.size();
    }

    /** Grows by one with every change. */
    public long version() {
        return version.get();
    }

    /** The private scope's owner of {@code p}: its user, or the empty string for principals with no user. */
    static String userKey(Principal p) {
        return p.user() == null ? "" : p.user();
    }

    /**
     * The scope keys {@code p} may read: its user's, its group's, its space's and every space above it (nearest
     * first), in that order.
     */
    public List<String> readableScopes(Principal p) {
        Set<String> out = new LinkedHashSet<>();
        out.add(Memory.scopeKey(MemoryScope.USER, userKey(p)));
        if (p.group() != null) {
            out.add(Memory.scopeKey(MemoryScope.GROUP, p.group()));
        }
        if (p.space() != null) {
            for (String s : policy.get().spaceChain(p.space())) {
                out.add(Memory.scopeKey(MemoryScope.SPACE, s));
            }
        }
        return List.copyOf(out);
    }

    /**
     * Memory {@code id} when {@code p} may change it: one of its own user's, group's or space's. A space above its
     * own is readable, not writable: someone working in a child space neither corrects nor forgets the parent's.
     */
    private Optional<Memory> writable(Principal p, String id) {
        return get(p, id).filter(m -> {
            String owner = switch (m.scope()) {
                case USER -> userKey(p);
                case GROUP -> p.group();
                case SPACE -> p.space();
            };
            return owner != null && m.scopeKey().equals(Memory.scopeKey(m.scope(), owner));
        });
    }

    /** Whether {@code p} may read {@code m}. */
    public boolean readable(Principal p, Memory m) {
        return readableScopes(p).contains(m.scopeKey());
    }

    /**
     * The owner {@code p} writes {@code scope} as.
     *
     * @throws IllegalArgumentException when {@code p} has no group (for {@code group}) or no space (for {@code
     *     space})
     */
    static String writableOwner(Principal p, MemoryScope scope) {
        return switch (scope) {
            case USER -> userKey(p);
            case GROUP -> {
                if (p.group() == null) {
                    throw new IllegalArgumentException("scope must name a scope the caller belongs to: 'group' needs a "
                            + "principal with a group, and this one has none; got: 'group'");
                }
                yield p.group();
            }
            case SPACE -> {
                if (p.space() == null) {
                    throw new IllegalArgumentException("scope must name a scope the caller belongs to: 'space' needs a "
                            + "principal working in a space, and this one has none; got: 'space'");
                }
                yield p.space();
            }
        };
    }

    /** The memory {@code id} if {@code p} may read it: empty for an unreadable and a missing one alike. */
    public Optional<Memory> get(Principal p, String id) {
        Memory m = id == null ? null : byId.get(id.strip());
        return m != null && readable(p, m) ? Optional.of(m) : Optional.empty();
    }

    /**
     * The memories {@code p} may read, newest first (by last change, then id), at most {@code limit}.
     *
     * @param type only this type, or {@code null} for all
     */
    public List<Memory> recent(Principal p, MemoryType type, int limit) {
        Set<String> scopes = Set.copyOf(readableScopes(p));
        return byId.values().stream()
                .filter(m -> scopes.contains(m.scopeKey()) && (type == null || m.type() == type))
                .sorted(Comparator.comparing(Memory::updatedAt).reversed().thenComparing(Memory::id))
                .limit(limit)
                .toList();
    }

    /**
     * The memories {@code p} may read nearest in meaning to {@code query}, best first, with their cosine.
     *
     * @param type only this type, or {@code null} for all
     */
    public List<MemoryIndex.Hit> search(Principal p, String query, MemoryType type, int limit) {
        checkContent("query", query);
        return search(p, model.embedDocuments(List.of(query.strip())).get(0), type, limit);
    }

    /**
     * As {@link #search(Principal, String, MemoryType, int)} for a vector already embedded as a document by this
     * memory's model (the router's: it embeds a message once).
     */
    public List<MemoryIndex.Hit> search(Principal p, float[] vector, MemoryType type, int limit) {
        List<String> scopes = readableScopes(p);
        return index.search(vector, scopes, type == null ? Set.of() : Set.of(type), limit);
    }

    /** The model memories are embedded with (as documents, their queries too: like for like). */
    public EmbeddingModel model() {
        return model;
    }

    /**
     * Stores a new memory in {@code p}'s own {@code scope}, durable on return.
     *
     * @param conversationId the conversation it is stored in, or {@code null}
     * @throws IllegalArgumentException for blank or too long content, a scope {@code p} does not belong to, or a full
     *     scope or store (nothing is stored)
     */
    public synchronized Memory store(
            Principal p, MemoryScope scope, MemoryType type, String content, String conversationId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(type, "type");
        checkContent("content", content);
        String owner = writableOwner(p, scope);
        String key = Memory.scopeKey(scope, owner);
        if (index.count(key) >= MAX_PER_SCOPE) {
            throw new IllegalArgumentException("a memory scope keeps at most " + MAX_PER_SCOPE + " memories, and this "
                    + scope.id() + " scope has " + index.count(key) + "; forget some first; nothing was stored");
        }
        if (byId.size() >= MAX_TOTAL) {
            throw new IllegalArgumentException("ToolScout keeps at most " + MAX_TOTAL + " memories in all, and holds "
                    + byId.size() + "; forget some first; nothing was stored");
        }
        String text = content.strip();
        float[] vector = model.embedDocuments(List.of(text)).get(0);
        Instant now = clock.instant();
        Memory m = new Memory(newId(), scope, owner, type, text, p.user(), conversationId, now, now);
        store.saveMemory(
                new StoredMemory(m.id(), scope.id(), owner, MemoryJson.toStoredJson(m), model.modelId(), vector));
        publish(m.id(), m, new MemoryEvent.Stored(m, model.modelId(), vector));
        return m;
    }

    /**
     * Corrects memory {@code id} ({@code memory.corrected}): new content, and a new type unless {@code type} is
     * null. The id, scope and creation time stay.
     *
     * @return the corrected memory; empty when {@code p} may not change it (see {@link #writable}) or there is none
     *     (alike)
     * @throws IllegalArgumentException for blank or too long content (nothing is changed)
     */
    public synchronized Optional<Memory> correct(Principal p, String id, String content, MemoryType type) {
        checkContent("content", content);
        Optional<Memory> found = writable(p, id);
        if (found.isEmpty()) {
            return found;
        }
        Memory before = found.get();
        String text = content.strip();
        float[] vector = model.embedDocuments(List.of(text)).get(0);
        Memory after = before.corrected(text, type == null ? before.type() : type, clock.instant());
        store.saveMemory(new StoredMemory(
                after.id(),
                after.scope().id(),
                after.owner(),
                MemoryJson.toStoredJson(after),
                model.modelId(),
                vector));
        publish(after.id(), after, new MemoryEvent.Corrected(before, after, model.modelId(), vector));
        return Optional.of(after);
    }

    /**
     * Forgets memory {@code id} for good ({@code memory.deleted}): its row, text and vector leave the store, and
     * the index drops it.
     *
     * @return true when it was forgotten; false when {@code p} may not change it (see {@link #writable}) or there is
     *     none (alike)
     */
    public synchronized boolean forget(Principal p, String id) {
        Optional<Memory> found = writable(p, id);
        if (found.isEmpty()) {
            return false;
        }
        store.deleteMemory(found.get().id());
        publish(found.get().id(), null, new MemoryEvent.Deleted(found.get()));
        return true;
    }

    private void publish(String id, Memory now, MemoryEvent e) {
        Map<String, Memory> next = new TreeMap<>(byId);
        if (now == null) {
            next.remove(id);
        } else {
            next.put(id, now);
        }
        byId = Collections.unmodifiableMap(next);
        version.incrementAndGet();
        events.accept(List.of(e));
    }

    private static void checkContent(String input, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(
                    input + " must not be blank, got: '" + (text == null ? "null" : text) + "'");
        }
        if (text.length() > MAX_CONTENT_CHARS) {
            throw new IllegalArgumentException(String.format(
                    java.util.Locale.ROOT,
                    "%s must be at most %,d characters, got: %,d characters",
                    input,
                    MAX_CONTENT_CHARS,
                    text.length()));
        }
    }

    private static String newId() {
        byte[] b = new byte[10];
        IDS.nextBytes(b);
        return "mem_" + HexFormat.of().formatHex(b);
    }
}
