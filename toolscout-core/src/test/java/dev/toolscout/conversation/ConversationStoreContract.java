package dev.toolscout.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.conversation.ConversationStore.StoredConversation;
import dev.toolscout.state.StoreContract;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link ConversationStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class ConversationStoreContract extends StoreContract {
    // --- conversations ---

    @Test
    void conversations_round_trip_exactly_with_their_lists_in_order_and_survive_reopen() {
        StoredConversation c = new StoredConversation(
                "p:ann",
                "conv-1",
                List.of("zeta", "alpha", "mid"),
                List.of("z__last", "a__first"),
                T0,
                T0.plusSeconds(30));

        store.saveConversation(c);

        assertThat(store.loadConversation("p:ann", "conv-1")).contains(c);
        assertThat(reopened().loadConversation("p:ann", "conv-1")).contains(c);
    }

    @Test
    void a_conversation_is_keyed_by_principal_and_id_so_another_principal_never_reaches_it() {
        store.saveConversation(conversation("p:ann", "shared-id", T0));

        assertThat(store.loadConversation("p:bob", "shared-id")).isEmpty();
        assertThat(store.deleteConversation("p:bob", "shared-id")).isFalse();
        store.saveConversation(new StoredConversation("p:bob", "shared-id", List.of(), List.of(), T0, T0));

        assertThat(store.loadConversation("p:ann", "shared-id")).contains(conversation("p:ann", "shared-id", T0));
        assertThat(store.loadConversation("p:bob", "shared-id").orElseThrow().activeSkills())
                .isEmpty();
        assertThat(store.conversationCount()).isEqualTo(2);
    }

    @Test
    void saving_a_conversation_again_replaces_its_lists() {
        store.saveConversation(conversation("p:ann", "c", T0));
        StoredConversation shorter =
                new StoredConversation("p:ann", "c", List.of("maps"), List.of(), T0, T0.plusSeconds(5));

        store.saveConversation(shorter);

        assertThat(reopened().loadConversation("p:ann", "c")).contains(shorter);
    }

    @Test
    void deleting_a_conversation_removes_it_with_its_lists() {
        store.saveConversation(conversation("p:ann", "c", T0));

        assertThat(store.deleteConversation("p:ann", "c")).isTrue();
        assertThat(store.deleteConversation("p:ann", "c")).isFalse();
        assertThat(store.loadConversation("p:ann", "c")).isEmpty();
        // a new conversation under the same key starts empty: no rows of the old one survive
        store.saveConversation(new StoredConversation("p:ann", "c", List.of(), List.of(), T0, T0));
        assertThat(reopened().loadConversation("p:ann", "c").orElseThrow().disclosedTools())
                .isEmpty();
    }

    @Test
    void idle_conversations_are_deleted_by_their_last_use() {
        store.saveConversation(conversation("p:ann", "old", T0));
        store.saveConversation(conversation("p:bob", "edge", T0.plusSeconds(60)));
        store.saveConversation(conversation("p:ann", "new", T0.plusSeconds(61)));

        int removed = store.deleteConversationsUsedBefore(T0.plusSeconds(60));

        assertThat(removed).isEqualTo(1);
        assertThat(store.loadConversation("p:ann", "old")).isEmpty();
        assertThat(store.loadConversation("p:bob", "edge")).isPresent();
        assertThat(reopened().conversationCount()).isEqualTo(2);
    }

    @Test
    void conversation_ids_of_a_principal_come_least_recently_used_first() {
        store.saveConversation(conversation("p:ann", "b", T0.plusSeconds(2)));
        store.saveConversation(conversation("p:ann", "c", T0.plusSeconds(1)));
        store.saveConversation(conversation("p:ann", "a", T0.plusSeconds(2)));
        store.saveConversation(conversation("p:bob", "z", T0));

        assertThat(store.conversationIds("p:ann")).containsExactly("c", "a", "b");
        assertThat(store.conversationIds("p:bob")).containsExactly("z");
        assertThat(store.conversationIds("p:cy")).isEmpty();
    }

    @Test
    void conversation_times_are_kept_to_the_millisecond() {
        StoredConversation c = conversation("p:ann", "c", T0.plusNanos(999_999));

        store.saveConversation(c);

        assertThat(store.loadConversation("p:ann", "c").orElseThrow().lastUsedAt())
                .isEqualTo(T0);
    }
}
