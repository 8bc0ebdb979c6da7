package dev.toolscout.server.http;

import static dev.toolscout.server.http.HttpApiTest.json;
import static dev.toolscout.server.http.HttpApiTest.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Principal;
import dev.toolscout.server.http.api.ApiBackend;
import dev.toolscout.server.http.api.HttpApi;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP API of {@code serve} without API keys (every caller the local user, nobody an admin, loopback only),
 * and its readiness before and after the engine opens.
 */
class HttpApiWithoutKeysTest {
    @TempDir
    Path tmp;

    @Test
    void without_keys_it_reads_for_the_local_user_and_refuses_every_write() throws Exception {
        try (ApiServer s = ApiServer.withoutKeys(tmp.resolve("data"))) {
            s.awaitReady();
            ApiClient local = s.client;

            assertThat(local.post("/v1/select", "{\"message\": \"send an email\"}")
                            .statusCode())
                    .isEqualTo(200);
            assertThat(local.get("/v1/tools/gmail__send_email").statusCode()).isEqualTo(200);
            HttpResponse<String> write = local.delete("/v1/tools/gmail__send_email");
            assertThat(problem(write, 403).path("detail").asText())
                    .contains("runs without API keys")
                    .contains("--api-keys");
            // the local user may scrape the metrics: nobody else reaches a server without keys
            HttpResponse<String> metrics = local.get("/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("# TYPE").contains("toolscout_select");
            assertThat(local.get("/v1/tools/gmail__send_email").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void without_keys_a_host_header_naming_another_machine_is_refused() throws Exception {
        try (ApiServer s = ApiServer.withoutKeys(tmp.resolve("data"))) {
            // what a page reaching the port through DNS rebinding sends: its own name as Host
            String raw = rawHttp(
                    s.http.address().getPort(),
                    "GET /v1/tools HTTP/1.1\r\nHost: attacker.example\r\n" + "Connection: close\r\n\r\n");

            assertThat(raw).startsWith("HTTP/1.1 403");
            assertThat(raw)
                    .contains("application/problem+json")
                    .contains("host-not-allowed")
                    .doesNotContain("gmail__");
            assertThat(rawHttp(
                            s.http.address().getPort(),
                            "GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + "Connection: close\r\n\r\n"))
                    .startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void without_keys_the_server_binds_only_a_loopback_address() {
        GatewayAuth local = GatewayAuth.local(Principal.ANONYMOUS);

        assertThatThrownBy(() ->
                        GatewayHttpServer.start(null, local, "0.0.0.0", 0, new HttpApi(local, HttpApi.Options.DEFAULT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "--host 0.0.0.0 is not a loopback address, and without --api-keys every client would act as "
                                + "the local user; give --api-keys FILE to listen on 0.0.0.0, or bind 127.0.0.1 (the default)");
    }

    @Test
    void readyz_answers_503_until_the_engine_is_open_and_200_after() throws Exception {
        GatewayAuth local = GatewayAuth.local(Principal.ANONYMOUS);
        HttpApi api = new HttpApi(local, HttpApi.Options.DEFAULT);
        try (GatewayHttpServer http = GatewayHttpServer.start(null, local, "127.0.0.1", 0, api)) {
            ApiClient c = new ApiClient(
                    http.baseUrl(),
                    null,
                    new OpenApiContract(new String(api.openApiDocument(), StandardCharsets.UTF_8)));
            HttpResponse<String> before = c.get("/readyz");
            assertThat(problem(before, 503).path("detail").asText()).isEqualTo("the engine is still opening");
            assertThat(before.headers().firstValue("Retry-After")).hasValue("2");
            problem(c.post("/v1/select", "{\"message\": \"x\"}"), 503);
            assertThat(c.get("/healthz").statusCode()).isEqualTo(200);
            assertThat(c.get("/openapi.json").statusCode()).isEqualTo(200);

            try (ToolScout scout =
                    ToolScout.builder().dataDir(tmp.resolve("data")).build()) {
                api.open(new ApiBackend(scout, null));
                long until = System.nanoTime() + 180_000_000_000L;
                while (c.get("/readyz").statusCode() != 200 && System.nanoTime() < until) {
                    Thread.sleep(100);
                }
                JsonNode ready = json(c.get("/readyz"));
                assertThat(ready.path("status").asText()).isEqualTo("ready");
                // the tool indexer's queue and lag: current once the engine is open
                assertThat(ready.path("indexers").get(0).path("name").asText()).isEqualTo("indexer.tools");
                assertThat(ready.path("indexers").get(0).path("lag").asLong()).isZero();
                assertThat(ready.path("indexers").get(0).path("indexed_version").asLong())
                        .isEqualTo(ready.path("indexers")
                                .get(0)
                                .path("source_version")
                                .asLong())
                        .isPositive();
                assertThat(c.get("/metrics").body()).contains("toolscout_index_lag{indexer=\"indexer.tools\"} 0.0");
                assertThat(c.post("/v1/select", "{\"message\": \"x\"}").statusCode())
                        .isEqualTo(200);
                // an admin route stays one: the local user is no admin
                assertThat(c.get("/v1/servers").statusCode()).isEqualTo(403);
            }
        }
    }

    /** Sends bytes the JDK's client would not (its Host header is its own), and reads the whole answer. */
    static String rawHttp(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
