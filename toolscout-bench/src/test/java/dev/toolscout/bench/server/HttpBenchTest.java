package dev.toolscout.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.bench.cli.Bench;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toolscout bench-http} end to end on a few requests over the demo catalog: that it runs and prints every
 * field, not the speed (the figures belong in docs/BENCHMARKS.md).
 */
class HttpBenchTest {
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
    void the_table_has_both_variants_and_the_ratio_for_each_number_of_clients() {
        int code = run(
                "bench-http",
                "--clients",
                "1,2",
                "--requests",
                "20",
                "--warmup",
                "4",
                "--rounds",
                "2",
                "--work-dir",
                dir.toString());

        assertThat(code).as(err).isZero();
        assertThat(out)
                .contains(
                        "clients",
                        "in-proc req/s",
                        "HTTP req/s",
                        "embed req/s",
                        "p50 ms",
                        "p99 ms",
                        "ratio",
                        "in/embed",
                        "HTTP/emb",
                        "in cpu",
                        "HTTP cpu",
                        "emb cpu");
        List<String> rows =
                out.lines().filter(l -> l.matches("\\s+[12] .*x .*\\d")).toList();
        assertThat(rows).hasSize(2);
    }

    @Test
    void json_has_positive_figures_for_each_number_of_clients() throws Exception {
        int code = run(
                "bench-http",
                "--clients",
                "1,2",
                "--requests",
                "20",
                "--warmup",
                "4",
                "--rounds",
                "2",
                "--format",
                "json",
                "--work-dir",
                dir.toString());

        assertThat(code).as(err).isZero();
        JsonNode n = new ObjectMapper().readTree(out);
        assertThat(n.get("tools").asInt()).isPositive();
        assertThat(n.get("requests").asInt()).isEqualTo(20);
        assertThat(n.get("levels")).hasSize(2);
        for (JsonNode l : n.get("levels")) {
            for (String f : List.of(
                    "in_process_per_s",
                    "in_process_p50_ms",
                    "in_process_p99_ms",
                    "http_per_s",
                    "http_p50_ms",
                    "http_p99_ms",
                    "ratio",
                    "embed_per_s",
                    "embed_p50_ms",
                    "embed_p99_ms",
                    "in_process_over_embed",
                    "http_over_embed",
                    "embed_cpu_ms",
                    "in_process_cpu_ms",
                    "http_cpu_ms")) {
                assertThat(l.get(f).asDouble()).as(f).isPositive();
            }
            assertThat(l.get("http_p50_ms").asDouble())
                    .isLessThanOrEqualTo(l.get("http_p99_ms").asDouble());
            assertThat(l.get("in_process_over_embed").asDouble())
                    .isCloseTo(
                            l.get("in_process_per_s").asDouble()
                                    / l.get("embed_per_s").asDouble(),
                            org.assertj.core.api.Assertions.within(0.01));
        }
    }

    @Test
    void bad_options_exit_2_naming_the_option() {
        assertThat(run("bench-http", "--clients", "0")).isEqualTo(2);
        assertThat(err).contains("--clients must be 1 to 256 each, got: [0]");
    }
}
