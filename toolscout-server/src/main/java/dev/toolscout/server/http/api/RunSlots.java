package dev.toolscout.server.http.api;

import dev.toolscout.execution.Shares;
import java.util.concurrent.Semaphore;

/** Counts the agent runs in progress per principal and in all against {@link RunLimits}. Thread-safe. */
final class RunSlots {
    /** What a refused run is told to wait: a model's turn takes seconds. */
    static final int RETRY_AFTER_SECONDS = 10;

    private final RunLimits limits;
    private final Semaphore all;
    private final Shares<dev.toolscout.model.Principal> perPrincipal;

    RunSlots(RunLimits limits) {
        this.limits = limits;
        this.all = new Semaphore(limits.maxRuns());
        this.perPrincipal = new Shares<>(limits.maxRunsPerPrincipal());
    }

    /** One run's slot; closing it (once, any number of times) frees it. */
    interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * A slot for a run of {@code principal}'s, at once or not at all.
     *
     * @throws ApiProblem 429 naming the limit that is reached and its value
     */
    Slot take(dev.toolscout.model.Principal principal) {
        if (!perPrincipal.tryTake(principal)) {
            throw ApiProblem.tooMany(
                    "too-many-runs",
                    "Too many runs",
                    "this caller's principal (its API key's user, "
                            + "group and space) has " + limits.maxRunsPerPrincipal()
                            + " agent runs in progress, the most one principal "
                            + "may have (--max-runs-per-principal " + limits.maxRunsPerPrincipal()
                            + "); retry once one has ended",
                    "max-runs-per-principal",
                    limits.maxRunsPerPrincipal(),
                    RETRY_AFTER_SECONDS);
        }
        if (!all.tryAcquire()) {
            perPrincipal.release(principal);
            throw ApiProblem.tooMany(
                    "too-many-runs",
                    "Too many runs",
                    "the server has " + limits.maxRuns()
                            + " agent runs in progress, the most it runs at once (--max-runs " + limits.maxRuns()
                            + "); retry once "
                            + "one has ended",
                    "max-runs",
                    limits.maxRuns(),
                    RETRY_AFTER_SECONDS);
        }
        java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
        return () -> {
            if (open.getAndSet(false)) {
                all.release();
                perPrincipal.release(principal);
            }
        };
    }

    /** The runs in progress now, in all. */
    int inProgress() {
        return limits.maxRuns() - all.availablePermits();
    }
}
