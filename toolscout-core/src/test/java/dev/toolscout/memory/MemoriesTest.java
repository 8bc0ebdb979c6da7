package dev.toolscout.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.indexing.HashingEmbeddingModel;
import dev.toolscout.model.Principal;
import dev.toolscout.state.InMemoryStateStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoriesTest {
    static final Principal ANN = new Principal("ann", "eng", "team-a");
    static final Principal BOB = new Principal("bob", "eng", "team-b");
    static final Principal CAROL = new Principal("carol", "sales", "team-a-child");
    /** team-a-child is under team-a; team-b is on its own. */
    static final AccessPolicy POLICY =
            new AccessPolicy(AccessRule.Effect.ALLOW, Map.of("team-a-child", "team-a"), List.of());

    final InMemoryStateStore store = new InMemoryStateStore();
    final HashingEmbeddingModel model = new HashingEmbeddingModel(256);
    final List<MemoryEvent> events = new ArrayList<>();
    final Clock clock = Clock.fixed(Instant.parse("2026-11-26T08:00:00Z"), ZoneOffset.UTC);

    Memories open() {
        MemoryIndex index = new MemoryIndex();
        return Memories.load(
                store,
                model,
                () -> POLICY,
                clock,
                index,
                batch -> {
                    events.addAll(batch);
                    index.onEvents(batch);
                },
                false);
    }

    @Test
    void a_users_private_memory_is_never_read_searched_or_forgotten_by_another_user() {
        Memories m = open();
        Memory rex = m.store(ANN, MemoryScope.USER, MemoryType.FACT, "my dog is called rex", null);

        assertThat(m.get(ANN, rex.id())).contains(rex);
        assertThat(m.get(BOB, rex.id())).isEmpty();
        assertThat(m.search(BOB, "dog called rex", null, 5)).isEmpty();
        assertThat(m.recent(BOB, null, 10)).isEmpty();
        assertThat(m.forget(BOB, rex.id())).isFalse();
        assertThat(m.search(ANN, "dog called rex", null, 5))
                .extracting(h -> h.memory().id())
                .containsExactly(rex.id());
    }

    @Test
    void a_group_memory_is_shared_by_the_group_only() {
        Memories m = open();
        Memory standup = m.store(ANN, MemoryScope.GROUP, MemoryType.EVENT, "standup at nine thirty", null);

        assertThat(m.get(BOB, standup.id())).contains(standup);
        assertThat(m.get(CAROL, standup.id())).isEmpty();
        assertThat(standup.owner()).isEqualTo("eng");
    }

    @Test
    void a_space_memory_is_visible_in_the_space_and_the_spaces_under_it_but_not_elsewhere() {
        Memories m = open();
        Memory offsite = m.store(ANN, MemoryScope.SPACE, MemoryType.EVENT, "offsite in annecy", null);

        assertThat(m.get(CAROL, offsite.id())).contains(offsite);
        assertThat(m.get(BOB, offsite.id())).isEmpty();
        assertThat(m.search(BOB, "offsite annecy", null, 5)).isEmpty();
    }

    @Test
    void a_child_space_reads_its_parents_memory_but_neither_corrects_nor_forgets_it() {
        Memories m = open();
        Memory offsite = m.store(ANN, MemoryScope.SPACE, MemoryType.EVENT, "offsite in annecy", null);

        assertThat(m.correct(CAROL, offsite.id(), "offsite cancelled", null)).isEmpty();
        assertThat(m.forget(CAROL, offsite.id())).isFalse();
        assertThat(m.get(CAROL, offsite.id())).contains(offsite);
        assertThat(m.correct(ANN, offsite.id(), "offsite in lyon", null))
                .get()
                .extracting(Memory::content)
                .isEqualTo("offsite in lyon");
        assertThat(m.forget(ANN, offsite.id())).isTrue();
    }

    @Test
    void a_principal_writes_only_into_scopes_it_belongs_to() {
        Memories m = open();

        assertThatThrownBy(
                        () -> m.store(new Principal("dan", null, null), MemoryScope.GROUP, MemoryType.NOTE, "x", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'group' needs a principal with a group");
        assertThatThrownBy(
                        () -> m.store(new Principal("dan", null, null), MemoryScope.SPACE, MemoryType.NOTE, "x", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'space' needs a principal");
        assertThat(store.loadMemories()).isEmpty();
    }

    @Test
    void forgetting_removes_the_text_and_vector_from_the_store_and_the_index_and_says_memory_deleted() {
        Memories m = open();
        Memory rex = m.store(ANN, MemoryScope.USER, MemoryType.FACT, "my dog is called rex", null);
        assertThat(store.loadMemories()).hasSize(1);

        assertThat(m.forget(ANN, rex.id())).isTrue();

        assertThat(store.loadMemories()).isEmpty();
        assertThat(m.index().contains(rex.id())).isFalse();
        assertThat(m.search(ANN, "dog called rex", null, 5)).isEmpty();
        assertThat(events).extracting(MemoryEvent::type).containsExactly("memory.stored", "memory.deleted");
        // and a restart does not bring it back
        assertThat(open().get(ANN, rex.id())).isEmpty();
    }

    @Test
    void a_correction_keeps_the_id_replaces_the_text_and_vector_and_says_memory_corrected() {
        Memories m = open();
        Memory rex = m.store(ANN, MemoryScope.USER, MemoryType.FACT, "my dog is called rex", null);

        Memory fixed = m.correct(ANN, rex.id(), "my dog is called max", null).orElseThrow();

        assertThat(fixed.id()).isEqualTo(rex.id());
        assertThat(fixed.content()).isEqualTo("my dog is called max");
        assertThat(m.correct(BOB, rex.id(), "hijacked", null)).isEmpty();
        assertThat(m.search(ANN, "max", null, 1).get(0).memory().content()).isEqualTo("my dog is called max");
        assertThat(open().get(ANN, rex.id()).orElseThrow().content()).isEqualTo("my dog is called max");
        assertThat(events).extracting(MemoryEvent::type).containsExactly("memory.stored", "memory.corrected");
    }

    @Test
    void memories_and_their_vectors_survive_a_restart_without_embedding_again() {
        Memories m = open();
        Memory rex = m.store(ANN, MemoryScope.USER, MemoryType.PREFERENCE, "answer in french", "conv-1");
        int[] embedded = {0};
        dev.toolscout.embedding.EmbeddingModel counting = new dev.toolscout.embedding.EmbeddingModel() {
            @Override
            public String modelId() {
                return model.modelId();
            }

            @Override
            public int dimension() {
                return model.dimension();
            }

            @Override
            public float[] embedQuery(String text) {
                return model.embedQuery(text);
            }

            @Override
            public List<float[]> embedDocuments(List<String> texts) {
                embedded[0] += texts.size();
                return model.embedDocuments(texts);
            }
        };

        MemoryIndex index = new MemoryIndex();
        Memories again = Memories.load(store, counting, () -> POLICY, clock, index, index::onEvents, false);

        assertThat(embedded[0]).isZero();
        assertThat(again.get(ANN, rex.id())).contains(rex);
        assertThat(again.index().contains(rex.id())).isTrue();
    }

    @Test
    void content_past_the_cap_and_blank_content_are_refused_naming_the_input_and_nothing_is_stored() {
        Memories m = open();

        assertThatThrownBy(() -> m.store(
                        ANN, MemoryScope.USER, MemoryType.NOTE, "x".repeat(Memories.MAX_CONTENT_CHARS + 1), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("content must be at most 4,000 characters, got: 4,001 characters");
        assertThatThrownBy(() -> m.store(ANN, MemoryScope.USER, MemoryType.NOTE, "  ", null))
                .hasMessageContaining("content must not be blank");
        assertThat(store.loadMemories()).isEmpty();
        assertThat(events).isEmpty();
    }

    @Test
    void the_memory_tools_answer_a_denied_and_a_missing_memory_alike() {
        Memories m = open();
        MemoryTools tools = new MemoryTools(m);
        Memory rex = m.store(ANN, MemoryScope.USER, MemoryType.FACT, "my dog is called rex", null);
        com.fasterxml.jackson.databind.node.ObjectNode args =
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();

        MemoryTools.Result denied =
                tools.call(BOB, null, MemoryTools.RECALL, args.deepCopy().put("memory_id", rex.id()));
        MemoryTools.Result missing =
                tools.call(BOB, null, MemoryTools.RECALL, args.deepCopy().put("memory_id", "mem_00000000000000000000"));
        MemoryTools.Result forgetDenied =
                tools.call(BOB, null, MemoryTools.FORGET, args.deepCopy().put("memory_id", rex.id()));

        assertThat(denied).isEqualTo(new MemoryTools.Result.Error("Memory not found: " + rex.id()));
        assertThat(missing).isEqualTo(new MemoryTools.Result.Error("Memory not found: mem_00000000000000000000"));
        assertThat(forgetDenied).isEqualTo(denied);
        assertThat(m.get(ANN, rex.id())).isPresent();
    }
}
