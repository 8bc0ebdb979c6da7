package dev.toolscout.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
    List<Socket> accepted = new CopyOnWriteArrayList<>();
    ServerSocket hanging = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    try {
      Thread.ofVirtual().start(() -> {
        try {
          while (true) {
            accepted.add(hanging.accept());
          }
        } catch (java.io.IOException closed) {
          // the test is over
        }
      });
      ProviderConfig config = new ProviderConfig(ProviderConfig.Kind.ANTHROPIC, "claude-sonnet-4-5",
          "http://127.0.0.1:" + hanging.getLocalPort() + "/v1", "sk-ant-test", Duration.ofMinutes(5), 0, 1024, false);
      ChatProvider provider = Providers.of(config, 1, Duration.ZERO);
      ChatRequest request = ChatRequest.builder().messages(UserMessage.from("Hello")).build();
      CompletableFuture<Throwable> first = CompletableFuture.supplyAsync(() -> {
        try {
          provider.chat(request, t -> { });
          return null;
        } catch (RuntimeException | InterruptedException e) {
          return e;
        }
      }, r -> Thread.ofVirtual().start(r));
      long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (accepted.isEmpty() && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      assertThat(accepted).as("the first call reached the provider").hasSize(1);

      assertThatThrownBy(() -> provider.chat(request, t -> { }))
          .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.retriable()).isTrue())
          .hasMessage("anthropic/claude-sonnet-4-5 is busy: 1 calls to it are in progress, the most allowed "
              + "(--max-provider-calls 1), and none ended within 0 s; try again later");
      assertThat(accepted).as("connections the provider got").hasSize(1);
      assertThat(first).isNotDone();

      hanging.close();
      for (Socket s : accepted) {
        s.close();
      }
      assertThat(first.get(1, TimeUnit.MINUTES)).isInstanceOf(ProviderException.class);
    } finally {
      hanging.close();
    }
  }
}
