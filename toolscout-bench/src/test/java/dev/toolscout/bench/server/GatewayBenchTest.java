package dev.toolscout.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.bench.cli.Bench;
import dev.toolscout.server.cli.ToolScoutCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toolscout bench-gateway} end to end on a few calls, against the real everything server: the JSON
 * interface, not the speed (timings belong in docs/BENCHMARKS.md).
 */
class GatewayBenchTest {
    @TempDir
    Path dir;

    private String out;
    private String err;

    private int run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Bench.run(args, new PrintWriter(o, true), new PrintWriter(e, true));
        out = o.toString();
        err = e.toString();
        return code;
    }

    @Test
    void json_has_every_http_variant_with_positive_figures() throws Exception {
        assertThat(GatewayBench.installedEverything())
                .as("the MCP reference servers are not installed: run `npm ci` in toolscout-mcp/src/test/node")
                .isNotNull();
        int code = run(
                "bench-gateway",
                "--calls",
                "20",
                "--warmup",
                "5",
                "--transport",
                "http",
                "--format",
                "json",
                "--data-dir",
                dir.toString());
        assertThat(code).as(err).isZero();
        JsonNode n = new ObjectMapper().readTree(out);
        assertThat(n.get("calls").asInt()).isEqualTo(20);
        assertThat(n.get("tool").asText()).isEqualTo("echo");
        assertThat(n.get("gateway_tool").asText()).isEqualTo("upstream__echo");
        assertThat(n.get("upstream").asText()).contains("server-everything");
        for (String variant : List.of("direct", "gateway_http", "gateway_http_call_tool", "upstream_manager")) {
            JsonNode v = n.get(variant);
            assertThat(v).as(variant).isNotNull();
            for (String f : List.of("p50_ms", "p90_ms", "p99_ms", "mean_ms")) {
                assertThat(v.get(f).asDouble()).as(variant + "." + f).isPositive();
            }
            assertThat(v.get("p50_ms").asDouble())
                    .as(variant)
                    .isLessThanOrEqualTo(v.get("p99_ms").asDouble());
        }
        JsonNode http = n.get("gateway_http");
        assertThat(http.get("overhead_p50_ms").asDouble())
                .isEqualTo(round(http.get("p50_ms").asDouble()
                        - n.get("direct").get("p50_ms").asDouble()));
        assertThat(http.has("overhead_p99_ms") && http.has("ratio_p50")).isTrue();
        assertThat(n.has("gateway_stdio")).as("only http was asked for").isFalse();
    }

    @Test
    void arguments_that_are_not_a_json_object_are_bad_input() {
        assertThat(run("bench-gateway", "--args", "[1, 2]", "--data-dir", dir.toString()))
                .isEqualTo(ToolScoutCli.BAD_INPUT);
        assertThat(err).contains("--args must be a JSON object, got: [1, 2]");
    }

    @Test
    void command_lines_split_on_blanks_and_group_quotes() {
        assertThat(GatewayBench.words(" npx -y  'a b' \"c'd\" e\"f g\" "))
                .containsExactly("npx", "-y", "a b", "c'd", "ef g");
    }

    private static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }
}
