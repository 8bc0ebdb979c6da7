package dev.toolscout.events;

import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.catalog.SubscriberException;
import dev.toolscout.memory.MemoryEvent;
import dev.toolscout.skills.SkillEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Delivers catalog events and skill events to subscribers, synchronously and in order, on the publishing
 * thread: when {@link #publish} (or {@link #publishSkills}) returns, every subscriber has seen the batch. A
 * failing subscriber does not stop the others; the failures are rethrown together afterwards as {@link
 * SubscriberException}. A {@code Consumer} of batches, so the catalog (and the skills, through {@code
 * bus::publishSkills}) can publish to it without depending on this package. Thread-safe.
 */
public final class EventBus implements Consumer<List<CatalogEvent>> {
    private final List<Consumer<List<CatalogEvent>>> subscribers = new CopyOnWriteArrayList<>();
    private final List<Consumer<List<SkillEvent>>> skillSubscribers = new CopyOnWriteArrayList<>();
    private final List<Consumer<List<MemoryEvent>>> memorySubscribers = new CopyOnWriteArrayList<>();

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
        deliver(
                subscribers,
                batch,
                "a catalog subscriber failed on " + batch.get(0).type() + " (catalog version "
                        + batch.get(batch.size() - 1).version() + "); the change itself is stored: ");
    }

    /** Subscribes to every batch of skill events ({@code skill.created}, {@code skill.updated}, {@code skill.deleted}). */
    public void subscribeSkills(Consumer<List<SkillEvent>> subscriber) {
        skillSubscribers.add(subscriber);
    }

    public void publishSkills(List<SkillEvent> batch) {
        if (batch.isEmpty()) {
            return;
        }
        deliver(
                skillSubscribers,
                batch,
                "a skill subscriber failed on " + batch.get(0).type() + " of '"
                        + batch.get(0).name() + "'; the change itself is stored: ");
    }

    /**
     * Subscribes to every batch of memory events ({@code memory.stored}, {@code memory.corrected}, {@code
     * memory.deleted}).
     */
    public void subscribeMemories(Consumer<List<MemoryEvent>> subscriber) {
        memorySubscribers.add(subscriber);
    }

    public void publishMemories(List<MemoryEvent> batch) {
        if (batch.isEmpty()) {
            return;
        }
        deliver(
                memorySubscribers,
                batch,
                "a memory subscriber failed on " + batch.get(0).type() + " of '"
                        + batch.get(0).id() + "'; the change itself is stored: ");
    }

    private static <E> void deliver(List<Consumer<List<E>>> to, List<E> batch, String failed) {
        SubscriberException failure = null;
        for (Consumer<List<E>> s : to) {
            try {
                s.accept(batch);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = new SubscriberException(failed + e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
