package dev.toolscout.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link ModelCalls}: the bound on a model's concurrent calls, and the setting that chooses it. */
class ModelCallsTest {
    @Test
    void no_more_calls_than_the_bound_run_at_once_and_the_others_run_after() throws Exception {
        ModelCalls calls = new ModelCalls(2);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch twoInside = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int n = i;
                results.add(pool.submit(() -> calls.run(() -> {
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    twoInside.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    inside.decrementAndGet();
                    return n;
                })));
            }
            twoInside.await();
            // the three others queue behind the two running calls
            while (calls.waiting() < 3) {
                Thread.onSpinWait();
            }
            assertThat(inside).hasValue(2);
            release.countDown();
            for (int i = 0; i < 5; i++) {
                assertThat(results.get(i).get()).isEqualTo(i);
            }
            assertThat(most).hasValue(2);
            assertThat(calls.waiting()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void a_failing_call_fails_only_its_caller_and_gives_its_turn_back() {
        ModelCalls calls = new ModelCalls(1);
        assertThatThrownBy(() -> calls.run(() -> {
                    throw new IllegalStateException("the model failed");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the model failed");
        // the one permit is back: the next call runs (it would wait for ever otherwise)
        assertThat(calls.run(() -> "next")).isEqualTo("next");
    }

    @Test
    void an_interrupted_caller_still_runs_its_call_and_keeps_its_interrupt_status() {
        ModelCalls calls = new ModelCalls(1);
        Thread.currentThread().interrupt();
        try {
            assertThat(calls.run(() -> "done")).isEqualTo("done");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void zero_is_no_bound() {
        assertThat(ModelCalls.UNBOUNDED.bound()).isZero();
        assertThat(ModelCalls.UNBOUNDED.run(() -> 1)).isEqualTo(1);
        assertThat(ModelCalls.UNBOUNDED.waiting()).isZero();
    }

    @Test
    void a_negative_bound_is_rejected_naming_the_rule_and_the_value() {
        assertThatThrownBy(() -> new ModelCalls(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("model calls at once must be >= 0 (0: no bound), got: -1");
        assertThatThrownBy(() -> LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID, -2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got: -2");
    }

    @Test
    void the_setting_is_an_integer_of_zero_or_more_and_a_bad_one_names_its_source_and_value() {
        assertThat(LocalEmbeddingModels.modelCalls(" 3 ", "system property toolscout.model.calls"))
                .isEqualTo(3);
        assertThat(LocalEmbeddingModels.modelCalls("0", "x")).isZero();
        assertThatThrownBy(() -> LocalEmbeddingModels.modelCalls("two", "environment variable TOOLSCOUT_MODEL_CALLS"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("environment variable TOOLSCOUT_MODEL_CALLS (model calls at once) must be an integer >= 0"
                        + " (0: no bound, default: 0), got: 'two'");
        assertThatThrownBy(() -> LocalEmbeddingModels.modelCalls("-1", "system property toolscout.model.calls"))
                .hasMessageContaining("got: '-1'");
        assertThat(LocalEmbeddingModels.DEFAULT_MODEL_CALLS).isZero();
    }

    @Test
    void a_bounded_model_gives_the_same_vectors_under_concurrency_as_an_unbounded_one_alone() throws Exception {
        EmbeddingModel alone = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID, 0);
        EmbeddingModel bounded = LocalEmbeddingModels.create(LocalEmbeddingModels.DEFAULT_ID, 1);
        List<String> messages = List.of(
                "play some jazz",
                "Find the cheapest flights from Berlin to Oslo. Then book a table for two near the hotel.",
                "how tall is Everest");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<List<float[]>>> futures = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                for (String m : messages) {
                    futures.add(pool.submit(() -> bounded.embedQueries(m, List.of())));
                }
            }
            for (int i = 0; i < futures.size(); i++) {
                assertThat(futures.get(i).get().get(0))
                        .containsExactly(alone.embedQuery(messages.get(i % messages.size())));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
