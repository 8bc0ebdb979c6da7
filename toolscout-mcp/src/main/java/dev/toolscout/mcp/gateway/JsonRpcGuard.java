package dev.toolscout.mcp.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps malformed input and internal detail off the wire of the HTTP gateway. Two servlet filters:
 *
 * <ul>
 *   <li>{@link #errors} (outermost, on {@code /mcp}): every response with status 400 or more gets a JSON-RPC
 *       error body that names the problem and nothing internal. The MCP SDK's servlet transport writes its
 *       {@code McpError} as serialized by Jackson (the exception, with its stack trace), and the servlet's own
 *       {@code sendError} would give Jetty's HTML page; both are replaced here. An exception that escapes the
 *       chain becomes a {@code -32603 Internal error} (logged with its stack trace, never sent).
 *   <li>{@link #frames()} (after the API-key filter, on {@code /mcp}): checks a POST body is one JSON-RPC
 *       message before the SDK sees it, and answers the errors the SDK would not: not JSON ({@code -32700}),
 *       not one message object, a batch, no {@code "jsonrpc": "2.0"}, a bad id or method ({@code -32600}),
 *       {@code params} that are not an object, and {@code tools/call} without a tool name or with {@code
 *       arguments} that are not an object ({@code -32602}). Such input used to get an empty HTTP 200 or a 500.
 *       A well-formed message's method is left on the request ({@link #METHOD_ATTRIBUTE}) for the filters after.
 * </ul>
 *
 * Parse errors and invalid requests are answered with HTTP 400 and {@code "id": null}; invalid params of a
 * request with an id are answered with HTTP 200 and that id, as the session itself would answer, so the
 * client's pending request ends with the error. Bodies over {@value #MAX_BODY_BYTES} bytes are refused with
 * HTTP 413. Thread-safe (stateless).
 */
public final class JsonRpcGuard {
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcGuard.class);
    /** The largest request body read: the gateway's own limit, so that this check and the SDK's agree. */
    public static final int MAX_BODY_BYTES = McpGateway.MAX_REQUEST_BYTES;

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** The request attribute holding a well-formed POST message's method ({@code initialize}, {@code tools/call}). */
    public static final String METHOD_ATTRIBUTE = "toolscout.jsonrpc.method";

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonRpcGuard() {}

    /** The outer filter: clean JSON-RPC error bodies for every error status, and no exception on the wire. */
    public static Filter errors() {
        return (request, response, chain) -> {
            HttpServletResponse resp = (HttpServletResponse) response;
            ErrorBodies wrapped = new ErrorBodies(resp);
            try {
                chain.doFilter(request, wrapped);
            } catch (IOException | ServletException | RuntimeException e) {
                LOG.warn("request to {} failed", ((HttpServletRequest) request).getRequestURI(), e);
                if (resp.isCommitted()) {
                    throw e;
                }
                resp.reset();
                write(resp, 500, null, INTERNAL_ERROR, "Internal error");
                return;
            }
            wrapped.finish();
        };
    }

    /** The inner filter: a POST body must be one well-formed JSON-RPC message. */
    public static Filter frames() {
        return JsonRpcGuard::checkFrame;
    }

    private static void checkFrame(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String type = req.getContentType();
        if (!"POST".equalsIgnoreCase(req.getMethod())
                || type == null
                || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            // not a JSON-RPC frame: the transport refuses it (415) with its own clear message
            chain.doFilter(request, response);
            return;
        }
        byte[] body = readBody(req.getInputStream());
        if (body == null) {
            // the rest of the body stays unread, so the connection closes after this answer: say so to the client
            resp.setHeader("Connection", "close");
            write(
                    resp,
                    413,
                    null,
                    INVALID_REQUEST,
                    "Invalid Request: the request body must be at most " + MAX_BODY_BYTES + " bytes");
            return;
        }
        JsonNode root = tree(body);
        Problem p = root == null ? check(body) : check(root);
        if (p != null) {
            write(resp, p.status(), p.id(), p.code(), p.message());
            return;
        }
        if (root.path("method").isTextual()) {
            req.setAttribute(METHOD_ATTRIBUTE, root.path("method").textValue());
        }
        chain.doFilter(new Replay(req, body), response);
    }

    /** What is wrong with a frame, and how to answer it. */
    record Problem(int status, JsonNode id, int code, String message) {}

    /** The problem with one POST body, or {@code null} when it is one well-formed JSON-RPC message. */
    static Problem check(byte[] body) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            return new Problem(
                    400,
                    null,
                    PARSE_ERROR,
                    "Parse error: the request body is not valid JSON"
                            + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        } catch (IOException e) {
            return new Problem(400, null, PARSE_ERROR, "Parse error: the request body could not be read");
        }
        return check(root);
    }

    /** The body as JSON, or null when it is not one JSON document. */
    private static JsonNode tree(byte[] body) {
        try {
            JsonNode root = JSON.readTree(body);
            return root == null || root.isMissingNode() ? null : root;
        } catch (IOException e) {
            return null;
        }
    }

    /** The problem with a parsed POST body (null or missing when the body was empty), or {@code null}. */
    private static Problem check(JsonNode root) {
        if (root == null || root.isMissingNode()) {
            return new Problem(
                    400,
                    null,
                    PARSE_ERROR,
                    "Parse error: the request body is empty; expected one JSON-RPC " + "message object");
        }
        if (root.isArray()) {
            return new Problem(
                    400,
                    null,
                    INVALID_REQUEST,
                    "Invalid Request: expected one JSON-RPC message object, got "
                            + "an array (batches are not part of MCP since protocol version 2025-06-18)");
        }
        if (!root.isObject()) {
            return new Problem(
                    400,
                    null,
                    INVALID_REQUEST,
                    "Invalid Request: expected one JSON-RPC message object, got: " + kind(root));
        }
        JsonNode id = root.get("id");
        JsonNode replyId = id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null;
        JsonNode version = root.get("jsonrpc");
        if (version == null || !version.isTextual() || !version.textValue().equals("2.0")) {
            return new Problem(
                    400,
                    replyId,
                    INVALID_REQUEST,
                    "Invalid Request: \"jsonrpc\" must be \"2.0\", got: "
                            + (version == null ? "none" : shown(version)));
        }
        if (id != null && replyId == null) {
            return new Problem(
                    400,
                    null,
                    INVALID_REQUEST,
                    "Invalid Request: \"id\" must be a string or an integer, got: " + shown(id));
        }
        JsonNode method = root.get("method");
        if (method == null) {
            boolean response = id != null && (root.has("result") != root.has("error"));
            return response
                    ? null
                    : new Problem(
                            400,
                            replyId,
                            INVALID_REQUEST,
                            "Invalid Request: a message needs "
                                    + "a \"method\" (a request or a notification), or an \"id\" and a \"result\" or \"error\" (a response)");
        }
        if (!method.isTextual() || method.textValue().isBlank()) {
            return new Problem(
                    400,
                    replyId,
                    INVALID_REQUEST,
                    "Invalid Request: \"method\" must be a non-empty string, got: " + shown(method));
        }
        String m = method.textValue();
        // invalid params of a request are answered on that request (HTTP 200, its id); of a notification, with 400
        int status = replyId == null ? 400 : 200;
        JsonNode params = root.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            return new Problem(
                    status,
                    replyId,
                    INVALID_PARAMS,
                    "Invalid params: \"params\" of " + m + " must be an object, got: " + kind(params));
        }
        if (m.equals("tools/call")) {
            if (params == null || params.isNull()) {
                return new Problem(
                        status,
                        replyId,
                        INVALID_PARAMS,
                        "Invalid params: tools/call needs \"params\": {\"name\": <tool name>, \"arguments\": {...}}, got none");
            }
            JsonNode name = params.get("name");
            if (name == null || !name.isTextual() || name.textValue().isBlank()) {
                return new Problem(
                        status,
                        replyId,
                        INVALID_PARAMS,
                        "Invalid params: tools/call params.name must be a tool name (a non-empty string), got: "
                                + (name == null ? "none" : shown(name)));
            }
            JsonNode args = params.get("arguments");
            if (args != null && !args.isNull() && !args.isObject()) {
                return new Problem(
                        status,
                        replyId,
                        INVALID_PARAMS,
                        "Invalid params: tools/call params.arguments must be an object of argument names to values, got: "
                                + kind(args));
            }
        }
        return null;
    }

    private static String kind(JsonNode n) {
        return switch (n.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    /** A value for a message: short scalars as they are, anything else by its kind. */
    private static String shown(JsonNode n) {
        if (n.isValueNode() && n.toString().length() <= 40) {
            return n.toString();
        }
        return kind(n);
    }

    /** The body, or {@code null} when it is over {@link #MAX_BODY_BYTES}. */
    private static byte[] readBody(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[16 * 1024];
        int n;
        while ((n = in.read(buf)) != -1) {
            if (out.size() + n > MAX_BODY_BYTES) {
                return null;
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    /** Writes a JSON-RPC error response. */
    static void write(HttpServletResponse resp, int status, JsonNode id, int code, String message) throws IOException {
        byte[] bytes = errorBody(id, code, message);
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
        resp.flushBuffer();
    }

    /** A JSON-RPC error response: {@code {"jsonrpc":"2.0","id":ID,"error":{"code":C,"message":M}}}. */
    public static byte[] errorBody(JsonNode id, int code, String message) {
        ObjectNode o = JSON.createObjectNode();
        o.put("jsonrpc", "2.0");
        if (id == null) {
            o.putNull("id");
        } else {
            o.set("id", id);
        }
        ObjectNode e = o.putObject("error");
        e.put("code", code);
        e.put("message", message);
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The clean body for an error status, from what the chain wrote: the JSON-RPC code and message of an
     * {@code McpError} the SDK serialized, or the {@code "error"} text of our own filters; anything that reads
     * as internal (a class name, a stack frame), and every 5xx, becomes the status's plain meaning.
     */
    static byte[] cleanErrorBody(int status, String sendErrorMessage, byte[] written) {
        int code = status >= 500 ? INTERNAL_ERROR : INVALID_REQUEST;
        String message = null;
        JsonNode id = null;
        try {
            JsonNode n = written.length == 0 ? null : JSON.readTree(written);
            if (n != null && n.isObject()) {
                JsonNode given = n.get("id");
                id = given != null && (given.isTextual() || given.isIntegralNumber()) ? given : null;
                JsonNode rpc = n.has("jsonRpcError") ? n.get("jsonRpcError") : n.get("error");
                if (rpc != null && rpc.isObject()) {
                    code = rpc.path("code").isInt() ? rpc.path("code").intValue() : code;
                    message = rpc.path("message").isTextual()
                            ? rpc.path("message").textValue()
                            : null;
                } else if (rpc != null && rpc.isTextual()) {
                    message = rpc.textValue();
                }
            }
        } catch (IOException notJson) {
            // not ours to pass on
        }
        if (message == null) {
            message = sendErrorMessage;
        }
        if (status >= 500) {
            // a server-side error the gateway wrote on purpose (-32000 to -32099, "too many MCP sessions") is
            // kept; anything else there may be an exception's text
            boolean own = code <= -32000 && code >= -32099 && message != null && !looksInternal(message);
            if (!own) {
                code = INTERNAL_ERROR;
                message = "Internal error";
            }
        } else if (code != PARSE_ERROR && code != INVALID_PARAMS && !(code <= -32000 && code >= -32099)) {
            // a client's error: the SDK says -32601 (method not found) for a missing session header and -32603
            // (internal) for an unknown session, which would send clients looking in the wrong place; the gateway's
            // own codes (-32000 to -32099: "too many MCP sessions for this key") are kept
            code = INVALID_REQUEST;
        }
        if (message == null || message.isBlank() || looksInternal(message)) {
            message = reason(status);
        }
        return errorBody(id, code, message);
    }

    private static boolean looksInternal(String m) {
        return m.contains("Exception")
                || m.contains("io.modelcontextprotocol")
                || m.contains("java.")
                || m.contains("jakarta.")
                || m.contains("org.eclipse")
                || m.contains("com.fasterxml")
                || m.contains("\tat ")
                || m.length() > 500;
    }

    /** What an HTTP error status means, for a body that says nothing better. */
    public static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized: an API key is required";
            case 403 -> "Forbidden";
            case 404 -> "Not Found: no such path (the MCP endpoint is /mcp) or no such session (mcp-session-id)";
            case 405 -> "Method Not Allowed: the MCP endpoint takes POST, GET and DELETE";
            case 406 -> "Not Acceptable: send Accept: application/json, text/event-stream";
            case 408 -> "Request Timeout";
            case 413 -> "Payload Too Large: the request body must be at most " + MAX_BODY_BYTES + " bytes";
            case 414 -> "URI Too Long";
            case 415 -> "Unsupported Media Type: send Content-Type: application/json";
            case 431 -> "Request Header Fields Too Large";
            default -> status >= 500 ? "Internal error" : "HTTP error " + status;
        };
    }

    /** A request whose body has been read once here and is read again by the servlet. */
    private static final class Replay extends HttpServletRequestWrapper {
        private final byte[] body;

        Replay(HttpServletRequest req, byte[] body) {
            super(req);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body was read already; no async reads");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }
    }

    /**
     * A response that holds back the body of an error status (400 and up) and of {@code sendError}, so that
     * {@link #finish} can write a clean one instead. Other responses (results, SSE streams) pass untouched.
     */
    private static final class ErrorBodies extends HttpServletResponseWrapper {
        private final HttpServletResponse real;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream();
        private int status = 200;
        private boolean error;
        /** Set once the chain has returned: what comes later (an async part) is not held back. */
        private volatile boolean finished;

        private String sendErrorMessage;
        private ServletOutputStream heldStream;
        private PrintWriter heldWriter;

        ErrorBodies(HttpServletResponse real) {
            super(real);
            this.real = real;
        }

        @Override
        public void setStatus(int sc) {
            status = sc;
            if (sc >= 400 && !finished) {
                error = true;
            }
            super.setStatus(sc);
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            if (finished) {
                // too late to hold the body back: answer a clean one at once (never the container's error page)
                if (!real.isCommitted()) {
                    real.resetBuffer();
                    write(
                            real,
                            sc,
                            null,
                            sc >= 500 ? INTERNAL_ERROR : INVALID_REQUEST,
                            sc >= 500 || msg == null || looksInternal(msg) ? reason(sc) : msg);
                }
                return;
            }
            status = sc;
            error = true;
            sendErrorMessage = msg;
            super.setStatus(sc);
        }

        @Override
        public void sendError(int sc) throws IOException {
            sendError(sc, null);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (!error) {
                return super.getOutputStream();
            }
            if (heldStream == null) {
                heldStream = new ServletOutputStream() {
                    @Override
                    public void write(int b) {
                        held.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        held.write(b, off, len);
                    }

                    @Override
                    public boolean isReady() {
                        return true;
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {
                        throw new IllegalStateException("error bodies are written at once");
                    }
                };
            }
            return heldStream;
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (!error) {
                return super.getWriter();
            }
            if (heldWriter == null) {
                heldWriter = new PrintWriter(new OutputStreamWriter(held, StandardCharsets.UTF_8));
            }
            return heldWriter;
        }

        @Override
        public void setContentLength(int len) {
            if (!error) {
                super.setContentLength(len);
            }
        }

        @Override
        public void setContentLengthLong(long len) {
            if (!error) {
                super.setContentLengthLong(len);
            }
        }

        @Override
        public void flushBuffer() throws IOException {
            if (!error) {
                super.flushBuffer();
            }
        }

        /** Writes the clean error body, when the response is an error that nothing has sent yet. */
        void finish() throws IOException {
            finished = true;
            if (!error || real.isCommitted()) {
                return;
            }
            if (heldWriter != null) {
                heldWriter.flush();
            }
            byte[] body = cleanErrorBody(status, sendErrorMessage, held.toByteArray());
            real.resetBuffer();
            real.setStatus(status);
            real.setContentType("application/json");
            real.setCharacterEncoding("UTF-8");
            real.setContentLength(body.length);
            real.getOutputStream().write(body);
            real.flushBuffer();
        }
    }
}
