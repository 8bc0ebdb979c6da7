package dev.toolscout.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 30, item 3: LLM provider calls have a bulkhead. The provider is a real socket that accepts every
 * connection and never answers (a model that hangs); the shipped Anthropic client talks to it.
 */
class ProviderBulkheadTest {
    @Test
    void past_the_provider_calls_in_progress_a_call_fails_as_retriable_naming_the_limit_and_is_not_sent()
            throws Exception {
        try (HangingServer hanging = new HangingServer()) {
            ProviderConfig config = new ProviderConfig(
                    ProviderConfig.Kind.ANTHROPIC,
                    "claude-sonnet-4-5",
                    hanging.url() + "/v1",
                    "sk-ant-test",
                    Duration.ofMinutes(5),
                    0,
                    1024,
                    false);
            ChatProvider provider = Providers.of(config, 1, Duration.ZERO);
            ChatRequest request =
                    ChatRequest.builder().messages(UserMessage.from("Hello")).build();
            CompletableFuture<Throwable> first = CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            provider.chat(request, t -> {});
                            return null;
                        } catch (RuntimeException | InterruptedException e) {
                            return e;
                        }
                    },
                    r -> Thread.ofVirtual().start(r));
            assertThat(hanging.awaitConnection())
                    .as("the first call reached the provider")
                    .isEqualTo(1);

            assertThatThrownBy(() -> provider.chat(request, t -> {}))
                    .isInstanceOfSatisfying(
                            ProviderException.class,
                            e -> assertThat(e.retriable()).isTrue())
                    .hasMessage("anthropic/claude-sonnet-4-5 is busy: 1 calls to it are in progress, the most allowed "
                            + "(--max-provider-calls 1), and none ended within 0 s; try again later");
            assertThat(hanging.connections()).as("connections the provider got").isEqualTo(1);
            assertThat(first).isNotDone();

            hanging.goAway();
            assertThat(first.get(1, TimeUnit.MINUTES)).isInstanceOf(ProviderException.class);
        }
    }
}
