package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.ProviderConfig;
import dev.toolscout.agent.Providers;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.server.http.api.RunLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, item 3, over real HTTP: agent runs wait for their model off the request threads. A local Anthropic
 * API ({@link HeldProvider}) holds every model call until the test releases it; one user key starts 80 runs (the
 * server's pool has 64 request threads), and while all 80 wait for the model another key's {@code /v1/select}
 * answers, the key's next run is refused with 429 naming the per-principal limit, and another key's run still
 * starts. Once released, every run ends.
 */
class ConcurrentRunsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ALICE = "alice-user-key-0123456789";
    static final String BOB = "bob-user-key-01234567890";
    static final int RUNS = 80;
    /** How long a request that should answer at once may take before the test gives up on it. */
    static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    @Test
    void select_answers_while_80_runs_of_one_key_wait_for_the_model_and_the_next_run_gets_429() throws Exception {
        Map<String, GatewayAuth.Key> keys = Map.of(
                ALICE, new GatewayAuth.Key(new Principal("alice", null, null), Role.USER),
                BOB, new GatewayAuth.Key(new Principal("bob", null, null), Role.USER));
        try (HeldProvider model = new HeldProvider();
                McpRuntime rt = McpRuntime.open(ToolScout.builder().dataDir(tmp.resolve("data")))) {
            ProviderConfig config = new ProviderConfig(
                    ProviderConfig.Kind.ANTHROPIC,
                    "claude-sonnet-4-5",
                    model.baseUrl(),
                    "sk-ant-test",
                    Duration.ofMinutes(5),
                    0,
                    1024,
                    false);
            Agent agent =
                    Agent.builder(rt.scout(), Providers.of(config, RUNS + 20)).build();
            GatewayAuth auth = GatewayAuth.withRoles(keys);
            HttpApi api = new HttpApi(auth, HttpApi.Options.DEFAULT.withRuns(new RunLimits(RUNS + 20, RUNS)));
            try (GatewayHttpServer http = GatewayHttpServer.start(null, auth, "127.0.0.1", 0, api)) {
                api.open(new ApiBackend(rt.scout(), null, agent));
                HttpClient client = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
                List<CompletableFuture<HttpResponse<String>>> runs = new ArrayList<>();
                for (int i = 0; i < RUNS; i++) {
                    runs.add(client.sendAsync(message(http, "c" + i), HttpResponse.BodyHandlers.ofString()));
                }
                // every run reaches the model, which holds it (bounded: on a server that pins a request thread per run,
                // fewer get there, and the select below is what fails)
                long until = System.nanoTime() + BOUND.toNanos();
                while (model.arrived() < RUNS && System.nanoTime() < until) {
                    Thread.sleep(50);
                }

                HttpResponse<String> select = client.send(
                        HttpRequest.newBuilder(URI.create(http.baseUrl() + "/v1/select"))
                                .timeout(BOUND)
                                .header("Authorization", "Bearer " + BOB)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"message\": \"send an email to Ana\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(select.statusCode()).as(select.body()).isEqualTo(200);
                assertThat(model.arrived()).as("runs waiting for the model").isEqualTo(RUNS);
                assertThat(runs).noneMatch(CompletableFuture::isDone);

                HttpResponse<String> refused =
                        client.send(message(http, "one-more"), HttpResponse.BodyHandlers.ofString());
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
                assertThat(refused.headers().firstValue("Retry-After")).hasValue("10");
                assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                JsonNode problem = JSON.readTree(refused.body());
                assertThat(problem.path("limit").asText()).isEqualTo("max-runs-per-principal");
                assertThat(problem.path("value").asInt()).isEqualTo(RUNS);
                assertThat(problem.path("detail").asText()).contains("--max-runs-per-principal " + RUNS);
                assertThat(model.arrived())
                        .as("the refused run never reached the model")
                        .isEqualTo(RUNS);
                // the cap is alice's: bob's run starts and waits for the model like hers
                CompletableFuture<HttpResponse<String>> bobs =
                        client.sendAsync(message(http, "bobs", BOB), HttpResponse.BodyHandlers.ofString());
                until = System.nanoTime() + BOUND.toNanos();
                while (model.arrived() < RUNS + 1 && !bobs.isDone() && System.nanoTime() < until) {
                    Thread.sleep(50);
                }
                assertThat(model.arrived())
                        .as("runs waiting for the model, bob's included")
                        .isEqualTo(RUNS + 1);

                model.release();
                runs.add(bobs);
                for (CompletableFuture<HttpResponse<String>> f : runs) {
                    HttpResponse<String> r = f.get(BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    assertThat(JSON.readTree(r.body()).path("status").asText()).isEqualTo("done");
                }
                // the slots were given back: the key runs again
                HttpResponse<String> again = client.send(message(http, "after"), HttpResponse.BodyHandlers.ofString());
                assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
                assertThat(JSON.readTree(again.body()).path("text").asText()).isEqualTo("Done.");
            }
        }
    }

    private static HttpRequest message(GatewayHttpServer http, String conversation) {
        return message(http, conversation, ALICE);
    }

    private static HttpRequest message(GatewayHttpServer http, String conversation, String key) {
        return HttpRequest.newBuilder(URI.create(http.baseUrl() + "/v1/conversations/" + conversation + "/messages"))
                .timeout(Duration.ofMinutes(2))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"message\": \"Summarize the unread emails\"}"))
                .build();
    }
}
