package dev.toolscout.engine;

/** A listener's registration with {@link ToolScout#subscribe}; closing it stops the deliveries. Idempotent. */
public interface Subscription extends AutoCloseable {
    @Override
    void close();
}
