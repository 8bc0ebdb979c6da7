package dev.toolscout.agent.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.agent.HangingServer;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 30, item 3: calls to an imported HTTP API have a bulkhead, as MCP upstreams do. The API is a real socket
 * that accepts every connection and never answers (a service that hangs).
 */
class OpenApiBulkheadTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void past_the_calls_in_progress_to_one_api_a_call_is_a_tool_error_naming_the_limit_and_is_not_sent()
            throws Exception {
        try (HangingServer hanging = new HangingServer()) {
            OpenApiImporter.Imported imported =
                    OpenApiImporter.read(OpenApiImporterTest.petstore(), "petstore", hanging.url() + "/v1", null);
            OpenApiSource source = imported.source();
            ToolSpec listPets = imported.tools().stream()
                    .filter(t -> t.fullName().equals("petstore__listPets"))
                    .findFirst()
                    .orElseThrow();
            // the product's 30 s per call, not longer: in one full run of 4 (2026-12-08, serial, quiet machine) the
            // first call did not end when the API closed its connection and held the suite for 5 minutes; it then
            // ends by its timeout, an error too (cause not found; alone and in module runs it ends at once)
            OpenApiExecutor.Settings oneAtATime = new OpenApiExecutor.Settings(
                    Duration.ofSeconds(5), Duration.ofSeconds(30), 1 << 20, 1 << 20, 1_000, 1, 1, Duration.ZERO);
            try (OpenApiExecutor e = new OpenApiExecutor(
                    n -> n.equals("petstore") ? Optional.of(source) : Optional.empty(), s -> s, Map.of(), oneAtATime)) {
                ToolInvocation call =
                        new ToolInvocation(listPets, (ObjectNode) JSON.readTree("{}"), Principal.ANONYMOUS, "c1");
                CompletableFuture<ToolResult> first = CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return e.execute(call);
                            } catch (InterruptedException ex) {
                                throw new IllegalStateException(ex);
                            }
                        },
                        r -> Thread.ofVirtual().start(r));
                assertThat(hanging.awaitConnection())
                        .as("the first call reached the API")
                        .isEqualTo(1);

                ToolResult second = e.execute(call);

                assertThat(second.error())
                        .isEqualTo("GET /pets was not sent: the imported HTTP API 'petstore' is busy: 1 "
                                + "calls to it are in progress, the most allowed (maxConcurrentCalls 1), and none ended within 0 s; "
                                + "try again later");
                assertThat(hanging.connections()).as("connections the API got").isEqualTo(1);
                assertThat(first).isNotDone();
                // the hanging API goes away (no new connections: the client retries a GET once): the first call ends
                hanging.goAway();
                assertThat(first.get(1, TimeUnit.MINUTES).isError()).isTrue();
            }
        }
    }
}
