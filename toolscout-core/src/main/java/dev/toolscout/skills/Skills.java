package dev.toolscout.skills;

import dev.toolscout.skills.SkillStore.StoredSkill;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Every skill ToolScout knows. Changes are written to the {@link SkillStore} first (durable before they are
 * acknowledged), then become visible, then go out as {@link SkillEvent}s (to the skill index), as catalog changes
 * do.
 *
 * <p>Thread-safety: readers see an immutable map (no locks); writers are serialized.
 */
public final class Skills {
    /** The most skills ToolScout keeps: enough for every team's procedures, few enough to rank exactly. */
    public static final int MAX_SKILLS = 1_000;

    private final SkillStore store;
    private final Consumer<? super List<SkillEvent>> events;
    private volatile Map<String, Skill> byName;
    private final java.util.concurrent.atomic.AtomicLong version = new java.util.concurrent.atomic.AtomicLong();

    private Skills(SkillStore store, Consumer<? super List<SkillEvent>> events, Map<String, Skill> initial) {
        this.store = store;
        this.events = events;
        this.byName = initial;
    }

    /**
     * Loads the skills from the store.
     *
     * @param events receives each change's events, in order, after the change is durable
     * @throws IllegalStateException naming the skill when a stored one cannot be read
     */
    public static Skills load(SkillStore store, Consumer<? super List<SkillEvent>> events) {
        return new Skills(store, events, read(store));
    }

    private static Map<String, Skill> read(SkillStore store) {
        Map<String, Skill> m = new TreeMap<>();
        for (StoredSkill s : store.loadSkills()) {
            Skill skill;
            try {
                skill = SkillJson.fromJsonText(s.json(), null);
            } catch (InvalidSkillException e) {
                throw new IllegalStateException(
                        "the stored skill '" + s.name() + "' cannot be read: " + e.getMessage()
                                + " (remove it with `toolscout skills remove " + s.name() + "` and add it again)",
                        e);
            }
            if (!skill.name().equals(s.name())) {
                throw new IllegalStateException(
                        "the stored row of skill '" + s.name() + "' holds skill '" + skill.name() + "'");
            }
            m.put(skill.name(), skill);
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * Reads the skills from the store again and publishes what changed since this instance last saw them, writing
     * nothing: for a replica whose store another process wrote (a PostgreSQL store shared by replicas).
     *
     * @return the events, in order (empty when nothing changed)
     */
    public synchronized List<SkillEvent> reload() {
        Map<String, Skill> cur = byName;
        Map<String, Skill> next = read(store);
        List<SkillEvent> out = new ArrayList<>();
        for (Skill s : next.values()) {
            Skill old = cur.get(s.name());
            if (old == null) {
                out.add(new SkillEvent.Created(s));
            } else if (!old.equals(s)) {
                out.add(new SkillEvent.Updated(old, s));
            }
        }
        for (Skill old : cur.values()) {
            if (!next.containsKey(old.name())) {
                out.add(new SkillEvent.Deleted(old));
            }
        }
        if (out.isEmpty()) {
            return List.of();
        }
        byName = next;
        version.incrementAndGet();
        events.accept(List.copyOf(out));
        return List.copyOf(out);
    }

    /** Every skill, in name order. */
    public List<Skill> all() {
        return List.copyOf(byName.values());
    }

    public Optional<Skill> get(String name) {
        return Optional.ofNullable(name == null ? null : byName.get(name));
    }

    public int size() {
        return byName.size();
    }

    /** Grows by one with every change: a cache of what the skills imply is current while it stays the same. */
    public long version() {
        return version.get();
    }

    /**
     * Adds or replaces one skill.
     *
     * @return the event, or empty when the skill was stored exactly so already
     * @throws IllegalArgumentException when it would be skill number {@value #MAX_SKILLS} + 1
     */
    public Optional<SkillEvent> upsert(Skill skill) {
        List<SkillEvent> done = apply(List.of(skill), List.of());
        return done.stream().findFirst();
    }

    /**
     * Removes one skill.
     *
     * @return true when there was one of that name
     */
    public boolean remove(String name) {
        return !apply(List.of(), List.of(name)).isEmpty();
    }

    /**
     * Adds or replaces {@code upserts} and removes {@code removals} (unknown names are ignored), each durable
     * before the events go out; unchanged skills make no event.
     *
     * @return the events, in order
     * @throws IllegalArgumentException when {@code upserts} names a skill twice, or the skills would exceed
     *     {@value #MAX_SKILLS} (nothing changes)
     */
    public synchronized List<SkillEvent> apply(List<Skill> upserts, Collection<String> removals) {
        Map<String, Skill> cur = byName;
        Map<String, Skill> wanted = new LinkedHashMap<>();
        for (Skill s : upserts) {
            if (wanted.put(s.name(), Objects.requireNonNull(s, "skill")) != null) {
                throw new IllegalArgumentException("skill '" + s.name() + "' is given twice in one change");
            }
        }
        Map<String, Skill> next = new TreeMap<>(cur);
        List<SkillEvent> out = new ArrayList<>();
        for (Skill s : wanted.values()) {
            Skill old = next.put(s.name(), s);
            if (old == null) {
                out.add(new SkillEvent.Created(s));
            } else if (!old.equals(s)) {
                out.add(new SkillEvent.Updated(old, s));
            }
        }
        for (String name : removals) {
            Skill old = wanted.containsKey(name) ? null : next.remove(name);
            if (old != null) {
                out.add(new SkillEvent.Deleted(old));
            }
        }
        if (next.size() > MAX_SKILLS && next.size() > cur.size()) {
            throw new IllegalArgumentException(
                    "ToolScout keeps at most " + MAX_SKILLS + " skills; this change would " + "make " + next.size()
                            + "; remove some first (`toolscout skills remove NAME`); nothing was changed");
        }
        if (out.isEmpty()) {
            return List.of();
        }
        for (SkillEvent e : out) {
            switch (e) {
                case SkillEvent.Created c ->
                    store.saveSkill(new StoredSkill(c.name(), SkillJson.toJsonText(c.skill())));
                case SkillEvent.Updated u ->
                    store.saveSkill(new StoredSkill(u.name(), SkillJson.toJsonText(u.after())));
                case SkillEvent.Deleted d -> store.deleteSkill(d.name());
            }
        }
        byName = Collections.unmodifiableMap(next);
        version.incrementAndGet();
        events.accept(List.copyOf(out));
        return List.copyOf(out);
    }
}
