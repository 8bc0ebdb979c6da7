package dev.toolscout.events;

import dev.toolscout.catalog.CatalogEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Delivers catalog events to subscribers, synchronously and in order, on the publishing thread: when
 * {@link #publish} returns, every subscriber has seen the batch. A failing subscriber does not stop the
 * others; the failures are rethrown together afterwards as {@link SubscriberException}. A {@code Consumer} of
 * batches, so the catalog can publish to it without depending on this package. Thread-safe.
 */
public final class EventBus implements Consumer<List<CatalogEvent>> {
  private final List<Consumer<List<CatalogEvent>>> subscribers = new CopyOnWriteArrayList<>();

  /** Subscribes to every batch of events. */
  public void subscribe(Consumer<List<CatalogEvent>> subscriber) {
    subscribers.add(subscriber);
  }

  /** Same as {@link #publish}. */
  @Override
  public void accept(List<CatalogEvent> batch) {
    publish(batch);
  }

  public void publish(List<CatalogEvent> batch) {
    if (batch.isEmpty()) {
      return;
    }
    SubscriberException failure = null;
    for (Consumer<List<CatalogEvent>> s : subscribers) {
      try {
        s.accept(batch);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = new SubscriberException(
              "a catalog subscriber failed on " + batch.get(0).type() + " (catalog version "
                  + batch.get(batch.size() - 1).version() + "); the change itself is stored: " + e.getMessage(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** One or more subscribers failed; the catalog change that caused the events is already durable. */
  public static final class SubscriberException extends RuntimeException {
    public SubscriberException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
