package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.MessageVectors;
import dev.toolscout.indexing.HashingEmbeddingModel;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestContextTest {
    /** The test model, counting each kind of model call (the boundary the context saves calls at). */
    private static final class CountingModel implements EmbeddingModel {
        final HashingEmbeddingModel inner = new HashingEmbeddingModel(256);
        final List<String> calls = new ArrayList<>();

        @Override
        public String modelId() {
            return inner.modelId();
        }

        @Override
        public int dimension() {
            return inner.dimension();
        }

        @Override
        public float[] embedQuery(String text) {
            calls.add("query");
            return inner.embedQuery(text);
        }

        @Override
        public List<float[]> embedQueries(String message, List<String> clauses) {
            calls.add("queries");
            List<float[]> out = new ArrayList<>();
            out.add(inner.embedQuery(message));
            clauses.forEach(c -> out.add(inner.embedQuery(c)));
            return out;
        }

        @Override
        public MessageVectors embedMessage(String message, List<String> clauses) {
            calls.add("message");
            List<float[]> queries = new ArrayList<>();
            queries.add(inner.embedQuery(message));
            clauses.forEach(c -> queries.add(inner.embedQuery(c)));
            return new MessageVectors(
                    queries, inner.embedDocuments(List.of(message)).get(0));
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            calls.add("documents");
            return inner.embedDocuments(texts);
        }
    }

    private static Fixture catalog() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        return f;
    }

    private static RequestContext context(Fixture f, CountingModel model, String message, boolean routed) {
        return RequestContext.of(message, Principal.ANONYMOUS, null, f.catalog, f.access, model, routed);
    }

    @Test
    void a_routed_selection_embeds_the_message_once_for_the_ranking_the_router_and_the_skills() {
        Fixture f = catalog();
        CountingModel model = new CountingModel();
        RequestContext ctx = context(f, model, "create a calendar event for the meeting", true);
        f.selector.select(Selector.Request.of(ctx.message(), Principal.ANONYMOUS), ctx);
        assertThat(model.calls).containsExactly("message");

        float[] document = ctx.documentVector();
        float[] query = ctx.queryVector();
        assertThat(model.calls).containsExactly("message");
        assertThat(document)
                .isEqualTo(model.inner.embedDocuments(List.of(ctx.message())).get(0));
        assertThat(query).isEqualTo(model.inner.embedQuery(ctx.message()));
        // the ranking's lexical search of the whole message found a tool: the router need not search again
        assertThat(ctx.wordsKnownToMatch()).isTrue();
    }

    @Test
    void without_a_route_the_ranking_embeds_only_queries_and_a_later_step_embeds_its_vector_once() {
        Fixture f = catalog();
        CountingModel model = new CountingModel();
        RequestContext ctx = context(f, model, "send an email", false);
        f.selector.select(Selector.Request.of(ctx.message(), Principal.ANONYMOUS), ctx);
        assertThat(model.calls).containsExactly("queries");

        ctx.documentVector();
        ctx.documentVector();
        ctx.queryVector();
        ctx.queryVector();
        assertThat(model.calls).containsExactly("queries", "documents", "query");
    }

    @Test
    void a_message_cut_for_the_search_is_routed_on_the_same_part_from_the_one_model_call_and_says_so() {
        Fixture f = catalog();
        CountingModel model = new CountingModel();
        String message = "  send an email " + "x".repeat(Selector.MAX_MESSAGE_CHARS);
        RequestContext ctx = context(f, model, message, true);
        assertThat(ctx.whole()).isFalse();
        assertThat(ctx.searched()).hasSize(Selector.MAX_MESSAGE_CHARS).startsWith("send an email x");
        assertThat(ctx.shortened()).isEqualTo(new Shortened(message.length(), Selector.MAX_MESSAGE_CHARS));
        Selection long_ = f.selector.select(Selector.Request.of(message, Principal.ANONYMOUS), ctx);
        Selection firstPart = f.selector.select(Selector.Request.of(ctx.searched(), Principal.ANONYMOUS));
        assertThat(long_.selected().stream().map(Selection.SelectedTool::name).toList())
                .isNotEmpty()
                .isEqualTo(firstPart.selected().stream()
                        .map(Selection.SelectedTool::name)
                        .toList());

        // the router reads what the ranking read: a pasted document costs it no second model call over the whole
        assertThat(ctx.documentVector())
                .isEqualTo(model.inner.embedDocuments(List.of(ctx.searched())).get(0));
        assertThat(ctx.queryVector()).isEqualTo(model.inner.embedQuery(ctx.searched()));
        assertThat(model.calls).containsExactly("message");
        assertThat(ctx.wordsKnownToMatch()).isFalse();
    }

    @Test
    void a_message_the_ranking_reads_whole_is_not_shortened() {
        Fixture f = catalog();
        String fits = "send an email " + "x".repeat(Selector.MAX_MESSAGE_CHARS - 14) + "   ";
        RequestContext ctx = context(f, new CountingModel(), fits, true);
        assertThat(ctx.whole()).isTrue();
        assertThat(ctx.shortened()).isNull();
        assertThat(ctx.searched()).isEqualTo(fits.strip());
    }

    @Test
    void a_surrogate_pair_at_the_cut_is_left_out_whole_never_split() {
        String message = "a".repeat(Selector.MAX_MESSAGE_CHARS - 1) + "\uD83D\uDE00" + "b".repeat(10);
        assertThat(Shortened.rankedPart(message)).hasSize(Selector.MAX_MESSAGE_CHARS - 1);
        assertThat(Shortened.of(message)).isEqualTo(new Shortened(message.length(), Selector.MAX_MESSAGE_CHARS - 1));
    }

    @Test
    void the_snapshot_and_allowed_set_are_taken_once_and_every_step_sees_them() {
        Fixture f = catalog();
        RequestContext ctx = context(f, new CountingModel(), "send an email", false);
        f.catalog.sync(Fixture.assistantCatalog().subList(0, 3));
        assertThat(ctx.snapshot().size()).isEqualTo(Fixture.assistantCatalog().size());
        Selection s = f.selector.select(Selector.Request.of(ctx.message(), Principal.ANONYMOUS), ctx);
        assertThat(s.visibleCount()).isEqualTo(Fixture.assistantCatalog().size());
        assertThat(ctx.allowed().cardinality())
                .isEqualTo(Fixture.assistantCatalog().size());
    }

    @Test
    void a_blank_or_too_long_message_is_refused_as_a_selection_request_refuses_it() {
        Fixture f = catalog();
        assertThatThrownBy(() -> context(f, new CountingModel(), "  ", true))
                .hasMessage("message must not be blank, got: '  '");
        assertThatThrownBy(() ->
                        context(f, new CountingModel(), "a".repeat(InputLimits.MAX_REQUEST_MESSAGE_CHARS + 1), true))
                .hasMessage("message must be at most 1,048,576 characters, got: 1,048,577 characters");
    }
}
