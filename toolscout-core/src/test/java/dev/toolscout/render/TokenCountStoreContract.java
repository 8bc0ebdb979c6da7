package dev.toolscout.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.StateStore;
import dev.toolscout.state.StoreContract;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link TokenCountStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class TokenCountStoreContract extends StoreContract {
    // --- definition token counts (render.StoredTokenCounts) ---

    @Test
    void token_counts_survive_a_reopen_and_only_the_asked_hashes_come_back() {
        ToolSpec a = tool("crm__a");
        ToolSpec b = tool("crm__b");
        store.applyCatalogChange(List.of(a, b), List.of());
        store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 41, b.contentHash(), 0));

        StateStore after = reopened();

        assertThat(after.loadTokenCounts(COUNTER, List.of(a.contentHash(), b.contentHash(), "no-such-hash")))
                .containsExactlyInAnyOrderEntriesOf(Map.of(a.contentHash(), 41, b.contentHash(), 0));
        assertThat(after.loadTokenCounts(COUNTER, List.of(b.contentHash()))).containsOnlyKeys(b.contentHash());
        assertThat(after.loadTokenCounts(COUNTER, List.of())).isEmpty();
    }

    @Test
    void token_counts_of_another_counter_are_not_returned() {
        ToolSpec a = tool("crm__a");
        store.applyCatalogChange(List.of(a), List.of());
        store.saveTokenCounts("o200k_base/anthropic-definition-v1", Map.of(a.contentHash(), 7));

        assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash()))).isEmpty();

        store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 9));
        assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash()))).containsEntry(a.contentHash(), 9);
        assertThat(store.loadTokenCounts("o200k_base/anthropic-definition-v1", List.of(a.contentHash())))
                .containsEntry(a.contentHash(), 7);
    }

    @Test
    void saving_token_counts_again_replaces_them() {
        ToolSpec a = tool("crm__a");
        store.applyCatalogChange(List.of(a), List.of());
        store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 5));
        store.saveTokenCounts(COUNTER, Map.of(a.contentHash(), 6));

        assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash())))
                .containsExactlyEntriesOf(Map.of(a.contentHash(), 6));
    }

    @Test
    void saving_token_counts_prunes_those_of_hashes_no_tool_has_but_keeps_the_ones_saved() {
        ToolSpec removed = tool("crm__removed");
        ToolSpec changed = tool("crm__changed");
        ToolSpec kept = tool("crm__kept");
        store.applyCatalogChange(List.of(removed, changed, kept), List.of());
        store.saveTokenCounts(
                COUNTER, Map.of(removed.contentHash(), 1, changed.contentHash(), 2, kept.contentHash(), 3));
        store.saveTokenCounts("another/counter", Map.of(removed.contentHash(), 4));
        ToolSpec changedNow =
                ToolSpec.builder(changed.fullName(), "Does other things now").build();
        store.applyCatalogChange(List.of(changedNow), List.of(removed.fullName()));
        List<String> all = List.of(
                removed.contentHash(),
                changed.contentHash(),
                kept.contentHash(),
                changedNow.contentHash(),
                "engine-tool-hash");

        // a save prunes; rows saved in it stay even when no tool has their hash (the engine's own tools)
        store.saveTokenCounts(COUNTER, Map.of(changedNow.contentHash(), 8, "engine-tool-hash", 10));

        assertThat(store.loadTokenCounts(COUNTER, all))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(kept.contentHash(), 3, changedNow.contentHash(), 8, "engine-tool-hash", 10));
        assertThat(store.loadTokenCounts("another/counter", all)).isEmpty();
    }

    @Test
    void a_negative_token_count_is_refused_and_saves_nothing() {
        ToolSpec a = tool("crm__a");
        ToolSpec b = tool("crm__b");
        store.applyCatalogChange(List.of(a, b), List.of());
        Map<String, Integer> bad = new java.util.TreeMap<>(Map.of(a.contentHash(), 3, b.contentHash(), -1));

        assertThatThrownBy(() -> store.saveTokenCounts(COUNTER, bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(b.contentHash())
                .hasMessageContaining("-1");
        assertThat(store.loadTokenCounts(COUNTER, List.of(a.contentHash(), b.contentHash())))
                .isEmpty();
    }
}
