package dev.toolscout.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.server.cli.ToolScoutCli;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code toolscout serve --store postgresql://...} process in its own JVM (the test's class path), with its
 * own data directory, and an HTTP client for it. For tests and benchmarks of replicas sharing a store.
 */
final class Replica implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern API = Pattern.compile("HTTP API on (http://[^ ]+)/v1");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    final String name;
    final Path dataDir;
    private final Path dir;
    private final String store;
    private Process process;
    private String baseUrl;
    private Path log;
    private int starts;

    /** The admin key every replica of a test accepts (the keys file {@link #keysFile} writes). */
    static final String ADMIN_KEY = "replica-admin-key-0123456789abcdef";

    /** Writes the keys file (one admin key) into {@code dir}, mode 0600. */
    static Path keysFile(Path dir) throws IOException {
        Path keys = dir.resolve("keys.json");
        Files.writeString(
                keys, "{\"keys\": [{\"key\": \"" + ADMIN_KEY + "\", \"user\": \"ops\", \"role\": \"admin\"}]}");
        Files.setPosixFilePermissions(keys, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        return keys;
    }

    Replica(String name, String store, Path dir) {
        this.name = name;
        this.store = store;
        this.dir = dir;
        this.dataDir = dir.resolve(name);
    }

    /** Starts the process, again on the same data directory after it ended (returns at once; see {@link #awaitReady}). */
    Replica start() throws IOException {
        starts++;
        log = dir.resolve(name + "-" + starts + ".log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(
                java.toString(),
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules",
                "jdk.incubator.vector",
                "-Xlog:disable",
                "-cp",
                System.getProperty("java.class.path"),
                ToolScoutCli.class.getName(),
                "serve",
                "--port",
                "0",
                "--data-dir",
                dataDir.toString(),
                "--store",
                store,
                "--api-keys",
                keysFile(dir).toString()));
        baseUrl = null;
        process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return this;
    }

    long pid() {
        return process.pid();
    }

    /** Waits until it listens and {@code /readyz} answers 200; fails with its log if it exits first (a bound). */
    Replica awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (true) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("replica " + name + " did not get ready; its log: "
                        + (Files.exists(log) ? Files.readString(log) : "none"));
            }
            if (baseUrl == null && Files.exists(log)) {
                Matcher m = API.matcher(Files.readString(log));
                if (m.find()) {
                    baseUrl = m.group(1);
                }
            }
            if (baseUrl != null && status("/readyz") == 200) {
                return this;
            }
            Thread.sleep(100);
        }
    }

    String baseUrl() {
        return baseUrl;
    }

    int status(String path) {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(URI.create(baseUrl + path))
                                    .header("Authorization", "Bearer " + ADMIN_KEY)
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** PUT /v1/tools/{name}: returns when the replica acknowledged it (the tool is durable in the store). */
    void putTool(String tool, String description) throws Exception {
        String body = JSON.createObjectNode()
                .put("name", tool)
                .put("description", description)
                .toString();
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/v1/tools/" + tool))
                        .header("Authorization", "Bearer " + ADMIN_KEY)
                        .timeout(Duration.ofSeconds(120))
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 && r.statusCode() != 201) {
            throw new AssertionError(
                    "replica " + name + ": PUT " + tool + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    /** The names POST /v1/select selects for {@code message}. */
    List<String> select(String message) throws Exception {
        String body =
                JSON.createObjectNode().put("message", message).put("k", 5).toString();
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/v1/select"))
                        .header("Authorization", "Bearer " + ADMIN_KEY)
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("replica " + name + ": select answered " + r.statusCode() + ": " + r.body());
        }
        List<String> out = new ArrayList<>();
        for (JsonNode s : JSON.readTree(r.body()).path("selected")) {
            out.add(s.path("name").asText());
        }
        return out;
    }

    /** A gauge from /metrics (the first sample of that name). */
    double metric(String metric) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/metrics"))
                        .header("Authorization", "Bearer " + ADMIN_KEY)
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        for (String line : r.body().lines().toList()) {
            if (line.startsWith(metric + " ") || line.startsWith(metric + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("replica " + name + ": no metric " + metric + " in /metrics");
    }

    /** kill -9. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
