package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.engine.DataDirectoryInUseException;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.server.cli.ToolScoutCli;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** While `serve` runs in another process, nothing else may write its data directory, whatever its model. */
class DataDirectoryLockProcessTest {
    @TempDir
    Path dir;

    @Test
    void a_second_process_with_another_model_cannot_write_the_store_while_serve_runs() throws Exception {
        Path data = dir.resolve("data");
        long version;
        // embeds the demo once, so serve starts at once
        try (ToolScout e = ToolScout.builder().preloadModel(false).dataDir(data).build()) {
            version = e.maintenance().catalogVersion();
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process serve = new ProcessBuilder(List.of(
                        java.toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ToolScoutCli.class.getName(),
                        "serve",
                        "--port",
                        "0",
                        "--data-dir",
                        data.toString()))
                .redirectErrorStream(true)
                .start();
        try {
            StringBuffer seen = new StringBuffer();
            CompletableFuture<String> listening = new CompletableFuture<>();
            Thread.ofPlatform().daemon().name("serve-output").start(() -> {
                try (BufferedReader r =
                        new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        seen.append(line).append('\n');
                        if (line.contains("MCP gateway listening on")) {
                            listening.complete(
                                    seen.toString()); // and keep draining, so the child never blocks on a full pipe
                        }
                    }
                } catch (java.io.IOException closed) {
                    // the child was stopped
                }
                listening.complete(seen.toString());
            });
            String started;
            try {
                // a guard against a hang, not a timing assertion
                started = listening.get(120, TimeUnit.SECONDS);
            } catch (TimeoutException hung) {
                throw new AssertionError(
                        "serve printed no 'listening' line in 120 s; it printed:\n" + seen + "\nits threads:\n"
                                + threadDump(serve.pid()),
                        hung);
            }
            assertThat(started).as("serve did not start").contains("MCP gateway listening on");

            String holder = "pid " + serve.pid();
            assertThatThrownBy(() -> ToolScout.builder()
                            .preloadModel(false)
                            .dataDir(data)
                            .model("bge-small-en-v1.5-q")
                            .build())
                    .isInstanceOf(DataDirectoryInUseException.class)
                    .hasMessageStartingWith(
                            "data directory " + data + " is in use by another process (" + holder + ", since ")
                    .hasMessageEndingWith("; give this one its own --data-dir, or stop the other one");

            Path file = dir.resolve("weather.json");
            Files.writeString(
                    file, "{\"tools\":[{\"name\":\"weather__forecast\",\"description\":\"Weather forecast.\"}]}");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = ToolScoutCli.run(
                    new String[] {
                        "index", file.toString(), "--model", "bge-small-en-v1.5-q", "--data-dir", data.toString()
                    },
                    new PrintWriter(out, true),
                    new PrintWriter(err, true));
            assertThat(code).as("a data directory in use is a usage error").isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(err.toString())
                    .startsWith("toolscout index: error: data directory " + data + " is in use by "
                            + "another process (" + holder)
                    .doesNotContain("\tat ");
        } finally {
            serve.destroy();
            serve.waitFor(60, TimeUnit.SECONDS);
            serve.destroyForcibly();
        }
        try (ToolScout e = ToolScout.builder().preloadModel(false).dataDir(data).build()) {
            assertThat(e.maintenance().catalogVersion()).isEqualTo(version);
            assertThat(e.gatewayParts().catalog().get("weather__forecast")).isEmpty();
        }
    }

    /** The child's threads (jcmd Thread.print), for a failure message: what a hung start was waiting for. */
    private static String threadDump(long pid) {
        try {
            Process jcmd = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(pid),
                            "Thread.print")
                    .redirectErrorStream(true)
                    .start();
            String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor(30, TimeUnit.SECONDS);
            return dump;
        } catch (java.io.IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }
}
