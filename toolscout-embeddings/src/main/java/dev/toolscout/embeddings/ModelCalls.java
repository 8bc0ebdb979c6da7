package dev.toolscout.embeddings;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Bounds how many calls of one model run at once: a caller past the bound waits, first come first served, for a
 * call to end. The bound is set by {@link LocalEmbeddingModels#MODEL_CALLS}; none by default.
 *
 * <p>Why it exists: each model call runs on its caller's thread with one intra-op thread ({@link BundledOnnxModels}), so 32
 * request threads were 32 model calls time-sliced over 2 cores, each evicting the others' activations from the
 * caches (the hypothesis for in-process {@code select} measuring slower than HTTP at 8 and 32 clients). Measured
 * with {@code bench-http --model-calls 0,cores}, the bound to the cores did not come out better: the process's CPU
 * per selection was the same or 0.2-0.5 ms higher with it (each turn handed over wakes a parked thread), and
 * throughput moved either way with the machine's other load (docs/BENCHMARKS.md, "HTTP API against in-process").
 * So it is off by default, kept for a machine where it measures better.
 *
 * <p>A lone caller never waits. A caller waits at most for the calls queued before it: about {@code queued /
 * bound} calls' time. The wait ignores interrupts (a model call takes milliseconds) and keeps the thread's
 * interrupt status. Thread-safe.
 */
final class ModelCalls {
    /** No bound: every caller runs its call at once. */
    static final ModelCalls UNBOUNDED = new ModelCalls(0);

    private final int bound;
    private final Semaphore permits;

    /** @param bound calls at once; 0 for no bound */
    ModelCalls(int bound) {
        if (bound < 0) {
            throw new IllegalArgumentException("model calls at once must be >= 0 (0: no bound), got: " + bound);
        }
        this.bound = bound;
        this.permits = bound == 0 ? null : new Semaphore(bound, true);
    }

    /** How many calls run at once; 0 for no bound. */
    int bound() {
        return bound;
    }

    /** How many callers wait for their turn now (for tests: a condition to wait on). */
    int waiting() {
        return permits == null ? 0 : permits.getQueueLength();
    }

    /** Runs {@code call} once fewer than {@link #bound()} other calls are running. */
    <T> T run(Supplier<T> call) {
        if (permits == null) {
            return call.get();
        }
        permits.acquireUninterruptibly();
        try {
            return call.get();
        } finally {
            permits.release();
        }
    }

    @Override
    public String toString() {
        return bound == 0 ? "unbounded" : bound + " at once";
    }
}
