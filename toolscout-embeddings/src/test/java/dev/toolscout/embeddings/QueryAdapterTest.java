package dev.toolscout.embeddings;

import static dev.toolscout.embeddings.TestVectors.dot;
import static dev.toolscout.embeddings.TestVectors.norm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.toolscout.embedding.EmbeddingModel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bundled query adapter of the default model, with the real model, and the adapter file format. */
class QueryAdapterTest {
    private static final String MINI = LocalEmbeddingModels.ALL_MINILM_L6_V2_Q;
    private static final String FILE = LocalEmbeddingModels.ADAPTER_FOLDER + MINI + ".adapter";
    private static final List<String> QUERIES =
            List.of("book a flight to Paris next Monday", "what's the weather in Oslo", "translate this into German");

    @Test
    void bundled_adapter_loads_for_the_default_model_and_its_dimension() {
        QueryAdapter a = LocalEmbeddingModels.bundledAdapter(MINI);
        assertThat(a.modelId()).isEqualTo(MINI).isEqualTo(LocalEmbeddingModels.DEFAULT_ID);
        assertThat(a.dimension()).isEqualTo(LocalEmbeddingModels.dimension(MINI));
        assertThat(a.beta()).isEqualTo(1.0);
        assertThat(a.deltaNorm()).isBetween(2.5, 3.5); // adapter b of docs/EVALUATION.md: |W - I| 3.0
        assertThat(a.provenance())
                .contains("qrels.train.tsv")
                .contains("lambda 0.1")
                .contains("test split not used");
        assertThat(((AdaptedQueryModel) LocalEmbeddingModels.create(MINI))
                        .adapter()
                        .provenance())
                .isEqualTo(a.provenance());
    }

    @Test
    void adapted_query_vectors_are_unit_length_and_differ_from_plain_ones() {
        EmbeddingModel product = LocalEmbeddingModels.create(MINI);
        EmbeddingModel plain = LocalEmbeddingModels.createPlain(MINI);
        QueryAdapter a = LocalEmbeddingModels.bundledAdapter(MINI);
        for (String q : QUERIES) {
            float[] adapted = product.embedQuery(q);
            float[] p = plain.embedQuery(q);
            assertThat(adapted).hasSize(384);
            assertThat(norm(adapted)).isCloseTo(1.0, within(1e-5));
            assertThat(dot(adapted, p)).isLessThan(0.999).isGreaterThan(0.5); // moved, but still near the query
            assertThat(adapted).containsExactly(a.apply(p));
        }
    }

    @Test
    void the_adapted_model_embeds_the_query_with_its_numbers() {
        // dropping numbers from the query helped one development set only (docs/FITTED_RULES.md)
        EmbeddingModel product = LocalEmbeddingModels.create(MINI);
        EmbeddingModel plain = LocalEmbeddingModels.createPlain(MINI);
        QueryAdapter a = LocalEmbeddingModels.bundledAdapter(MINI);
        String q = "What is 641 plus 719?";
        assertThat(product.embedQuery(q)).containsExactly(a.apply(plain.embedQuery(q)));
        assertThat(product.embedQuery(q)).isNotEqualTo(a.apply(plain.embedQuery("What is plus ?")));
    }

    @Test
    void document_vectors_model_id_and_dimension_are_those_of_the_plain_model() {
        EmbeddingModel product = LocalEmbeddingModels.create(MINI);
        EmbeddingModel plain = LocalEmbeddingModels.createPlain(MINI);
        assertThat(product.modelId()).isEqualTo(plain.modelId()).isEqualTo(MINI);
        assertThat(product.dimension()).isEqualTo(plain.dimension());
        List<float[]> a = product.embedDocuments(QUERIES);
        List<float[]> b = plain.embedDocuments(QUERIES);
        for (int i = 0; i < QUERIES.size(); i++) {
            assertThat(a.get(i)).containsExactly(b.get(i));
        }
    }

    @Test
    void other_models_have_no_adapter() {
        for (String id :
                List.of(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q, LocalEmbeddingModels.BGE_SMALL_EN_V15_Q_INSTRUCT)) {
            assertThat(LocalEmbeddingModels.create(id)).isInstanceOf(OnnxEmbeddingModel.class);
            assertThat(LocalEmbeddingModels.create(id).embedQuery(QUERIES.get(0)))
                    .containsExactly(LocalEmbeddingModels.createPlain(id).embedQuery(QUERIES.get(0)));
        }
    }

    @Test
    void file_round_trips_and_the_adapter_applies_exactly_as_evaluated() {
        float[] delta = new float[9];
        delta[1] = 0.5f; // row 0: u0 = q0 + beta * 0.5 * q1
        QueryAdapter a = QueryAdapter.of("m", 3, 2.0, delta, "test");
        QueryAdapter back = QueryAdapter.parse(a.toBytes(), "mem");
        assertThat(back.modelId()).isEqualTo("m");
        assertThat(back.provenance()).isEqualTo("test");
        assertThat(back.dimension()).isEqualTo(3);
        assertThat(back.beta()).isEqualTo(2.0);
        float[] u = back.apply(new float[] {0, 1, 0});
        // (1, 1, 0) normalized
        assertThat(u).containsExactly(new float[] {(float) Math.sqrt(0.5), (float) Math.sqrt(0.5), 0}, within(1e-6f));
        assertThat(back.toBytes()).isEqualTo(a.toBytes());
    }

    @Test
    void apply_gives_a_row_by_row_products_result_bit_for_bit() {
        java.util.Random r = new java.util.Random(7);
        for (int dim : new int[] {5, 8, 384}) {
            float[] delta = new float[dim * dim];
            for (int i = 0; i < delta.length; i++) {
                delta[i] = (float) r.nextGaussian() * 0.1f;
            }
            float[] q = new float[dim];
            for (int i = 0; i < dim; i++) {
                q[i] = (float) r.nextGaussian();
            }
            // the formula as the trainer evaluated it: one row at a time, float products summed in double
            float[] want = new float[dim];
            double norm = 0;
            for (int i = 0; i < dim; i++) {
                double sum = 0;
                for (int j = 0; j < dim; j++) {
                    sum += delta[i * dim + j] * q[j];
                }
                want[i] = (float) (q[i] + 0.7 * sum);
                norm += want[i] * (double) want[i];
            }
            float inv = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < dim; i++) {
                want[i] *= inv;
            }
            assertThat(QueryAdapter.of("m", dim, 0.7, delta, "test").apply(q))
                    .as("dimension %d", dim)
                    .containsExactly(want);
        }
    }

    @Test
    void query_of_another_length_is_rejected() {
        assertThatThrownBy(() -> LocalEmbeddingModels.bundledAdapter(MINI).apply(new float[10]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension 384, got: 10");
    }

    @Test
    void corrupted_file_is_refused_naming_the_file_and_the_checksum() {
        byte[] bytes = LocalEmbeddingModels.bundledAdapter(MINI).toBytes();
        bytes[bytes.length / 2] ^= 1; // one bit in the matrix
        assertThatThrownBy(() -> LocalEmbeddingModels.checked(bytes, FILE, MINI, 384))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("query adapter " + FILE + ": ")
                .hasMessageContaining("checksum mismatch");
    }

    @Test
    void truncated_file_is_refused_naming_the_file() {
        byte[] bytes = LocalEmbeddingModels.bundledAdapter(MINI).toBytes();
        assertThatThrownBy(() -> LocalEmbeddingModels.checked(Arrays.copyOf(bytes, 1000), FILE, MINI, 384))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("query adapter " + FILE + ": ")
                .hasMessageContaining("truncated or corrupted");
        assertThatThrownBy(() -> LocalEmbeddingModels.checked(new byte[0], FILE, MINI, 384))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining("not a query adapter file");
    }

    @Test
    void other_file_kind_or_version_is_refused() {
        byte[] json = "{\"not\": \"an adapter\"} plus some padding bytes".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> QueryAdapter.parse(json, "x.adapter"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("query adapter x.adapter: not a query adapter file (no 'TSQADAPT' header; 45 bytes)");
        byte[] v2 = QueryAdapter.of("m", 2, 1, new float[4], "").toBytes();
        v2[11] = 2; // the int after the 8-byte magic
        assertThatThrownBy(() -> QueryAdapter.parse(v2, "x.adapter"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x.adapter: format version 2 is not supported (this build reads 1)");
    }

    @Test
    void adapter_for_another_model_or_dimension_is_refused() {
        byte[] other = QueryAdapter.of("bge-small-en-v1.5-q", 384, 1, new float[384 * 384], "")
                .toBytes();
        assertThatThrownBy(() -> LocalEmbeddingModels.checked(other, FILE, MINI, 384))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("query adapter " + FILE + ": trained for model 'bge-small-en-v1.5-q', not '" + MINI + "'");
        byte[] small = QueryAdapter.of(MINI, 8, 1, new float[64], "").toBytes();
        assertThatThrownBy(() -> LocalEmbeddingModels.checked(small, FILE, MINI, 384))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("query adapter " + FILE + ": dimension 8 does not match the model's 384");
    }

    @Test
    void non_finite_weights_are_refused() {
        float[] d = new float[4];
        d[3] = Float.NaN;
        assertThatThrownBy(() -> QueryAdapter.of("m", 2, 1, d, ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delta[3] must be finite, got: NaN");
    }
}
