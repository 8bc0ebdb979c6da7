package dev.toolscout.conversation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.conversation.ConversationStore.StoredConversation;
import dev.toolscout.model.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The conversations ToolScout remembers, in the state store: each one's active skills and disclosed tools
 * survive restarts, and every replica over a shared store sees them.
 *
 * <p>A conversation is keyed by its principal and its id: a principal asking for an id that another principal
 * uses gets a conversation of its own, never the other's, and nothing tells the two cases apart. A conversation
 * idle for longer than {@link ConversationLimits#idle()} (24 hours by default) is gone: reading it finds nothing,
 * and using its id starts afresh. Expired conversations are deleted whenever a new conversation starts.
 *
 * <p>The last use is written at most once a minute per conversation ({@link #TOUCH_EVERY}), so that selecting
 * for a conversation costs no write on most requests; expiry is therefore exact to a minute.
 *
 * <p>Thread-safe: changes to one conversation are serialized in this process (read, change, write under a
 * lock striped by key). Two replicas changing the same conversation at the same moment may lose one change
 * (the last write wins); a conversation is normally served by one client at a time.
 */
public final class Conversations {
    /** What a conversation id may be: what MCP session ids, UUIDs and most clients' ids are made of. */
    public static final Pattern ID = Pattern.compile("^[A-Za-z0-9._:-]{1,128}$");

    /** How stale the stored last use may get before a use writes it again. */
    public static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

    private static final int STRIPES = 64;

    private final ConversationStore store;
    private final Clock clock;
    private final ConversationLimits limits;
    private final Object[] locks = new Object[STRIPES];
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();

    /** Conversations in {@code store} with the {@linkplain ConversationLimits#DEFAULT default limits}. */
    public Conversations(ConversationStore store, Clock clock) {
        this(store, clock, ConversationLimits.DEFAULT);
    }

    public Conversations(ConversationStore store, Clock clock, ConversationLimits limits) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.limits = Objects.requireNonNull(limits, "limits");
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new Object();
        }
    }

    public ConversationLimits limits() {
        return limits;
    }

    /**
     * A counter that grows with every change this instance writes: a cache of conversations read in this process
     * (the MCP gateway's tool lists) is current while it stays the same.
     */
    public long changes() {
        return changes.get();
    }

    /**
     * Checks a conversation id from outside.
     *
     * @throws IllegalArgumentException naming the rule and the value when it is not one
     */
    public static String checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            String shown = id == null
                    ? "nothing"
                    : id.length() > 80
                            ? "'" + id.substring(0, 77) + "...' (" + id.length() + " characters)"
                            : "'" + id + "'";
            throw new IllegalArgumentException(
                    "conversation id must be 1-128 characters of A-Z a-z 0-9 . _ : -, got: " + shown);
        }
        return id;
    }

    /**
     * The key a principal's conversations are stored under: every part, so principals that differ in any part
     * never share one.
     */
    static String principalKey(Principal p) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        a.add(p.user());
        a.add(p.group());
        a.add(p.space());
        return a.toString();
    }

    /** The conversation, if {@code principal} has one of this id that has not expired; nothing is written. */
    public Optional<Conversation> get(Principal principal, String id) {
        checkId(id);
        return live(store.loadConversation(principalKey(principal), id), now()).map(c -> conversation(principal, c));
    }

    /**
     * The conversation, started when {@code principal} has none of this id (or it expired), its last use noted.
     *
     * @throws IllegalArgumentException when the id is not one
     * @throws ConversationsFullException when it would be new and the store already holds {@link
     *     ConversationLimits#maxConversations()} live conversations
     */
    public Conversation use(Principal principal, String id) {
        return change(principal, id, c -> c);
    }

    /**
     * Records that {@code skill} is active in the conversation (starting it if need be).
     *
     * @return the conversation after the change and whether the skill was newly activated
     * @throws IllegalArgumentException when the conversation already has {@link
     *     ConversationLimits#maxActiveSkills()} active skills (nothing changes)
     */
    public Activation activate(Principal principal, String id, String skill) {
        Objects.requireNonNull(skill, "skill");
        boolean[] added = {false};
        Conversation after = change(principal, id, c -> {
            if (c.activeSkills().contains(skill)) {
                return c;
            }
            if (c.activeSkills().size() >= limits.maxActiveSkills()) {
                throw new IllegalArgumentException("a conversation may have at most " + limits.maxActiveSkills()
                        + " active skills, and this one has " + c.activeSkills().size() + " ("
                        + String.join(", ", c.activeSkills()) + "); start a new conversation to use '" + skill + "'");
            }
            List<String> skills = new ArrayList<>(c.activeSkills());
            skills.add(skill);
            added[0] = true;
            return new StoredConversation(
                    c.principal(), c.id(), skills, c.disclosedTools(), c.createdAt(), c.lastUsedAt());
        });
        return new Activation(after, added[0]);
    }

    /** What {@link #activate} did. */
    public record Activation(Conversation conversation, boolean added) {}

    /**
     * Adds tools discovery disclosed to the conversation (starting it if need be), after those it holds; past
     * {@link ConversationLimits#maxDisclosedTools()} the oldest are forgotten.
     *
     * @return the conversation after the change
     */
    public Conversation disclose(Principal principal, String id, Collection<String> tools) {
        List<String> fresh = List.copyOf(new LinkedHashSet<>(tools));
        return change(principal, id, c -> {
            LinkedHashSet<String> all = new LinkedHashSet<>(c.disclosedTools());
            if (!all.addAll(fresh)) {
                return c;
            }
            List<String> list = new ArrayList<>(all);
            List<String> kept = list.subList(Math.max(0, list.size() - limits.maxDisclosedTools()), list.size());
            return new StoredConversation(c.principal(), c.id(), c.activeSkills(), kept, c.createdAt(), c.lastUsedAt());
        });
    }

    /**
     * Forgets one conversation of {@code principal}.
     *
     * @return true when it had one of this id (live); false when it had none (another principal's is none)
     */
    public boolean forget(Principal principal, String id) {
        checkId(id);
        String key = principalKey(principal);
        synchronized (lock(key, id)) {
            boolean live = live(store.loadConversation(key, id), now()).isPresent();
            boolean deleted = store.deleteConversation(key, id);
            changes.incrementAndGet();
            return deleted && live;
        }
    }

    /**
     * Deletes every expired conversation.
     *
     * @return how many
     */
    public int purgeExpired() {
        return store.deleteConversationsUsedBefore(expiredBefore(now()));
    }

    /** Conversations last used before this have expired ({@link #live}: last use + idle is not after now). */
    private Instant expiredBefore(Instant now) {
        return now.minus(limits.idle()).plusMillis(1);
    }

    private interface Change {
        StoredConversation apply(StoredConversation c);
    }

    private Conversation change(Principal principal, String id, Change change) {
        checkId(id);
        Objects.requireNonNull(principal, "principal");
        String key = principalKey(principal);
        synchronized (lock(key, id)) {
            Instant now = now();
            Optional<StoredConversation> found = live(store.loadConversation(key, id), now);
            StoredConversation before = found.orElse(null);
            if (before == null) {
                makeRoom(key, now);
                before = new StoredConversation(key, id, List.of(), List.of(), now, now);
            }
            StoredConversation after = change.apply(before);
            boolean stale = Duration.between(after.lastUsedAt(), now).compareTo(TOUCH_EVERY) >= 0;
            if (stale) {
                after = new StoredConversation(
                        key, id, after.activeSkills(), after.disclosedTools(), after.createdAt(), now);
            }
            if (found.isEmpty() || stale || !after.equals(found.get())) {
                store.saveConversation(after);
                changes.incrementAndGet();
            }
            return conversation(principal, after);
        }
    }

    /** Before a new conversation: expired ones go, then this principal's oldest past its cap, then the store cap. */
    private void makeRoom(String key, Instant now) {
        store.deleteConversationsUsedBefore(expiredBefore(now));
        List<String> mine = store.conversationIds(key);
        for (int i = 0; i <= mine.size() - limits.maxPerPrincipal(); i++) {
            store.deleteConversation(key, mine.get(i));
        }
        int all = store.conversationCount();
        if (all >= limits.maxConversations()) {
            throw new ConversationsFullException(
                    "ToolScout already keeps " + all + " conversations, the most it keeps ("
                            + limits.maxConversations() + "); a new one starts when older ones expire (after "
                            + idle(limits.idle())
                            + " idle) or are forgotten");
        }
    }

    /** {@code 24 h}, {@code 90 min}, {@code 30 s}. */
    static String idle(Duration d) {
        if (d.toSeconds() % 3600 == 0) {
            return d.toHours() + " h";
        }
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }

    private Optional<StoredConversation> live(Optional<StoredConversation> c, Instant now) {
        return c.filter(x -> x.lastUsedAt().plus(limits.idle()).isAfter(now));
    }

    private static Conversation conversation(Principal p, StoredConversation c) {
        return new Conversation(c.id(), p, c.activeSkills(), c.disclosedTools(), c.createdAt(), c.lastUsedAt());
    }

    private Object lock(String key, String id) {
        return locks[Math.floorMod(31 * key.hashCode() + id.hashCode(), STRIPES)];
    }

    private Instant now() {
        return clock.instant();
    }
}
