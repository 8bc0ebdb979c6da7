package dev.toolscout.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code console-driver.mjs} as one long-lived process: one Chromium for a test class (its launch was most of a
 * scenario's time when every scenario started its own), a fresh browser context per scenario. Requests are JSON
 * lines on its stdin, each answered by one JSON line on its stdout. Not thread-safe: one scenario at a time, as a
 * test class runs its tests.
 */
final class ConsoleDriver {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What a scenario may take at most, its page's waits included (each of them is bounded at 90 s). */
    private static final long SCENARIO_SECONDS = 300;

    private final Process process;
    private final Writer requests;
    private final Path stderr;
    /** The driver's answers, one line each, read on their own thread; an empty one when its stdout ended. */
    private final BlockingQueue<Optional<String>> answers = new LinkedBlockingQueue<>();

    private ConsoleDriver(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.requests = process.outputWriter(StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("console-driver-stdout").start(this::readAnswers);
    }

    /** Starts node on the driver, which launches Chromium at once; screenshots go to {@code shots}. */
    static ConsoleDriver start(Path consoleDir, Path shots, Path stderr) throws IOException {
        Process p = new ProcessBuilder(List.of(
                        "node", consoleDir.resolve("console-driver.mjs").toString(), "--shots", shots.toString()))
                .directory(consoleDir.toFile())
                .redirectError(stderr.toFile())
                .start();
        return new ConsoleDriver(p, stderr);
    }

    private void readAnswers() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                answers.add(Optional.of(line));
            }
        } catch (IOException e) {
            // the process ended: reported below as the end of its answers
        }
        answers.add(Optional.empty());
    }

    /** Runs one scenario and returns what the page showed; fails with the driver's error and stderr. */
    JsonNode run(ObjectNode request) throws Exception {
        String scenario = request.path("scenario").asText();
        try {
            requests.write(JSON.writeValueAsString(request) + "\n");
            requests.flush();
        } catch (IOException e) {
            throw new AssertionError("console-driver is gone (" + e + "); stderr:\n" + stderrText(), e);
        }
        Optional<String> line = answers.poll(SCENARIO_SECONDS, TimeUnit.SECONDS);
        if (line == null) {
            process.destroyForcibly();
            throw new AssertionError("console-driver " + scenario + " did not finish within " + SCENARIO_SECONDS
                    + " s; stderr:\n" + stderrText());
        }
        if (line.isEmpty()) {
            throw new AssertionError("console-driver ended during " + scenario + "; stderr:\n" + stderrText());
        }
        JsonNode answer = JSON.readTree(line.get());
        if (answer.has("error")) {
            throw new AssertionError("console-driver " + scenario + " failed: "
                    + answer.path("error").asText() + "\nstderr:\n" + stderrText());
        }
        return answer.path("result");
    }

    private String stderrText() throws IOException {
        return Files.exists(stderr) ? Files.readString(stderr) : "";
    }

    /** Closes its stdin, so that it closes Chromium and ends; forcibly after 30 s. */
    void close() throws InterruptedException {
        try {
            requests.close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
