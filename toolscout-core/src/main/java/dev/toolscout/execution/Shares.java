package dev.toolscout.execution;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each caller holds of a shared resource, counted per key (a principal) and capped per key, so that one
 * caller never takes all of it: the agent runs in progress of one principal, its calls in progress on one
 * upstream server. {@link #tryTake} and {@link #release} pair up; a key that holds nothing keeps no entry.
 * Thread-safe.
 *
 * @param <K> the key, e.g. a principal
 */
public final class Shares<K> {
    private final int cap;
    private final ConcurrentHashMap<K, Integer> held = new ConcurrentHashMap<>();

    /** @throws IllegalArgumentException when {@code cap} is below 1 */
    public Shares(int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("a share must be at least 1, got: " + cap);
        }
        this.cap = cap;
    }

    /** The most one key may hold at once. */
    public int cap() {
        return cap;
    }

    /** One more for {@code key}, unless it holds {@link #cap} already: whether it was taken. */
    public boolean tryTake(K key) {
        Objects.requireNonNull(key, "key");
        boolean[] taken = {false};
        held.compute(key, (k, n) -> {
            int now = n == null ? 0 : n;
            if (now >= cap) {
                return n;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    /** Gives back one that {@code key} took. */
    public void release(K key) {
        held.compute(Objects.requireNonNull(key, "key"), (k, n) -> n == null || n <= 1 ? null : n - 1);
    }

    /** What {@code key} holds now. */
    public int held(K key) {
        return held.getOrDefault(key, 0);
    }
}
