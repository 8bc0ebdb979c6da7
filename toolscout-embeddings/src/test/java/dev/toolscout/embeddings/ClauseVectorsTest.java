package dev.toolscout.embeddings;

import static dev.toolscout.embeddings.TestVectors.dot;
import static dev.toolscout.embeddings.TestVectors.norm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.MessageVectors;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link EmbeddingModel#embedQueries}: a message and its clauses from one model call, on the real models.
 */
class ClauseVectorsTest {
    private static final String FLIGHTS = "Find the cheapest flights from Berlin to Oslo next Monday";
    private static final String TABLE = "book a table for two at an Italian restaurant near the hotel";
    private static final String MESSAGE = FLIGHTS + ". Then " + TABLE + ".";

    static List<String> ids() {
        return LocalEmbeddingModels.ids();
    }

    @ParameterizedTest
    @MethodSource("ids")
    void the_messages_vector_is_exactly_its_vector_alone(String id) {
        EmbeddingModel m = LocalEmbeddingModels.create(id);
        List<float[]> v = m.embedQueries(MESSAGE, List.of(FLIGHTS, TABLE));
        assertThat(v).hasSize(3);
        assertThat(v.get(0)).containsExactly(m.embedQuery(MESSAGE));
        assertThat(m.embedQueries(MESSAGE, List.of()).get(0)).containsExactly(m.embedQuery(MESSAGE));
        assertThat(v).allSatisfy(x -> assertThat(norm(x)).isCloseTo(1.0, within(1e-5)));
    }

    @ParameterizedTest
    @MethodSource("ids")
    void a_message_embedded_once_gives_its_query_vectors_and_its_document_vector(String id) {
        EmbeddingModel m = LocalEmbeddingModels.create(id);
        MessageVectors v = m.embedMessage(MESSAGE, List.of(FLIGHTS, TABLE));
        List<float[]> queries = m.embedQueries(MESSAGE, List.of(FLIGHTS, TABLE));
        assertThat(v.queries()).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(v.queries().get(i)).containsExactly(queries.get(i));
        }
        // the router's vector: the message as a document, bit for bit, whether or not a query differs from it (the
        // adapter, BGE's instruction)
        assertThat(v.document())
                .containsExactly(m.embedDocuments(List.of(MESSAGE)).get(0));
    }

    @Test
    void a_clause_read_from_the_message_stands_for_its_own_step() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        List<float[]> v = m.embedQueries(MESSAGE, List.of(FLIGHTS, TABLE));
        List<float[]> docs = m.embedDocuments(List.of(
                "flights search: Search flights between two airports on a date.",
                "restaurant reservation: Reserve a table at a restaurant."));
        // each clause is nearer its own tool than the other clause's, and nearer it than the whole message is
        assertThat(dot(v.get(1), docs.get(0))).isGreaterThan(dot(v.get(1), docs.get(1)));
        assertThat(dot(v.get(2), docs.get(1))).isGreaterThan(dot(v.get(2), docs.get(0)));
        assertThat(dot(v.get(1), docs.get(0))).isGreaterThan(dot(v.get(0), docs.get(0)));
        assertThat(dot(v.get(2), docs.get(1))).isGreaterThan(dot(v.get(0), docs.get(1)));
        // and close to the clause embedded alone, though not equal: its tokens saw the whole message
        float[] alone = m.embedQuery(TABLE);
        assertThat(dot(v.get(2), alone)).isGreaterThan(0.5).isLessThan(0.999);
    }

    @Test
    void a_clause_the_message_does_not_hold_is_embedded_alone() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        String other = "order a pizza for dinner";
        assertThat(m.embedQueries(MESSAGE, List.of(other)).get(1)).containsExactly(m.embedQuery(other));
    }

    @Test
    void one_call_reads_a_message_and_a_clause_ending_past_its_first_128_tokens_gets_no_vector() {
        ClauseEncoder encoder = BundledOnnxModels.allMiniLmL6V2Quantized().clauses();
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        // the tokenizer keeps a query's first 128 tokens: TABLE, after 150 words of filler, is not among them
        String filler = String.join(" ", Collections.nCopies(150, "please")) + ". ";
        String message = FLIGHTS + ". " + filler + TABLE + ".";
        java.util.concurrent.atomic.AtomicInteger further = new java.util.concurrent.atomic.AtomicInteger();
        float[][] read = encoder.embed(message, List.of(FLIGHTS, TABLE), r -> further.incrementAndGet());
        assertThat(further.get()).as("calls besides the message's").isZero();
        assertThat(read[2]).isSameAs(ClauseEncoder.PAST);
        List<float[]> v = m.embedQueries(message, List.of(FLIGHTS, TABLE));
        assertThat(v.get(0)).containsExactly(m.embedQuery(message));
        // FLIGHTS is read from the message's call: nearer its own vector alone than the message's vector is
        assertThat(dot(v.get(1), m.embedQuery(FLIGHTS))).isGreaterThan(dot(v.get(0), m.embedQuery(FLIGHTS)));
        assertThat(v.get(2)).as("past the call: ranked by its words alone").isNull();
        // the same through embedMessage, whose vectors the selection uses
        MessageVectors mv = m.embedMessage(message, List.of(FLIGHTS, TABLE));
        assertThat(mv.queries()).hasSize(3);
        assertThat(mv.queries().get(2)).isNull();
    }

    @Test
    void a_first_clause_longer_than_a_call_reads_costs_no_further_call_that_reads_nothing() {
        ClauseEncoder encoder = BundledOnnxModels.allMiniLmL6V2Quantized().clauses();
        String longClause = "Please " + String.join(" ", Collections.nCopies(200, "report")) + " now";
        String message = longClause + ". Then " + TABLE + ".";
        java.util.concurrent.atomic.AtomicInteger further = new java.util.concurrent.atomic.AtomicInteger();
        float[][] v = encoder.embed(message, List.of(longClause, TABLE), r -> further.incrementAndGet());
        // a call from the clause's start would read the same tokens as the first: none is made, and both clauses lie
        // past what the one call read
        assertThat(further.get()).isZero();
        assertThat(v[1]).isSameAs(ClauseEncoder.PAST);
        assertThat(v[2]).isSameAs(ClauseEncoder.PAST);
    }

    @Test
    void a_clause_joined_from_two_is_embedded_alone() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        String joined = "Find the cheapest flights from Berlin to Oslo next Monday book a table for two";
        assertThat(ClauseEncoder.locate(MESSAGE, joined, 0)).isNull();
        assertThat(m.embedQueries(MESSAGE, List.of(joined)).get(1)).containsExactly(m.embedQuery(joined));
    }

    /**
     * A long request of many steps, as etom-mcp's level-4 ones: more than 128 tokens (its last clause ends past
     * them) and a clause joined from two (embedded alone).
     */
    private static final String LONG = "I need to send 0.05 ETH from my wallet at address "
            + "'0xaBcDeF1234567890AbCdEf1234567890AbCdEf12' to '0x1234567890abcdef1234567890abcdef12345678' on the Goerli"
            + " testnet. First, check my current balance on Goerli to make sure I have enough ETH. Then look up the"
            + " current gas price on the network and estimate the fee of the transfer. Then proceed with the transaction"
            + " if the balance is sufficient, and finally email the receipt to my accountant at the usual address.";

    private static final List<String> LONG_CLAUSES = List.of(
            "First, check my current balance on Goerli to make sure I have enough ETH",
            "look up the current gas price on the network and estimate the fee of the transfer",
            "proceed with the transaction if the balance is sufficient, and finally email the receipt to my accountant"
                    + " at the usual address",
            "I need to send 0.05 ETH from my wallet at address '0xaBcDeF1234567890AbCdEf1234567890AbCdEf12' to"
                    + " '0x1234567890abcdef1234567890abcdef12345678' on the Goerli testnet book a table for two");

    @Test
    void the_calls_beside_the_messages_give_the_vectors_of_the_calls_run_in_turn() {
        ClauseEncoder encoder = BundledOnnxModels.allMiniLmL6V2Quantized().clauses();
        EmbeddingModel m = LocalEmbeddingModels.createPlain(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        // a clause the message does not hold is embedded alone, by a call beside the message's
        assertThat(ClauseEncoder.locate(LONG, LONG_CLAUSES.get(3), 0)).isNull();
        List<float[]> v = m.embedQueries(LONG, LONG_CLAUSES);
        assertThat(v.get(1)).isNotNull();
        assertThat(v.get(3)).as("ends past the first 128 tokens").isNull();
        assertThat(v.get(4)).containsExactly(m.embedQuery(LONG_CLAUSES.get(3)));
        // an executor that starts nothing: the caller runs every call itself, one after the other
        float[][] inTurn = encoder.embed(LONG, LONG_CLAUSES, r -> {});
        float[][] beside = encoder.embed(LONG, LONG_CLAUSES);
        assertThat(beside).hasNumberOfRows(5);
        assertThat(beside[3]).isSameAs(ClauseEncoder.PAST);
        for (int i = 0; i < inTurn.length; i++) {
            assertThat(beside[i]).as("vector %d", i).containsExactly(inTurn[i]);
        }
    }

    @Test
    void messages_embedded_on_many_threads_at_once_get_the_vectors_they_get_alone() throws Exception {
        EmbeddingModel m = LocalEmbeddingModels.createPlain(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        List<String> messages = List.of(LONG, MESSAGE, LONG + " " + MESSAGE);
        List<List<String>> clauses =
                List.of(LONG_CLAUSES, List.of(FLIGHTS, TABLE), List.of(FLIGHTS, LONG_CLAUSES.get(3)));
        List<List<float[]>> expected = new java.util.ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            expected.add(m.embedQueries(messages.get(i), clauses.get(i)));
        }
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(6)) {
            List<java.util.concurrent.Future<Boolean>> same = new java.util.ArrayList<>();
            for (int round = 0; round < 24; round++) {
                int i = round % messages.size();
                same.add(pool.submit(() -> {
                    List<float[]> got = m.embedQueries(messages.get(i), clauses.get(i));
                    for (int j = 0; j < got.size(); j++) {
                        if (!java.util.Arrays.equals(got.get(j), expected.get(i).get(j))) {
                            return false;
                        }
                    }
                    return got.size() == expected.get(i).size();
                }));
            }
            for (var f : same) {
                assertThat(f.get()).isTrue();
            }
        }
    }

    @Test
    void a_cls_pooling_model_embeds_each_clause_alone() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.BGE_SMALL_EN_V15_Q);
        List<float[]> v = m.embedQueries(MESSAGE, List.of(FLIGHTS, TABLE));
        assertThat(v.get(1)).containsExactly(m.embedQuery(FLIGHTS));
        assertThat(v.get(2)).containsExactly(m.embedQuery(TABLE));
    }

    @Test
    void a_blank_clause_is_refused_naming_its_index() {
        EmbeddingModel m = LocalEmbeddingModels.create(LocalEmbeddingModels.ALL_MINILM_L6_V2_Q);
        assertThatThrownBy(() -> m.embedQueries(MESSAGE, List.of(FLIGHTS, " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("clauses[1] must not be blank");
    }
}
