package dev.toolscout.bench.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.ProviderConfig;
import dev.toolscout.agent.Providers;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.server.http.GatewayHttpServer;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import dev.toolscout.server.http.api.RunLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code POST /v1/select} latency from one client, without and then with many slow agent runs of another key in
 * flight on the same server, in one run (issue 30, item 3). The server is what {@code serve} runs (Jetty, the HTTP
 * API, the agent loop over the demo catalog with the real embedding model); the LLM is a local Anthropic Messages
 * API that answers every call after a fixed delay (a slow model's turn); each run is one turn. During the second
 * phase RUNS runs are kept in flight (a run that ends is replaced at once), and the selections start once all of
 * them wait for the model.
 *
 * <p>Run: {@code scripts/bench-java.sh dev.toolscout.bench.agent.ConcurrentRunsBench [RUNS] [TURN_MS] [SELECTS]}
 * (default 80 runs, 5000 ms a turn, 1500 selections per phase after 300 warm-up ones, so that the second phase spans
 * several turns of every run). Prints p50, p90, p99 and the max of each phase in milliseconds, and the ratio of
 * the p99s. The runs are let finish their turn before the server stops.
 */
public final class ConcurrentRunsBench {
    private static final String RUNNER = "runner-user-key-0123456789";
    private static final String OTHER = "other-user-key-0123456789";
    private static final String[] MESSAGES = {
        "Schedule a meeting with the team tomorrow at 10", "Send an email to Ana about the invoice",
        "What is on my calendar this week?", "Search the web for Java 25 release notes",
        "Create a task to renew the certificate", "Find the latest sales report in the drive",
        "Remind me to call the bank on Friday", "Summarize the unread emails from today",
        "Post a message in the general channel", "Look up the weather forecast for Lisbon",
    };
    private static final String ANSWER = "{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\",\"type\":\"message\","
            + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[{\"type\":\"text\","
            + "\"text\":\"Done.\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
            + "\"usage\":{\"input_tokens\":512,\"output_tokens\":24}}";

    private ConcurrentRunsBench() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 80;
        int turnMs = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int selects = args.length > 2 ? Integer.parseInt(args[2]) : 1500;
        Path dir = Files.createTempDirectory("runs-bench");
        AtomicInteger waiting = new AtomicInteger();
        HttpServer llm = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        llm.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        llm.createContext("/", ex -> slowAnswer(ex, turnMs, waiting));
        llm.start();
        try (McpRuntime rt = McpRuntime.open(ToolScout.builder().dataDir(dir.resolve("data")))) {
            ProviderConfig config = new ProviderConfig(
                    ProviderConfig.Kind.ANTHROPIC,
                    "claude-sonnet-4-5",
                    "http://127.0.0.1:" + llm.getAddress().getPort() + "/v1",
                    "sk-ant-bench",
                    Duration.ofMinutes(2),
                    0,
                    1024,
                    false);
            Agent agent = Agent.builder(rt.scout(), Providers.of(config, runs)).build();
            GatewayAuth auth = GatewayAuth.withRoles(Map.of(
                    RUNNER, new GatewayAuth.Key(new Principal("runner", null, null), Role.USER),
                    OTHER, new GatewayAuth.Key(new Principal("other", null, null), Role.USER)));
            HttpApi api = new HttpApi(auth, HttpApi.Options.DEFAULT.withRuns(new RunLimits(runs, runs)));
            try (GatewayHttpServer http = GatewayHttpServer.start(null, auth, "127.0.0.1", 0, api)) {
                api.open(new ApiBackend(rt.scout(), null, agent));
                HttpClient client = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
                measure(client, http, 300); // warm-up: the model, the index, the JIT
                double[] without = measure(client, http, selects);

                AtomicBoolean going = new AtomicBoolean(true);
                AtomicInteger ended = new AtomicInteger();
                AtomicInteger failed = new AtomicInteger();
                java.util.List<Thread> runners = new java.util.ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    int slot = i;
                    runners.add(Thread.ofVirtual().start(() -> {
                        for (int n = 0; going.get(); n++) {
                            try {
                                HttpResponse<String> r = client.send(
                                        HttpRequest.newBuilder(URI.create(http.baseUrl() + "/v1/conversations/bench-"
                                                        + slot + "-" + n + "/messages"))
                                                .timeout(Duration.ofMinutes(5))
                                                .header("Authorization", "Bearer " + RUNNER)
                                                .header("Content-Type", "application/json")
                                                .POST(HttpRequest.BodyPublishers.ofString(
                                                        "{\"message\": \"" + MESSAGES[slot % MESSAGES.length] + "\"}"))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString());
                                (r.statusCode() == 200 && r.body().contains("\"done\"") ? ended : failed)
                                        .incrementAndGet();
                            } catch (IOException | InterruptedException e) {
                                failed.incrementAndGet();
                            }
                        }
                    }));
                }
                long until = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (waiting.get() < runs && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
                int inFlight = waiting.get();
                double[] with = measure(client, http, selects);
                int inFlightAfter = waiting.get();
                going.set(false);
                for (Thread t : runners) {
                    t.join(Duration.ofMinutes(1)); // each ends after its turn
                }

                System.out.printf(
                        Locale.ROOT,
                        "POST /v1/select from another key, %d selections per phase, %d ms a model "
                                + "turn, JDK %s, %d cores%n",
                        selects,
                        turnMs,
                        Runtime.version(),
                        Runtime.getRuntime().availableProcessors());
                print("without runs", without);
                print("with " + runs + " runs", with);
                System.out.printf(
                        Locale.ROOT,
                        "runs waiting for the model when the selections began: %d, when they ended: "
                                + "%d; runs ended done: %d, failed: %d%n",
                        inFlight,
                        inFlightAfter,
                        ended.get(),
                        failed.get());
                System.out.printf(Locale.ROOT, "p99 with / without: %.2f%n", pct(with, 0.99) / pct(without, 0.99));
            }
        } finally {
            llm.stop(0);
        }
    }

    private static double[] measure(HttpClient client, GatewayHttpServer http, int n) throws Exception {
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            HttpRequest req = HttpRequest.newBuilder(URI.create(http.baseUrl() + "/v1/select"))
                    .timeout(Duration.ofMinutes(2))
                    .header("Authorization", "Bearer " + OTHER)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"message\": \"" + MESSAGES[i % MESSAGES.length] + "\"}"))
                    .build();
            long t0 = System.nanoTime();
            HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
            ms[i] = (System.nanoTime() - t0) / 1e6;
            if (r.statusCode() != 200) {
                throw new IllegalStateException("select answered " + r.statusCode() + ": " + r.body());
            }
        }
        return ms;
    }

    private static void slowAnswer(HttpExchange ex, int turnMs, AtomicInteger waiting) throws IOException {
        try (ex) {
            try (InputStream in = ex.getRequestBody()) {
                in.readAllBytes();
            }
            waiting.incrementAndGet();
            try {
                Thread.sleep(turnMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                waiting.decrementAndGet();
            }
            byte[] b = ANSWER.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        }
    }

    private static void print(String label, double[] ms) {
        System.out.printf(
                Locale.ROOT,
                "%-14s p50 %7.2f ms  p90 %7.2f ms  p99 %7.2f ms  max %7.2f ms%n",
                label,
                pct(ms, 0.50),
                pct(ms, 0.90),
                pct(ms, 0.99),
                Arrays.stream(ms).max().orElse(0));
    }

    private static double pct(double[] ms, double p) {
        double[] s = ms.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p * s.length) - 1)];
    }
}
