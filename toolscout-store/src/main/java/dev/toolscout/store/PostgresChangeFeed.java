package dev.toolscout.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells one replica what other processes changed in a {@link PostgresStateStore}: a thread holds a connection of
 * its own that {@code LISTEN}s on {@link PostgresStateStore#CHANNEL}, and after each notification (and every
 * {@code poll}, in case one was lost) reads the change log since the last change it handed on ({@link
 * PostgresStateStore#changesSince}) and gives the result to the consumer. A notification is only a wake-up: what
 * changed always comes from the log, so a lost notification, a reconnect or a restart lose nothing.
 *
 * <p>When the server cannot be reached the feed says so ({@link #connected()} false), keeps trying every second
 * or so, and catches up when it is back. The consumer runs on the feed's thread, one call at a time; when it
 * throws, the same changes are offered again on the next round. Thread-safe.
 */
public final class PostgresChangeFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresChangeFeed.class);

    private final PostgresStateStore store;
    private final Consumer<PostgresStateStore.Changes> consumer;
    private final long pollMillis;
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean connected;
    private volatile long last;
    private volatile Connection current;

    private PostgresChangeFeed(
            PostgresStateStore store, long after, Consumer<PostgresStateStore.Changes> consumer, Duration poll) {
        this.store = store;
        this.consumer = consumer;
        this.last = after;
        this.pollMillis = Math.max(10, poll.toMillis());
        this.thread = Thread.ofPlatform().daemon().name("toolscout-change-feed").unstarted(this::run);
    }

    /**
     * Starts listening; changes after sequence number {@code after} (read with {@link PostgresStateStore#lastChange}
     * before the state they follow was loaded) go to {@code consumer}.
     *
     * @param poll how often the log is read without a notification (a safety net, and the liveness check)
     */
    public static PostgresChangeFeed start(
            PostgresStateStore store, long after, Consumer<PostgresStateStore.Changes> consumer, Duration poll) {
        PostgresChangeFeed feed = new PostgresChangeFeed(
                Objects.requireNonNull(store, "store"),
                after,
                Objects.requireNonNull(consumer, "consumer"),
                Objects.requireNonNull(poll, "poll"));
        feed.thread.start();
        return feed;
    }

    /** Whether the feed's connection is up and its last round reached the server. */
    public boolean connected() {
        return connected;
    }

    /** The newest change handed to the consumer. */
    public long last() {
        return last;
    }

    private void run() {
        long backoff = 250;
        while (!closed) {
            try (Connection c = PostgresStateStore.connect(store.url())) {
                current = c;
                try (Statement st = c.createStatement()) {
                    st.execute("LISTEN " + PostgresStateStore.CHANNEL);
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                if (!connected) {
                    LOG.info("change feed of {}: listening (catching up from change {})", store.url(), last);
                }
                backoff = 250;
                while (!closed) {
                    catchUp();
                    connected = true;
                    PGNotification[] got = pg.getNotifications((int) pollMillis);
                    if (got == null || got.length == 0) {
                        // no notification this round: check the connection is alive (a silent network drop shows here)
                        try (Statement st = c.createStatement()) {
                            st.setQueryTimeout(5);
                            st.execute("SELECT 1");
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                if (connected) {
                    LOG.warn(
                            "change feed of {}: lost the server ({}); serving from the last state, retrying",
                            store.url(),
                            e.getMessage());
                } else {
                    LOG.debug("change feed of {}: still cannot reach the server: {}", store.url(), e.getMessage());
                }
                connected = false;
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    return;
                }
                backoff = Math.min(2_000, backoff * 2);
            } finally {
                current = null;
            }
        }
    }

    private void catchUp() {
        PostgresStateStore.Changes changes = store.changesSince(last);
        if (!changes.areas().isEmpty() || changes.gap()) {
            consumer.accept(changes);
        }
        last = changes.last();
    }

    /** Stops the thread and closes its connection; waits for a consumer call in progress to end. */
    @Override
    public void close() {
        closed = true;
        Connection c = current;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing to wake the thread; it ends either way
            }
        }
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
