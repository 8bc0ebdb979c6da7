package dev.toolscout.bench.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code toolscout bench-gateway --abuse ...}: what a careless or hostile client costs a running gateway
 * ({@code toolscout serve}, of this version or any other, given by URL and process id), measured from outside
 * with raw Streamable HTTP, so the same client measures a gateway before and after a change:
 *
 * <ul>
 *   <li><b>sessions</b>: opens N sessions, each holding an event stream, and abandons them (no DELETE); reports
 *       the gateway's heap after a full GC, resident memory and open files before, with them open, and after
 *       waiting (an idle timeout should free them), and how many were refused;
 *   <li><b>query-size</b>: one {@code tool_discovery__find} per size with a query of sentences, and the
 *       gateway's CPU time for it (from {@code /proc}), with the answer's first words;
 *   <li><b>hanging</b>: N concurrent calls to a tool that never answers, then another client's finds for a
 *       while: how many completed and their latency percentiles.
 * </ul>
 *
 * <p>Linux only (it reads {@code /proc/PID}); heap figures need {@code jcmd} of this JDK. Not thread-safe.
 */
public final class GatewayAbuseBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration FIND_TIMEOUT = Duration.ofMinutes(3);

    private final URI url;
    private final long pid;
    private final PrintWriter log;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            .build();
    private int nextId = 1;

    /** @param pid the gateway's process id, for its memory, open files and CPU time */
    public GatewayAbuseBench(URI url, long pid, PrintWriter log) {
        this.url = url;
        this.pid = pid;
        this.log = log;
        if (!Files.isDirectory(Path.of("/proc", Long.toString(pid)))) {
            throw new IllegalArgumentException("--pid: no process " + pid + " on this machine (Linux /proc)");
        }
    }

    // ---- sessions

    /**
     * Opens {@code n} sessions with an event stream each and abandons them; then waits up to {@code wait} for
     * the gateway's open files to come back to where they started.
     */
    public ObjectNode sessions(int n, Duration wait) throws Exception {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("scenario", "sessions");
        out.put("sessions_tried", n);
        out.set("before", probe());
        List<CompletableFuture<HttpResponse<Void>>> streams = new ArrayList<>();
        int opened = 0;
        int refused = 0;
        String firstRefusal = null;
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r;
            try {
                r = post(null, initialize("abandoning-client"));
            } catch (IOException e) {
                refused++;
                firstRefusal = firstRefusal == null ? "no answer: " + e : firstRefusal;
                continue;
            }
            String id = r.headers().firstValue("Mcp-Session-Id").orElse(null);
            if (r.statusCode() != 200 || id == null) {
                refused++;
                firstRefusal = firstRefusal == null ? "HTTP " + r.statusCode() + ": " + cut(r.body()) : firstRefusal;
                continue;
            }
            post(id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            streams.add(http.sendAsync(
                    HttpRequest.newBuilder(url)
                            .header("Accept", "text/event-stream")
                            .header("Mcp-Session-Id", id)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding()));
            opened++;
            if ((i + 1) % Math.max(1, n / 10) == 0) {
                log.printf(Locale.ROOT, "bench-gateway: %d/%d sessions (%d refused)%n", i + 1, n, refused);
                log.flush();
            }
        }
        out.put("sessions_opened", opened);
        out.put("sessions_refused", refused);
        if (firstRefusal != null) {
            out.put("first_refusal", firstRefusal);
        }
        Thread.sleep(500); // the streams' GETs reach the gateway
        ObjectNode held = probe();
        out.set("abandoned", held);
        if (opened > 0) {
            ObjectNode before = (ObjectNode) out.get("before");
            out.put(
                    "heap_kb_per_session",
                    Math.round((held.path("heap_used_kb").asDouble()
                                            - before.path("heap_used_kb").asDouble())
                                    / opened
                                    * 10)
                            / 10.0);
            out.put(
                    "files_per_session",
                    Math.round((held.path("open_files").asDouble()
                                            - before.path("open_files").asDouble())
                                    / opened
                                    * 100)
                            / 100.0);
        }
        long end = System.nanoTime() + wait.toNanos();
        int baseFiles = out.path("before").path("open_files").asInt();
        while (System.nanoTime() < end && openFiles() > baseFiles + 5) {
            Thread.sleep(1000);
        }
        out.set("after_wait", probe());
        out.put(
                "streams_ended_by_gateway",
                streams.stream().filter(CompletableFuture::isDone).count());
        out.put("waited_s", Math.round((wait.toNanos() - Math.max(0, end - System.nanoTime())) / 1e9));
        streams.forEach(f -> f.cancel(true));
        return out;
    }

    // ---- query size

    /** One find per size (in characters), with the gateway's CPU time for each. */
    public ObjectNode querySizes(List<Integer> sizes) throws Exception {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("scenario", "query-size");
        String session = session("query-size-client");
        var rows = out.putArray("finds");
        String sentence = "Find the cheapest flights to Oslo for Friday and book a table near the hotel. ";
        // warm-up, not measured: the first finds load the model and compile the path
        for (int i = 0; i < 5; i++) {
            post(session, call("tool_discovery__find", Map.of("query", sentence.repeat(1 + i * 5))));
        }
        for (int size : sizes) {
            StringBuilder q = new StringBuilder(size);
            while (q.length() < size) {
                q.append(sentence, 0, Math.min(sentence.length(), size - q.length()));
            }
            long cpu0 = cpuMillis();
            long t0 = System.nanoTime();
            HttpResponse<String> r = post(session, call("tool_discovery__find", Map.of("query", q.toString())));
            long t1 = System.nanoTime();
            long cpu1 = cpuMillis();
            ObjectNode row = rows.addObject();
            row.put("query_chars", size);
            row.put("http_status", r.statusCode());
            row.put("wall_ms", Math.round((t1 - t0) / 1e5) / 10.0);
            row.put("gateway_cpu_ms", cpu1 - cpu0);
            row.put("answer", cut(resultText(r.body())));
            log.printf(
                    Locale.ROOT,
                    "bench-gateway: find of %,d characters: %.1f ms, gateway CPU %d ms%n",
                    size,
                    (t1 - t0) / 1e6,
                    cpu1 - cpu0);
            log.flush();
        }
        return out;
    }

    // ---- hanging upstream

    /**
     * Sends {@code calls} concurrent calls to {@code server}'s {@code tool} (one that never answers), then
     * runs another client's finds one after another for {@code window}; each find may take up to 3 minutes.
     */
    public ObjectNode hanging(String server, String tool, int calls, Duration window) throws Exception {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("scenario", "hanging");
        out.put("hanging_calls", calls);
        String attacker = session("hanging-caller");
        String other = session("other-client");
        List<CompletableFuture<HttpResponse<String>>> hanging = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            String body = call(
                    "mcp__call_tool",
                    Map.of("server_name", server, "tool_name", tool, "params", Map.of("id", "call " + i)));
            hanging.add(http.sendAsync(
                    request(attacker)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        Thread.sleep(1000); // the calls reach the gateway and the upstream
        List<Double> ms = new ArrayList<>();
        int errors = 0;
        long end = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            HttpResponse<String> r = http.send(
                    request(other)
                            .timeout(FIND_TIMEOUT)
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    call("tool_discovery__find", Map.of("query", "look up a record"))))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            ms.add((System.nanoTime() - t0) / 1e6);
            if (r.statusCode() != 200 || r.body().contains("\"isError\":true")) {
                errors++;
            }
        }
        long answered = hanging.stream().filter(CompletableFuture::isDone).count();
        out.put("hanging_calls_answered_during_window", answered);
        String busy = hanging.stream()
                .filter(CompletableFuture::isDone)
                .map(f -> resultText(f.join().body()))
                .findFirst()
                .orElse(null);
        if (busy != null) {
            out.put("first_answer", cut(busy));
        }
        out.put("window_s", window.toSeconds());
        out.put("finds", ms.size());
        out.put("find_errors", errors);
        double[] v = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        out.put("find_p50_ms", round(percentile(v, 50)));
        out.put("find_p99_ms", round(percentile(v, 99)));
        out.put("find_max_ms", round(v.length == 0 ? 0 : v[v.length - 1]));
        hanging.forEach(f -> f.cancel(true));
        return out;
    }

    // ---- helpers

    private static double percentile(double[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double round(double ms) {
        return Math.round(ms * 10) / 10.0;
    }

    private HttpRequest.Builder request(String session) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url)
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json");
        return session == null ? b : b.header("Mcp-Session-Id", session);
    }

    private HttpResponse<String> post(String session, String body) throws IOException, InterruptedException {
        return http.send(
                request(session).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String initialize(String client) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"" + client + "\",\"version\":\"1\"}}}";
    }

    private String session(String client) throws IOException, InterruptedException {
        HttpResponse<String> r = post(null, initialize(client));
        String id = r.headers().firstValue("Mcp-Session-Id").orElse(null);
        if (r.statusCode() != 200 || id == null) {
            throw new IllegalStateException(
                    "the gateway at " + url + " refused a session: HTTP " + r.statusCode() + " " + cut(r.body()));
        }
        post(id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return id;
    }

    private String call(String tool, Map<String, Object> args) throws IOException {
        return JSON.writeValueAsString(Map.of(
                "jsonrpc",
                "2.0",
                "id",
                nextId++,
                "method",
                "tools/call",
                "params",
                Map.of("name", tool, "arguments", args)));
    }

    /** The text of a tools/call answer, whether sent as JSON or as one server-sent event. */
    private static String resultText(String body) {
        String json = body;
        int data = body.indexOf("data:");
        if (data >= 0) {
            json = body.substring(data + 5).strip();
        }
        try {
            var n = JSON.readTree(json);
            StringBuilder sb = new StringBuilder();
            n.path("result")
                    .path("content")
                    .forEach(c -> sb.append(c.path("text").asText()));
            return sb.length() > 0
                    ? sb.toString()
                    : n.path("error").path("message").asText(body);
        } catch (IOException e) {
            return body;
        }
    }

    private static String cut(String s) {
        String t = s.replaceAll("\\s+", " ").strip();
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }

    /** The gateway's heap after a full GC (jcmd), resident memory and open files. */
    private ObjectNode probe() throws Exception {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("heap_used_kb", heapAfterGcKb());
        o.put("rss_kb", rssKb());
        o.put("open_files", openFiles());
        return o;
    }

    private long openFiles() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return s.count();
        }
    }

    private long rssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return -1;
    }

    /** utime + stime of the process, in milliseconds (clock ticks of 10 ms). */
    private long cpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    }

    private long heapAfterGcKb() throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return -1;
        }
        run(jcmd.toString(), Long.toString(pid), "GC.run");
        String info = run(jcmd.toString(), Long.toString(pid), "GC.heap_info");
        Matcher m = Pattern.compile("used (\\d+)K").matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Sizes as users write them: 64k, 1m, 16384. */
    public static List<Integer> sizes(String text) {
        return Arrays.stream(text.split(","))
                .map(String::strip)
                .map(s -> {
                    Matcher m = Pattern.compile("(?i)(\\d+)([km]?)").matcher(s);
                    if (!m.matches()) {
                        throw new IllegalArgumentException(
                                "--query-sizes must be sizes such as 16k,64k,1m, got: '" + s + "'");
                    }
                    int n = Integer.parseInt(m.group(1));
                    return switch (m.group(2).toLowerCase(Locale.ROOT)) {
                        case "k" -> n * 1024;
                        case "m" -> n * 1024 * 1024;
                        default -> n;
                    };
                })
                .toList();
    }
}
