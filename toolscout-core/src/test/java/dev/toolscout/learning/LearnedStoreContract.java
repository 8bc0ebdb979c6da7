package dev.toolscout.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.toolscout.learning.LearnedStore.StoredLearned;
import dev.toolscout.state.StoreContract;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link LearnedStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class LearnedStoreContract extends StoreContract {
    @Test
    void learned_pairs_upsert_by_tool_and_message_survive_a_reopen_and_delete_by_tool_or_all() {
        Instant t = Instant.parse("2026-11-26T08:00:00Z");
        store.saveLearned(List.of(
                new StoredLearned("b__x", "h1", "book a room", "th-b", "p:ann", "c1", t),
                new StoredLearned("a__y", "h1", "book a room", "th-a", null, null, t),
                new StoredLearned("a__y", "h2", "cancel it", "th-a", null, null, t.plusSeconds(1))));
        // the same tool and message again replaces the pair
        store.saveLearned(List.of(new StoredLearned("b__x", "h1", "book a room", "th-b2", "p:bob", "c2", t)));

        assertThat(reopened().loadLearned())
                .extracting(StoredLearned::tool, StoredLearned::messageHash, StoredLearned::toolHash)
                .containsExactly(
                        tuple("a__y", "h1", "th-a"), tuple("a__y", "h2", "th-a"), tuple("b__x", "h1", "th-b2"));
        assertThat(store.loadLearned().get(2).principal()).isEqualTo("p:bob");
        assertThat(store.loadLearned().get(0).principal()).isNull();

        assertThat(store.deleteLearned(List.of("a__y", "missing"))).isEqualTo(2);
        assertThat(store.loadLearned()).extracting(StoredLearned::tool).containsExactly("b__x");
        assertThat(store.deleteLearned(null)).isEqualTo(1);
        assertThat(store.loadLearned()).isEmpty();
    }
}
