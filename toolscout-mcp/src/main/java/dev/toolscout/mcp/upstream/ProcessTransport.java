package dev.toolscout.mcp.upstream;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The stdio transport for an upstream server: a child process speaking newline-delimited JSON-RPC.
 *
 * <p>Written here rather than taken from the SDK because the gateway needs three things the SDK's stdio
 * transport does not give: a working directory, the child's exit (so a crash is seen at once, not when the
 * next call times out) and a per-line size cap that answers the request it belongs to. A line over the cap
 * is skipped without being held in memory; when its request id can be read from the first or last bytes
 * (servers put {@code "id"} at either end: the first member, perhaps after {@code "jsonrpc"}, or the last) the
 * caller gets an error response naming the cap instead of a timeout: at once, when the line starts with its
 * top-level id, else when the line ends. An {@code "id"} elsewhere may belong to a nested object (a tool's
 * payload), so it is never taken for the line's own. A line that is not JSON-RPC is reported to {@code
 * problems} and skipped.
 *
 * <p>Thread safety: {@link #sendMessage} may be called from any thread (writes are serialized); inbound
 * messages are handed to the session in order on one reader thread.
 */
final class ProcessTransport implements McpClientTransport {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessTransport.class);
    private static final int EDGE = 512;
    private static final int STDERR_TAIL = 2048;
    private static final Pattern ID_AT_END =
            Pattern.compile("\"id\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|-?\\d+)\\s*}\\s*$");
    /** The top-level id, as the first member or the one after {@code "jsonrpc"}: safe to act on early. */
    private static final Pattern ID_FIRST = Pattern.compile(
            "^\\s*\\{\\s*(?:\"jsonrpc\"\\s*:\\s*\"2\\.0\"\\s*,\\s*)?\"id\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|-?\\d+)\\s*,");
    /**
     * The {@code data} of the error response that stands in for a dropped message, so that it is not taken for
     * a server's own error with the same code ({@code -32001} is also the TypeScript SDK's request timeout).
     */
    static final String TOO_LARGE_DATA = "toolscout: message over mcp.max-response-bytes";

    private final ServerConfig config;
    private final McpJsonMapper json;
    private final int maxLineBytes;
    private final Consumer<String> problems;
    private final Consumer<String> exited;
    private final StringBuilder stderrTail = new StringBuilder();
    private final Object writeLock = new Object();
    private volatile Process process;
    private volatile Thread stderrReader;
    private volatile boolean closing;

    /**
     * @param problems told about protocol problems (a line that is not JSON-RPC, a line over the cap)
     * @param exited told once, with a description, when the process ends without {@link #closeGracefully}
     */
    ProcessTransport(
            ServerConfig config,
            McpJsonMapper json,
            int maxLineBytes,
            Consumer<String> problems,
            Consumer<String> exited) {
        this.config = config;
        this.json = json;
        this.maxLineBytes = maxLineBytes;
        this.problems = problems;
        this.exited = exited;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            List<String> cmd = new ArrayList<>();
            cmd.add(config.command());
            cmd.addAll(config.args());
            ProcessBuilder pb = new ProcessBuilder(cmd);
            if (config.cwd() != null) {
                pb.directory(config.cwd().toFile());
            }
            Map<String, String> env = pb.environment();
            Map<String, String> child = childEnvironment(System.getenv(), config.env());
            env.clear();
            env.putAll(child);
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new UpstreamException(
                        UpstreamException.Kind.DOWN,
                        config.name(),
                        "cannot start '" + config.command() + "': " + e.getMessage(),
                        e);
            }
            process = p;
            Thread.ofPlatform().daemon().name("mcp-" + config.prefix() + "-out").start(() -> readLoop(p, handler));
            stderrReader = Thread.ofPlatform()
                    .daemon()
                    .name("mcp-" + config.prefix() + "-err")
                    .start(() -> drainStderr(p));
            p.onExit().thenAccept(this::onExit);
        });
    }

    /**
     * Variables a child inherits from the gateway: those a program needs to start, find its files and speak the
     * user's language, and nothing else, so that none of ToolScout's secrets ({@code TOOLSCOUT_SECRET_KEY}, API
     * keys of other servers, cloud credentials) reaches a server that should not have it. The list follows the
     * MCP TypeScript SDK's {@code getDefaultEnvironment} (what Claude Desktop gives stdio servers) plus the
     * locale and temporary-directory variables; Windows names are compared ignoring case, as Windows does.
     */
    static final Set<String> INHERITED = Set.of(
            "PATH",
            "HOME",
            "USER",
            "LOGNAME",
            "SHELL",
            "TERM",
            "TMPDIR",
            "TZ",
            "LANG",
            "LANGUAGE",
            // Windows
            "APPDATA",
            "HOMEDRIVE",
            "HOMEPATH",
            "LOCALAPPDATA",
            "PROCESSOR_ARCHITECTURE",
            "SYSTEMDRIVE",
            "SYSTEMROOT",
            "TEMP",
            "TMP",
            "USERNAME",
            "USERPROFILE",
            "PROGRAMFILES",
            "COMSPEC",
            "PATHEXT",
            "WINDIR");

    /**
     * The environment of a stdio server: the {@link #INHERITED} variables and the locale ({@code LC_*}) of
     * {@code parent}, never one named {@code TOOLSCOUT_*}, then exactly the variables its config names (which
     * win). A value that starts with {@code ()} is a shell function, skipped as the TypeScript SDK does.
     */
    static Map<String, String> childEnvironment(Map<String, String> parent, Map<String, String> configured) {
        Map<String, String> out = new TreeMap<>();
        parent.forEach((k, v) -> {
            String upper = k.toUpperCase(Locale.ROOT);
            if (v != null
                    && !v.startsWith("()")
                    && !upper.startsWith("TOOLSCOUT_")
                    && (INHERITED.contains(upper) || upper.startsWith("LC_"))) {
                out.put(k, v);
            }
        });
        out.putAll(configured);
        return out;
    }

    /** The child's process id, or -1 before it started. */
    long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    /** The last lines the server wrote to stderr (at most 2 KiB). */
    String stderrTail() {
        synchronized (stderrTail) {
            return stderrTail.toString().strip();
        }
    }

    private void onExit(Process p) {
        if (closing) {
            return;
        }
        exited.accept(exitDescription(p));
    }

    /** "process exited with code N; stderr: <its last line>", for a process that has ended. */
    private String exitDescription(Process p) {
        int code = p.exitValue();
        try {
            Thread t = stderrReader;
            if (t != null) {
                t.join(300); // its last words usually explain the exit
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String tail = stderrTail();
        return "process exited with code " + code + (code > 128 ? " (signal " + (code - 128) + ")" : "")
                + (tail.isEmpty() ? "" : "; stderr: " + abbreviate(tail.substring(tail.lastIndexOf('\n') + 1), 300));
    }

    private void readLoop(Process p, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        try (InputStream in = p.getInputStream()) {
            byte[] buf = new byte[64 * 1024];
            ByteArrayOutputStream line = new ByteArrayOutputStream(8 * 1024);
            long lineBytes = 0;
            byte[] head = null; // set once the current line is over the cap: its first bytes
            boolean answered = false; // whether the request of the current over-cap line was already failed
            byte[] tail = new byte[EDGE];
            int tailLen = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] != '\n') {
                        continue;
                    }
                    int len = i - start;
                    if (head == null && lineBytes + len <= maxLineBytes) {
                        line.write(buf, start, len);
                        deliver(line.toString(StandardCharsets.UTF_8), handler);
                    } else if (head == null) {
                        // a line that ends here and is over the cap: the buffered start plus this piece
                        line.write(buf, start, len);
                        byte[] all = line.toByteArray();
                        tailLen = keepTail(tail, 0, all, 0, all.length);
                        oversized(
                                java.util.Arrays.copyOf(all, Math.min(EDGE, all.length)),
                                tail,
                                tailLen,
                                all.length,
                                false,
                                handler);
                    } else {
                        // the end of a line already over the cap
                        tailLen = keepTail(tail, tailLen, buf, start, len);
                        lineBytes += len;
                        oversized(head, tail, tailLen, lineBytes, answered, handler);
                    }
                    line.reset();
                    lineBytes = 0;
                    head = null;
                    answered = false;
                    tailLen = 0;
                    start = i + 1;
                }
                int len = n - start;
                if (len > 0) {
                    if (head == null && lineBytes + len > maxLineBytes) {
                        line.write(buf, start, len);
                        byte[] all = line.toByteArray();
                        head = java.util.Arrays.copyOf(all, Math.min(EDGE, all.length));
                        tailLen = keepTail(tail, 0, all, 0, all.length);
                        line.reset();
                        // fail its request now rather than after the rest arrives (which may be slow, or never)
                        answered = overCapEarly(head, handler);
                    } else if (head == null) {
                        line.write(buf, start, len);
                    } else {
                        tailLen = keepTail(tail, tailLen, buf, start, len);
                    }
                    lineBytes += len;
                }
            }
        } catch (IOException e) {
            if (!closing) {
                LOG.debug("MCP server '{}': reading stdout failed: {}", config.name(), e.toString());
            }
        }
    }

    private static int keepTail(byte[] tail, int tailLen, byte[] src, int off, int len) {
        if (len >= tail.length) {
            System.arraycopy(src, off + len - tail.length, tail, 0, tail.length);
            return tail.length;
        }
        int keep = Math.min(tailLen, tail.length - len);
        System.arraycopy(tail, tailLen - keep, tail, 0, keep);
        System.arraycopy(src, off, tail, keep, len);
        return keep + len;
    }

    /**
     * A line just went over the cap: when it starts with its top-level id, its request is failed now.
     *
     * @return whether it was
     */
    private boolean overCapEarly(
            byte[] head, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        Matcher m = ID_FIRST.matcher(new String(head, StandardCharsets.UTF_8));
        Object id = m.find() ? idValue(m.group(1)) : null;
        if (id == null) {
            return false;
        }
        String message =
                "sent a message over the cap of " + maxLineBytes + " bytes (mcp.max-response-bytes); it was dropped";
        problems.accept(message);
        answerTooLarge(id, message, handler);
        return true;
    }

    private void oversized(
            byte[] head,
            byte[] tail,
            int tailLen,
            long bytes,
            boolean answered,
            Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        String message = "sent a message of " + bytes + " bytes, over the cap of " + maxLineBytes
                + " bytes (mcp.max-response-bytes); it was dropped";
        problems.accept(message);
        if (answered) {
            return;
        }
        Object id = null;
        Matcher end = ID_AT_END.matcher(new String(tail, 0, tailLen, StandardCharsets.UTF_8));
        if (end.find()) {
            id = idValue(end.group(1));
        } else if (head != null) {
            // anchored at the start: an "id" further in may be a nested object's
            Matcher m = ID_FIRST.matcher(new String(head, StandardCharsets.UTF_8));
            if (m.find()) {
                id = idValue(m.group(1));
            }
        }
        if (id != null) {
            answerTooLarge(id, message, handler);
        }
    }

    /** Fails request {@code id} with an error response standing in for the dropped message. */
    private void answerTooLarge(
            Object id,
            String message,
            Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        McpSchema.JSONRPCResponse error = new McpSchema.JSONRPCResponse(
                McpSchema.JSONRPC_VERSION,
                id,
                null,
                new McpSchema.JSONRPCResponse.JSONRPCError(UpstreamException.TOO_LARGE_CODE, message, TOO_LARGE_DATA));
        handler.apply(Mono.just(error)).subscribe(x -> {}, e -> LOG.debug("handling a capped response failed", e));
    }

    /**
     * The id as JSON reads it (escapes decoded: the session compares it with its requests' ids), or null when it
     * is not an id the SDK's messages can carry (a string, an int or a long; a number beyond long, or one with
     * leading zeros, is not, and the whole line would have been rejected as well).
     */
    private Object idValue(String raw) {
        Object id;
        try {
            id = json.readValue(raw, Object.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return id instanceof String || id instanceof Integer || id instanceof Long ? id : null;
    }

    private void deliver(
            String line, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        if (line.isBlank()) {
            return;
        }
        McpSchema.JSONRPCMessage msg;
        try {
            msg = McpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | RuntimeException e) {
            problems.accept("sent a line that is not JSON-RPC: '" + abbreviate(line.strip(), 120) + "'");
            return;
        }
        handler.apply(Mono.just(msg))
                .subscribe(x -> {}, e -> LOG.debug("MCP server '{}': handling a message failed", config.name(), e));
    }

    private void drainStderr(Process p) {
        try (InputStream err = p.getErrorStream()) {
            byte[] buf = new byte[4096];
            int n;
            while ((n = err.read(buf)) > 0) {
                String s = new String(buf, 0, n, StandardCharsets.UTF_8);
                LOG.debug("MCP server '{}' stderr: {}", config.name(), s.stripTrailing());
                synchronized (stderrTail) {
                    stderrTail.append(s);
                    if (stderrTail.length() > STDERR_TAIL) {
                        stderrTail.delete(0, stderrTail.length() - STDERR_TAIL);
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone; its exit is reported by onExit
        }
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            Process p = process;
            if (p == null) {
                throw new UpstreamException(
                        UpstreamException.Kind.DOWN, config.name(), "the server process is not running", null);
            }
            if (!p.isAlive()) {
                // say why: this may be the first the caller hears of the exit (its own report can come second)
                throw new UpstreamException(
                        UpstreamException.Kind.DOWN,
                        config.name(),
                        "the server process is not running: " + exitDescription(p),
                        null);
            }
            try {
                byte[] bytes = json.writeValueAsBytes(message);
                synchronized (writeLock) {
                    OutputStream out = p.getOutputStream();
                    out.write(bytes);
                    out.write('\n');
                    out.flush();
                }
            } catch (IOException e) {
                String why = exitedSoon(p) ? "; " + exitDescription(p) : "";
                throw new UpstreamException(
                        UpstreamException.Kind.DOWN,
                        config.name(),
                        "writing to the server process failed: " + e.getMessage() + why,
                        e);
            }
        });
    }

    /** Whether the process has ended or ends within a moment (a broken pipe usually means it is exiting). */
    private static boolean exitedSoon(Process p) {
        try {
            return p.waitFor(200, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !p.isAlive();
        }
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::close);
    }

    @Override
    public void close() {
        closing = true;
        Process p = process;
        if (p == null) {
            return;
        }
        List<ProcessHandle> children = p.descendants().toList();
        try {
            p.getOutputStream().close();
        } catch (IOException e) {
            // already closed
        }
        try {
            if (!p.waitFor(500, TimeUnit.MILLISECONDS)) {
                p.destroy();
                if (!p.waitFor(2, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        // npx and shell wrappers leave their node child behind when only they are stopped
        children.forEach(ProcessHandle::destroy);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return json.convertValue(data, typeRef);
    }

    static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }
}
