package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.engine.DataDirectoryInUseException;
import dev.toolscout.engine.internal.Engine;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** While `serve` runs in another process, nothing else may write its data directory, whatever its model. */
class DataDirectoryLockProcessTest {
  @TempDir Path dir;

  @Test
  void a_second_process_with_another_model_cannot_write_the_store_while_serve_runs() throws Exception {
    Path data = dir.resolve("data");
    long version;
    try (Engine e = Engine.open(Engine.Options.of(data))) { // embeds the demo once, so serve starts at once
      version = e.catalog().version();
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process serve = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
        ToolScoutCli.class.getName(), "serve", "--port", "0", "--data-dir", data.toString()))
        .redirectErrorStream(true).start();
    try {
      CompletableFuture<String> listening = CompletableFuture.supplyAsync(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8))) {
          StringBuilder seen = new StringBuilder();
          for (String line = r.readLine(); line != null; line = r.readLine()) {
            seen.append(line).append('\n');
            if (line.contains("MCP gateway listening on")) {
              // keep draining so the child never blocks on a full pipe
              Thread.ofVirtual().start(() -> {
                try {
                  r.lines().forEach(l -> { });
                } catch (java.io.UncheckedIOException closed) {
                  // the child was stopped
                }
              });
              return seen.toString();
            }
          }
          return seen.toString();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      // a guard against a hang, not a timing assertion
      String started = listening.get(120, TimeUnit.SECONDS);
      assertThat(started).as("serve did not start").contains("MCP gateway listening on");

      String holder = "pid " + serve.pid();
      assertThatThrownBy(() -> Engine.open(Engine.Options.of(data).withModel("bge-small-en-v1.5-q")))
          .isInstanceOf(DataDirectoryInUseException.class)
          .hasMessageStartingWith("data directory " + data + " is in use by another process (" + holder + ", since ")
          .hasMessageEndingWith("; give this one its own --data-dir, or stop the other one");

      Path file = dir.resolve("weather.json");
      Files.writeString(file, "{\"tools\":[{\"name\":\"weather__forecast\",\"description\":\"Weather forecast.\"}]}");
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = ToolScoutCli.run(new String[] {"index", file.toString(), "--model", "bge-small-en-v1.5-q",
          "--data-dir", data.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
      assertThat(code).isEqualTo(1);
      assertThat(err.toString()).startsWith("toolscout index: error: data directory " + data + " is in use by "
          + "another process (" + holder).doesNotContain("\tat ");
    } finally {
      serve.destroy();
      serve.waitFor(60, TimeUnit.SECONDS);
      serve.destroyForcibly();
    }
    try (Engine e = Engine.open(Engine.Options.of(data))) {
      assertThat(e.catalog().version()).isEqualTo(version);
      assertThat(e.catalog().get("weather__forecast")).isEmpty();
    }
  }
}
