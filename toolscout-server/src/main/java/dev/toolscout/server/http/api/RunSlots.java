package dev.toolscout.server.http.api;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/** Counts the agent runs in progress per key and in all against {@link RunLimits}. Thread-safe. */
final class RunSlots {
  /** What a refused run is told to wait: a model's turn takes seconds. */
  static final int RETRY_AFTER_SECONDS = 10;

  private final RunLimits limits;
  private final Semaphore all;
  private final ConcurrentHashMap<String, Integer> perKey = new ConcurrentHashMap<>();

  RunSlots(RunLimits limits) {
    this.limits = limits;
    this.all = new Semaphore(limits.maxRuns());
  }

  /** One run's slot; closing it (once, any number of times) frees it. */
  interface Slot extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * A slot for a run of {@code key}'s, at once or not at all.
   *
   * @throws ApiProblem 429 naming the limit that is reached and its value
   */
  Slot take(String key) {
    boolean[] taken = {false};
    perKey.compute(key, (k, n) -> {
      int now = n == null ? 0 : n;
      if (now >= limits.maxRunsPerKey()) {
        return n;
      }
      taken[0] = true;
      return now + 1;
    });
    if (!taken[0]) {
      throw ApiProblem.tooMany("too-many-runs", "Too many runs", "this API key has " + limits.maxRunsPerKey()
          + " agent runs in progress, the most one key may have (--max-runs-per-key " + limits.maxRunsPerKey()
          + "); retry once one has ended", "max-runs-per-key", limits.maxRunsPerKey(), RETRY_AFTER_SECONDS);
    }
    if (!all.tryAcquire()) {
      release(key);
      throw ApiProblem.tooMany("too-many-runs", "Too many runs", "the server has " + limits.maxRuns()
          + " agent runs in progress, the most it runs at once (--max-runs " + limits.maxRuns() + "); retry once "
          + "one has ended", "max-runs", limits.maxRuns(), RETRY_AFTER_SECONDS);
    }
    java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
    return () -> {
      if (open.getAndSet(false)) {
        all.release();
        release(key);
      }
    };
  }

  private void release(String key) {
    perKey.compute(key, (k, n) -> n == null || n <= 1 ? null : n - 1);
  }

  /** The runs in progress now, in all. */
  int inProgress() {
    return limits.maxRuns() - all.availablePermits();
  }
}
