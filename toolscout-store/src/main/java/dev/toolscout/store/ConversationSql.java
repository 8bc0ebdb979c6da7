package dev.toolscout.store;

import dev.toolscout.conversation.ConversationStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The conversations' SQL ({@link ConversationStore}), with their skills and tools in order. Thread-safe as the store
 * it belongs to.
 */
interface ConversationSql extends ConversationStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default Optional<StoredConversation> loadConversation(String principal, String id) {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(id, "id");
        return db().snapshot(
                        "load conversation '" + id + "'",
                        h -> h.createQuery(
                                        "SELECT created_at_millis, last_used_at_millis FROM conversations WHERE principal = ? AND id = ?")
                                .bind(0, principal)
                                .bind(1, id)
                                .map((rs, ctx) -> new long[] {rs.getLong(1), rs.getLong(2)})
                                .findOne()
                                .map(t -> new StoredConversation(
                                        principal,
                                        id,
                                        conversationList(h, "conversation_skills", "skill", principal, id),
                                        conversationList(h, "conversation_tools", "tool", principal, id),
                                        Instant.ofEpochMilli(t[0]),
                                        Instant.ofEpochMilli(t[1]))));
    }

    private static List<String> conversationList(Handle h, String table, String column, String principal, String id) {
        return h.createQuery("SELECT " + column + " FROM " + table
                        + " WHERE principal = ? AND conversation_id = ? ORDER BY position")
                .bind(0, principal)
                .bind(1, id)
                .mapTo(String.class)
                .list();
    }

    @Override
    default void saveConversation(StoredConversation c) {
        Objects.requireNonNull(c, "conversation");
        db().write("save conversation '" + c.id() + "'", h -> {
            h.createUpdate("INSERT INTO conversations (principal, id, created_at_millis, last_used_at_millis) "
                            + "VALUES (?, ?, ?, ?) ON CONFLICT (principal, id) DO UPDATE SET created_at_millis = "
                            + "excluded.created_at_millis, last_used_at_millis = excluded.last_used_at_millis")
                    .bind(0, c.principal())
                    .bind(1, c.id())
                    .bind(2, c.createdAt().toEpochMilli())
                    .bind(3, c.lastUsedAt().toEpochMilli())
                    .execute();
            replaceConversationList(h, "conversation_skills", "skill", c, c.activeSkills());
            replaceConversationList(h, "conversation_tools", "tool", c, c.disclosedTools());
            db().changed(h, Area.CONVERSATIONS);
            return null;
        });
    }

    private static void replaceConversationList(
            Handle h, String table, String column, StoredConversation c, List<String> values) {
        h.createUpdate("DELETE FROM " + table + " WHERE principal = ? AND conversation_id = ?")
                .bind(0, c.principal())
                .bind(1, c.id())
                .execute();
        if (values.isEmpty()) {
            return;
        }
        PreparedBatch batch = h.prepareBatch(
                "INSERT INTO " + table + " (principal, conversation_id, position, " + column + ") VALUES (?, ?, ?, ?)");
        for (int i = 0; i < values.size(); i++) {
            batch.bind(0, c.principal())
                    .bind(1, c.id())
                    .bind(2, i)
                    .bind(3, values.get(i))
                    .add();
        }
        batch.execute();
    }

    @Override
    default boolean deleteConversation(String principal, String id) {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(id, "id");
        // the skill and tool rows go with it (ON DELETE CASCADE)
        return db().write(
                        "delete conversation '" + id + "'",
                        h -> db().changedIf(
                                                h,
                                                h.createUpdate(
                                                                "DELETE FROM conversations WHERE principal = ? AND id = ?")
                                                        .bind(0, principal)
                                                        .bind(1, id)
                                                        .execute(),
                                                Area.CONVERSATIONS)
                                > 0);
    }

    @Override
    default int deleteConversationsUsedBefore(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        return db().write(
                        "delete the conversations idle since " + cutoff,
                        h -> db().changedIf(
                                        h,
                                        h.createUpdate("DELETE FROM conversations WHERE last_used_at_millis < ?")
                                                .bind(0, cutoff.toEpochMilli())
                                                .execute(),
                                        Area.CONVERSATIONS));
    }

    @Override
    default List<String> conversationIds(String principal) {
        Objects.requireNonNull(principal, "principal");
        record Row(String id, long lastUsed) {}
        List<Row> rows = new ArrayList<>(db().query(
                        "list the conversations of a principal",
                        h -> h.createQuery("SELECT id, last_used_at_millis FROM conversations WHERE principal = ?")
                                .bind(0, principal)
                                .map((rs, ctx) -> new Row(rs.getString(1), rs.getLong(2)))
                                .list()));
        rows.sort(Comparator.comparingLong(Row::lastUsed).thenComparing(Row::id));
        return rows.stream().map(Row::id).toList();
    }

    @Override
    default int conversationCount() {
        return db().query(
                        "count the conversations",
                        h -> h.createQuery("SELECT COUNT(*) FROM conversations")
                                .mapTo(Integer.class)
                                .findOne()
                                .orElse(0));
    }
}
