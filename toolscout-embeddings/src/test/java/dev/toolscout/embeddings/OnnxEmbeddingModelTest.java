package dev.toolscout.embeddings;

import static dev.toolscout.embeddings.TestVectors.dot;
import static dev.toolscout.embeddings.TestVectors.norm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.toolscout.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs the real quantized ONNX models shipped in the LangChain4j jars. */
class OnnxEmbeddingModelTest {
    private static final List<String> DOCS = List.of(
            "calendar create event: Creates an event in the user's calendar. Parameters: title, start time.",
            "files delete: Deletes a file from disk.",
            "weather forecast: Gets the forecast for a city.");

    static List<String> ids() {
        return LocalEmbeddingModels.ids();
    }

    @ParameterizedTest
    @MethodSource("ids")
    void vectors_have_384_dimensions(String id) {
        EmbeddingModel m = LocalEmbeddingModels.create(id);
        assertThat(m.dimension()).isEqualTo(384);
        assertThat(m.embedQuery("find my flights")).hasSize(384);
        assertThat(m.embedDocuments(DOCS)).allSatisfy(v -> assertThat(v).hasSize(384));
    }

    @ParameterizedTest
    @MethodSource("ids")
    void query_and_document_vectors_have_unit_norm(String id) {
        EmbeddingModel m = LocalEmbeddingModels.create(id);
        assertThat(norm(m.embedQuery("send an email to Bob"))).isCloseTo(1.0, within(1e-5));
        for (float[] v : m.embedDocuments(DOCS)) {
            assertThat(norm(v)).isCloseTo(1.0, within(1e-5));
        }
    }

    @ParameterizedTest
    @MethodSource("ids")
    void same_text_twice_gives_the_same_vector(String id) {
        EmbeddingModel m = LocalEmbeddingModels.create(id);
        String query = "convert 10 euros to dollars";
        assertThat(m.embedQuery(query)).containsExactly(m.embedQuery(query));
        assertThat(m.embedDocuments(DOCS).get(1))
                .containsExactly(m.embedDocuments(DOCS).get(1));
    }

    @ParameterizedTest
    @MethodSource("ids")
    void batch_gives_the_same_vectors_as_one_by_one_in_input_order(String id) {
        EmbeddingModel m = LocalEmbeddingModels.create(id);
        List<float[]> batch = m.embedDocuments(DOCS);
        assertThat(batch).hasSize(DOCS.size());
        for (int i = 0; i < DOCS.size(); i++) {
            float[] single = m.embedDocuments(List.of(DOCS.get(i))).get(0);
            assertThat(batch.get(i)).containsExactly(single, within(1e-5f));
        }
    }

    @ParameterizedTest
    @MethodSource("ids")
    void meeting_request_is_closer_to_calendar_event_than_to_file_deletion(String id) {
        EmbeddingModel m = LocalEmbeddingModels.create(id);
        float[] q = m.embedQuery("schedule a meeting tomorrow");
        List<float[]> docs = m.embedDocuments(List.of("create a calendar event", "delete a file from disk"));
        assertThat(dot(q, docs.get(0))).isGreaterThan(dot(q, docs.get(1)));
    }

    @ParameterizedTest
    @MethodSource("ids")
    void model_id_is_the_factory_id(String id) {
        assertThat(LocalEmbeddingModels.create(id).modelId()).isEqualTo(id);
    }

    @Test
    void instruct_id_prefixes_queries_with_the_bge_instruction_and_leaves_documents_alone() {
        EmbeddingModel plain = LocalEmbeddingModels.create(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q);
        EmbeddingModel instruct = LocalEmbeddingModels.create(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q_INSTRUCT);
        String query = "what is the weather in Paris";

        float[] expected = plain.embedDocuments(List.of(LocalEmbeddingModels.BGE_QUERY_INSTRUCTION + query))
                .get(0);
        assertThat(instruct.embedQuery(query)).containsExactly(expected, within(1e-6f));
        assertThat(plain.embedQuery(query))
                .containsExactly(plain.embedDocuments(List.of(query)).get(0), within(1e-6f));
        assertThat(instruct.embedDocuments(DOCS).get(0))
                .containsExactly(plain.embedDocuments(DOCS).get(0), within(1e-6f));
    }

    @Test
    void every_id_is_a_different_recipe_so_cached_vectors_never_mix() {
        float[] a = LocalEmbeddingModels.create(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q)
                .embedQuery("book a table");
        float[] b = LocalEmbeddingModels.create(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q_INSTRUCT)
                .embedQuery("book a table");
        float[] c = LocalEmbeddingModels.create(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q)
                .embedQuery("book a table");
        assertThat(LocalEmbeddingModels.ids()).doesNotHaveDuplicates();
        assertThat(dot(a, b)).isLessThan(0.999);
        assertThat(dot(a, c)).isLessThan(0.999);
    }

    @Test
    void single_threaded_sessions_give_the_same_vectors_as_langchain4j_model_classes() {
        // pins the contract with LangChain4j: our resource names and pooling modes are the ones its classes use
        List<String> texts = List.of(DOCS.get(0), "schedule a meeting tomorrow");
        assertSameVectors(
                LocalEmbeddingModels.create(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q),
                new BgeSmallEnV15QuantizedEmbeddingModel(),
                texts);
        assertSameVectors(
                LocalEmbeddingModels.create(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q),
                new AllMiniLmL6V2QuantizedEmbeddingModel(),
                texts);
    }

    private static void assertSameVectors(
            EmbeddingModel ours, dev.langchain4j.model.embedding.EmbeddingModel theirs, List<String> texts) {
        List<float[]> mine = ours.embedDocuments(texts);
        for (int i = 0; i < texts.size(); i++) {
            float[] reference = theirs.embed(texts.get(i)).content().vector();
            assertThat(mine.get(i)).containsExactly(reference, within(1e-5f));
        }
    }

    @Test
    void unknown_id_is_rejected_naming_it_and_the_known_ids() {
        assertThatThrownBy(() -> LocalEmbeddingModels.create("bge-large"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bge-large'")
                .hasMessageContaining("bge-small-en-v1.5-q")
                .hasMessageContaining("all-minilm-l6-v2-q");
    }

    @Test
    void default_id_is_a_known_id() {
        assertThat(LocalEmbeddingModels.ids()).contains(LocalEmbeddingModels.DEFAULT_ID);
    }

    @Test
    void blank_or_null_query_is_rejected() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID);
        assertThatThrownBy(() -> m.embedQuery("  "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("text must not be blank");
        assertThatThrownBy(() -> m.embedQuery(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("text must not be null");
    }

    @Test
    void blank_document_is_rejected_naming_its_index() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID);
        assertThatThrownBy(() -> m.embedDocuments(Arrays.asList("a tool", "", "another")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("texts[1] must not be blank");
        assertThatThrownBy(() -> m.embedDocuments(Arrays.asList("a tool", null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("texts[1] must not be null");
    }

    @Test
    void empty_batch_gives_no_vectors() {
        assertThat(LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID).embedDocuments(List.of()))
                .isEmpty();
    }

    @Test
    void text_longer_than_the_token_window_still_gives_a_unit_vector() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID);
        String longText = "Returns the current exchange rate between two currencies. ".repeat(120);
        assertThat(norm(m.embedDocuments(List.of(longText)).get(0))).isCloseTo(1.0, within(1e-5));
    }

    @Test
    void concurrent_queries_give_the_same_vectors_as_sequential_ones() throws Exception {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID);
        List<String> queries =
                List.of("play some jazz", "translate hello to French", "how tall is Everest", "pay rent");
        List<float[]> sequential = new ArrayList<>();
        for (String q : queries) {
            sequential.add(m.embedQuery(q));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<float[]>> futures = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (String q : queries) {
                    futures.add(pool.submit(() -> m.embedQuery(q)));
                }
            }
            for (int i = 0; i < futures.size(); i++) {
                assertThat(futures.get(i).get()).containsExactly(sequential.get(i % queries.size()), within(1e-6f));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
