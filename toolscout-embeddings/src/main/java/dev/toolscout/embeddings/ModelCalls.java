package dev.toolscout.embeddings;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Bounds how many calls of one model run at once: a caller past the bound waits, first come first served, for a
 * call to end. The bound is the number of cores by default ({@link LocalEmbeddingModels#MODEL_CALLS}).
 *
 * <p>Why: each model call runs on its caller's thread with one intra-op thread ({@link BundledOnnxModels}), so 32
 * request threads were 32 model calls time-sliced over 2 cores, each evicting the others' activations from the
 * caches and each finishing late; the lexical searches, on virtual threads, waited behind them for a carrier.
 * Measured with {@code bench-http}: in-process {@code select} at 8 and 32 clients was slower than the same
 * selection over HTTP, whose Jetty threads spend part of their time off the CPU (docs/BENCHMARKS.md, "HTTP API
 * against in-process"). With the bound, the waiting callers sleep instead, and every call runs on a warm core.
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
