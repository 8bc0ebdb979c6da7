package dev.toolscout.memory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The memories' vectors in memory, one small map per scope ({@link Memory#scopeKey()}), searched exactly: a
 * principal's search reads only the scopes it may read, so another scope's memories never affect a score or a
 * count. Memories are few per scope ({@value Memories#MAX_PER_SCOPE} at most), so an exact scan is quicker than
 * any index structure and needs no tuning.
 *
 * <p>Kept current by {@link MemoryEvent}s ({@link #onEvents}); {@link #rebuild} at start. The seam to a general
 * indexer: it reads the events and the vectors they carry, nothing else of {@link Memories}.
 *
 * <p>Thread-safety: searches read an immutable snapshot; writers are serialized.
 */
public final class MemoryIndex {
    private volatile Map<String, Map<String, Entry>> byScope = Map.of();

    /** One indexed memory. */
    private record Entry(Memory memory, float[] vector) {}

    /**
     * A memory that matched.
     *
     * @param cosine the cosine similarity of its vector to the query's
     */
    public record Hit(Memory memory, double cosine) {}

    /** Indexes exactly these memories with their vectors. */
    public synchronized void rebuild(Map<Memory, float[]> memories) {
        Map<String, Map<String, Entry>> next = new HashMap<>();
        memories.forEach((m, v) ->
                next.computeIfAbsent(m.scopeKey(), k -> new HashMap<>()).put(m.id(), new Entry(m, v)));
        byScope = freeze(next);
    }

    /** Applies memory changes (subscribe this to the event bus). */
    public synchronized void onEvents(List<MemoryEvent> batch) {
        Map<String, Map<String, Entry>> next = new HashMap<>();
        byScope.forEach((k, v) -> next.put(k, new HashMap<>(v)));
        for (MemoryEvent e : batch) {
            switch (e) {
                case MemoryEvent.Stored s ->
                    next.computeIfAbsent(s.memory().scopeKey(), k -> new HashMap<>())
                            .put(s.id(), new Entry(s.memory(), s.vector()));
                case MemoryEvent.Corrected c ->
                    next.computeIfAbsent(c.after().scopeKey(), k -> new HashMap<>())
                            .put(c.id(), new Entry(c.after(), c.vector()));
                case MemoryEvent.Deleted d -> {
                    Map<String, Entry> scope = next.get(d.memory().scopeKey());
                    if (scope != null) {
                        scope.remove(d.id());
                        if (scope.isEmpty()) {
                            next.remove(d.memory().scopeKey());
                        }
                    }
                }
            }
        }
        byScope = freeze(next);
    }

    private static Map<String, Map<String, Entry>> freeze(Map<String, Map<String, Entry>> m) {
        Map<String, Map<String, Entry>> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k, Map.copyOf(v)));
        return Map.copyOf(out);
    }

    /** How many memories are indexed, in every scope. */
    public int size() {
        return byScope.values().stream().mapToInt(Map::size).sum();
    }

    /** Whether memory {@code id} is indexed (in any scope). */
    public boolean contains(String id) {
        return byScope.values().stream().anyMatch(s -> s.containsKey(id));
    }

    /**
     * The memories of {@code scopes} nearest to {@code vector}, best first (ties by id), at most {@code limit}.
     *
     * @param scopes the scope keys the caller may read (access control, applied before anything is scored)
     * @param types only these types, or every type when empty
     */
    public List<Hit> search(float[] vector, Collection<String> scopes, Set<MemoryType> types, int limit) {
        Map<String, Map<String, Entry>> snap = byScope;
        List<Hit> out = new ArrayList<>();
        for (String s : scopes) {
            Map<String, Entry> scope = snap.get(s);
            if (scope == null) {
                continue;
            }
            for (Entry e : scope.values()) {
                if (types.isEmpty() || types.contains(e.memory().type())) {
                    out.add(new Hit(e.memory(), dot(vector, e.vector())));
                }
            }
        }
        out.sort(Comparator.comparingDouble((Hit h) -> -h.cosine())
                .thenComparing(h -> h.memory().id()));
        return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
    }

    /** How many memories scope {@code key} holds. */
    int count(String key) {
        Map<String, Entry> s = byScope.get(key);
        return s == null ? 0 : s.size();
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
