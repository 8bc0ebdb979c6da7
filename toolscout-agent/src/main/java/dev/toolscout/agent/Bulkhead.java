package dev.toolscout.agent;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the calls in progress to one remote service (an LLM provider, an imported HTTP API): at most {@code max}
 * at a time; one more waits, first come first served, at most {@code maxWait} for one to end, then fails with a
 * {@link Full} that names the service, the limit, its value and the option that sets it. So a slow or hanging
 * service holds a known number of connections and threads, and a caller learns it is busy instead of waiting
 * without end (the MCP upstreams' {@code --max-upstream-calls} works the same way, failing at once). Thread-safe.
 */
public final class Bulkhead {
    /** The most LLM provider calls in progress at once, per provider (each run makes one at a time). */
    public static final int DEFAULT_PROVIDER_CALLS = 64;
    /** How long a provider call waits for a free slot: two default provider timeouts (60 s each). */
    public static final Duration DEFAULT_PROVIDER_WAIT = Duration.ofSeconds(120);

    private final String service;
    private final String option;
    private final int max;
    private final Duration maxWait;
    private final Semaphore slots;

    /**
     * @param service what the error calls the service, e.g. {@code anthropic/claude-sonnet-4-5}
     * @param option the setting that raises {@code max}, e.g. {@code --max-provider-calls}
     * @param max the most calls in progress (1-10000)
     * @param maxWait the longest a call waits for a slot (zero: it fails at once when all are taken)
     */
    public Bulkhead(String service, String option, int max, Duration maxWait) {
        this.service = Objects.requireNonNull(service, "service");
        this.option = Objects.requireNonNull(option, "option");
        if (max < 1 || max > 10_000) {
            throw new IllegalArgumentException(option + " must be between 1 and 10000, got: " + max);
        }
        if (maxWait == null || maxWait.isNegative() || maxWait.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("the wait for a free call slot of " + service + " must be between 0 and "
                    + "1 hour, got: " + maxWait);
        }
        this.max = max;
        this.maxWait = maxWait;
        this.slots = new Semaphore(max, true);
    }

    /** The bulkhead of a provider with the defaults ({@value #DEFAULT_PROVIDER_CALLS} calls, 120 s wait). */
    public static Bulkhead provider(String name) {
        return new Bulkhead(name, "--max-provider-calls", DEFAULT_PROVIDER_CALLS, DEFAULT_PROVIDER_WAIT);
    }

    /** One call's slot: closing it frees the slot. */
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Takes a slot, waiting at most the bound for one.
     *
     * @throws Full when none became free in time
     * @throws InterruptedException when the caller is interrupted while it waits
     */
    public Slot enter() throws InterruptedException {
        if (!slots.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new Full(String.format(
                    Locale.ROOT,
                    "%s is busy: %d calls to it are in progress, the most allowed "
                            + "(%s %d), and none ended within %s; try again later",
                    service,
                    max,
                    option,
                    max,
                    seconds(maxWait)));
        }
        java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
        return () -> {
            if (open.getAndSet(false)) {
                slots.release();
            }
        };
    }

    /** The calls in progress now. */
    public int inProgress() {
        return max - slots.availablePermits();
    }

    public int max() {
        return max;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** All slots stayed taken for the whole wait: retriable, later. The message says which limit and its value. */
    public static final class Full extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Full(String message) {
            super(message);
        }
    }
}
