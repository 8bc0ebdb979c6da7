package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.mcp.gateway.Caller;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Role;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves every path of the HTTP server but {@code /mcp} and {@code /approvals}: finds the {@link Endpoint}, checks
 * what every route shares, in this order, and calls its handler:
 *
 * <ol>
 *   <li>the path (404) and the method (405, with {@code Allow});
 *   <li>the key (401) and the role (403), before anything about the request is looked at;
 *   <li>the engine is open (503 with {@code Retry-After} before);
 *   <li>query parameters the route does not declare (400);
 *   <li>for a route with a body: {@code Content-Type: application/json} (415) and at most {@link
 *       #MAX_BODY_BYTES} bytes (413, {@code Connection: close}; read and dropped up to {@link #DRAINED_BYTES}).
 * </ol>
 *
 * Every error is {@code application/problem+json} ({@link ApiProblem}); an unexpected exception is logged with
 * its stack trace and answered as a plain 500 that names nothing internal. Thread-safe.
 */
final class ApiServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ApiServlet.class);
    /** The largest request body: the MCP gateway's limit, so both surfaces of one server agree. */
    static final int MAX_BODY_BYTES = dev.toolscout.mcp.gateway.McpGateway.MAX_REQUEST_BYTES;
    /** A body refused as too large is still read (and dropped) up to this size, so its client reads the 413. */
    static final long DRAINED_BYTES = 2L * MAX_BODY_BYTES;

    private final transient HttpApi api;

    ApiServlet(HttpApi api) {
        this.api = api;
    }

    /** The threads deferred replies are made on (an agent run each): virtual, so waiting costs no OS thread. */
    private static final java.util.concurrent.ThreadFactory DEFERRED =
            Thread.ofVirtual().name("api-deferred-", 0).factory();

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long start = System.nanoTime();
        String method = req.getMethod().toUpperCase(Locale.ROOT);
        String routeLabel = "unmatched";
        int status;
        try {
            Match m = match(method, req.getRequestURI());
            routeLabel = m.route().path();
            Reply reply = call(m, req);
            if (reply.deferred() != null) {
                deferred(req, resp, reply.deferred(), method, routeLabel, start);
                return;
            }
            status = reply.status();
            write(resp, reply);
        } catch (RuntimeException | IOException e) {
            status = failed(e, req, resp, method);
        }
        api.metrics().request(method, routeLabel, status, System.nanoTime() - start);
    }

    /**
     * Suspends the exchange and makes the reply on a virtual thread of its own; this request thread goes back to
     * the pool at once. The container's async timeout is off: the work bounds itself (an agent run by its limits).
     */
    private void deferred(
            HttpServletRequest req,
            HttpServletResponse resp,
            Reply.Deferred d,
            String method,
            String routeLabel,
            long start) {
        jakarta.servlet.AsyncContext async;
        try {
            async = req.startAsync();
            async.setTimeout(0);
        } catch (RuntimeException e) {
            d.after().run();
            throw e;
        }
        Runnable work = () -> {
            int status;
            try {
                Reply r = d.work().get();
                status = r.status();
                try {
                    write(resp, r);
                } catch (IOException gone) {
                    // the client went away while the work ran: the work is done (an agent run is stored), nobody to
                    // tell
                    LOG.debug(
                            "{} {}: the client went away before the answer: {}",
                            method,
                            req.getRequestURI(),
                            gone.toString());
                }
            } catch (RuntimeException e) {
                status = failed(e, req, resp, method);
            } finally {
                d.after().run();
                async.complete();
            }
            api.metrics().request(method, routeLabel, status, System.nanoTime() - start);
        };
        DEFERRED.newThread(work).start();
    }

    /** Answers a failed request (a problem document when nothing was sent yet) and returns the status. */
    private int failed(Exception ex, HttpServletRequest req, HttpServletResponse resp, String method) {
        try {
            return answerFailure(ex, req, resp, method);
        } catch (IOException e) {
            // the client went away before it read the problem: nothing more to tell it
            LOG.debug("{} {}: the problem could not be sent: {}", method, req.getRequestURI(), e.toString());
            return ex instanceof ApiProblem p ? p.status() : 500;
        }
    }

    private int answerFailure(Exception ex, HttpServletRequest req, HttpServletResponse resp, String method)
            throws IOException {
        try {
            throw ex;
        } catch (ApiProblem p) {
            problem(resp, p, req.getRequestURI());
            return p.status();
        } catch (IllegalArgumentException e) {
            // the engine's own validation (its messages name the input, the rule and the value)
            ApiProblem p = ApiProblem.of(400, "invalid-input", "Invalid input", clean(e.getMessage(), "invalid input"));
            problem(resp, p, req.getRequestURI());
            return p.status();
        } catch (dev.toolscout.conversation.ConversationsFullException e) {
            // the conversation store is at its cap: nothing changed, and a retry succeeds once older ones expire
            ApiProblem p = ApiProblem.of(503, "conversations-full", "Conversation store full", e.getMessage())
                    .withHeader("Retry-After", "60");
            problem(resp, p, req.getRequestURI());
            return p.status();
        } catch (Exception e) {
            if (storeFailure(e)) {
                // the store (a replica's shared PostgreSQL) is down: nothing was changed, and the caller may retry
                LOG.warn("{} {} failed: the store cannot be reached: {}", method, req.getRequestURI(), e.getMessage());
                ApiProblem p = ApiProblem.of(
                                503,
                                "store-unreachable",
                                "Store unreachable",
                                "the store cannot be reached, "
                                        + "so this change was not made; reads are served from this replica's last state; retry when GET /readyz "
                                        + "answers 200")
                        .withHeader("Retry-After", "2");
                if (!resp.isCommitted()) {
                    resp.reset();
                    problem(resp, p, req.getRequestURI());
                }
                return p.status();
            }
            if (clientGone(e)) {
                // the client closed the connection while its answer was written (a stream it stopped reading): nothing
                // failed here, and no one is left to tell; 499 as nginx counts it
                LOG.debug("{} {}: the client went away: {}", method, req.getRequestURI(), e.toString());
                return 499;
            }
            LOG.warn("{} {} failed", method, req.getRequestURI(), e);
            ApiProblem p = ApiProblem.of(
                    500, "internal", "Internal error", "the request failed inside the server; its log has the details");
            if (!resp.isCommitted()) {
                resp.reset();
                problem(resp, p, req.getRequestURI());
            }
            return p.status();
        }
    }

    /** Whether {@code e} (or what it wraps) is Jetty's end of file on a connection the client closed. */
    private static boolean clientGone(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.eclipse.jetty.io.EofException) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code e} (or what it wraps) is the store failing: the database unreachable, not a bad request. */
    private static boolean storeFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof dev.toolscout.store.StoreException) {
                return true;
            }
        }
        return false;
    }

    private Reply call(Match m, HttpServletRequest req) throws IOException {
        Endpoint r = m.route();
        Caller caller = authorize(r, req);
        ApiBackend backend = null;
        if (r.needsEngine()) {
            backend = api.backend();
            if (backend == null) {
                throw ApiProblem.of(
                                503,
                                "not-ready",
                                "Not ready",
                                "the engine is still opening; retry shortly (GET /readyz "
                                        + "answers 200 once it is open)")
                        .withHeader("Retry-After", "2");
            }
        }
        Map<String, List<String>> query = query(req.getQueryString());
        for (String name : query.keySet()) {
            if (r.params().stream()
                    .noneMatch(p -> p.in().equals("query") && p.name().equals(name))) {
                List<String> known = r.params().stream()
                        .filter(p -> p.in().equals("query"))
                        .map(Endpoint.Param::name)
                        .toList();
                throw ApiProblem.invalid(
                        name,
                        known.isEmpty() ? "no query parameters" : "one of " + String.join(", ", known),
                        name,
                        "unknown query parameter '" + Fields.shown(name) + "' for " + r.method() + " " + r.path()
                                + (known.isEmpty()
                                        ? " (it takes none)"
                                        : " (allowed: " + String.join(", ", known) + ")"));
            }
        }
        byte[] body = r.requestSchema() == null ? null : body(req);
        return r.handler().handle(new Call(r, m.params(), query, caller, body, backend, req.getHeader("Accept")));
    }

    /** The caller, once its key and role allow the route; a public route takes any caller, or none. */
    private Caller authorize(Endpoint r, HttpServletRequest req) {
        Caller c = api.auth().caller(GatewayAuth.presentedKey(req));
        // without keys the server answers only loopback callers naming this machine, the local user who can read the
        // data directory anyway: the metrics tell them nothing new, and a local Prometheus needs no key to scrape
        boolean open = r.access() == Endpoint.Access.PUBLIC
                || r.access() == Endpoint.Access.METRICS
                        && (api.options().metricsPublic() || !api.auth().requiresKey());
        if (open) {
            return c;
        }
        if (c == null) {
            boolean given = GatewayAuth.presentedKey(req) != null;
            throw ApiProblem.of(
                            401,
                            "unauthorized",
                            "Unauthorized",
                            given
                                    ? "unknown API key"
                                    : "an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>")
                    .withHeader("WWW-Authenticate", "Bearer");
        }
        if ((r.access() == Endpoint.Access.ADMIN || r.access() == Endpoint.Access.METRICS) && c.role() != Role.ADMIN) {
            throw ApiProblem.of(
                    403,
                    "forbidden",
                    "Forbidden",
                    r.method() + " " + r.path() + " needs an API key with the "
                            + "role admin; this caller's role is " + c.role().id()
                            + (api.auth().requiresKey()
                                    ? ""
                                    : " (the server runs without API keys, so nobody is an admin over HTTP: "
                                            + "serve with --api-keys FILE, or stop the server and use the CLI)"));
        }
        return c;
    }

    /** The route for a method and a raw (still encoded) path. */
    private Match match(String method, String rawPath) {
        List<String> segments = segments(rawPath);
        TreeSet<String> allowed = new TreeSet<>();
        for (Endpoint r : api.routes()) {
            Map<String, String> params = bind(r.segments(), segments);
            if (params == null) {
                continue;
            }
            if (r.method().equals(method)) {
                return new Match(r, params);
            }
            allowed.add(r.method());
        }
        if (allowed.isEmpty()) {
            throw ApiProblem.notFound(
                    "no such path: " + Fields.shown(rawPath) + " (GET /openapi.json lists every route)");
        }
        throw ApiProblem.of(
                        405,
                        "method-not-allowed",
                        "Method not allowed",
                        Fields.shown(rawPath) + " takes " + String.join(", ", allowed) + ", not "
                                + Fields.shown(method))
                .withHeader("Allow", String.join(", ", allowed));
    }

    private record Match(Endpoint route, Map<String, String> params) {}

    /** The path's decoded segments; a segment that cannot be decoded matches no route. */
    private static List<String> segments(String raw) {
        String p = raw == null || raw.isEmpty() ? "/" : raw;
        List<String> out = new ArrayList<>();
        for (String s : p.substring(1).split("/", -1)) {
            try {
                out.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ApiProblem.notFound(
                        "no such path: " + Fields.shown(raw) + " (a segment is not valid percent-encoding)");
            }
        }
        return out;
    }

    /** The path parameters when {@code template} matches, else null. */
    private static Map<String, String> bind(List<String> template, List<String> path) {
        if (template.size() != path.size()) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < template.size(); i++) {
            String t = template.get(i);
            if (t.startsWith("{") && t.endsWith("}")) {
                if (path.get(i).isEmpty()) {
                    return null;
                }
                params.put(t.substring(1, t.length() - 1), path.get(i));
            } else if (!t.equals(path.get(i))) {
                return null;
            }
        }
        return params;
    }

    /** The query string's parameters, decoded, in order. */
    private static Map<String, List<String>> query(String q) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (q == null || q.isEmpty()) {
            return out;
        }
        for (String pair : q.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            try {
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
            } catch (IllegalArgumentException e) {
                throw ApiProblem.invalid(
                        "query",
                        "percent-encoded name=value pairs",
                        Fields.shown(q),
                        "the query string is not valid percent-encoding: " + Fields.shown(q));
            }
        }
        return out;
    }

    /** The body of a JSON request, at most {@link #MAX_BODY_BYTES}. */
    private static byte[] body(HttpServletRequest req) throws IOException {
        String type = req.getContentType();
        String media = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!media.equals("application/json")) {
            throw ApiProblem.of(
                    415,
                    "unsupported-media-type",
                    "Unsupported media type",
                    "send the body as " + "Content-Type: application/json, got: "
                            + (type == null ? "none" : Fields.shown(type)));
        }
        long declared = req.getContentLengthLong();
        InputStream in = req.getInputStream();
        if (declared > MAX_BODY_BYTES) {
            if (declared <= DRAINED_BYTES) {
                drain(in, DRAINED_BYTES);
            }
            throw tooLarge(declared);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[16 * 1024];
        for (int n; (n = in.read(buf)) != -1; ) {
            if (out.size() + n > MAX_BODY_BYTES) {
                drain(in, DRAINED_BYTES - out.size() - n);
                throw tooLarge(-1);
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    /**
     * Reads and drops at most {@code limit} more bytes of a body refused as too large. A connection closed with
     * bytes the server never read is reset, and the reset can reach the client before it has read the 413 it was
     * sent (the JDK's client, which sends the whole body before it reads, then saw no answer at all); a body of up to
     * {@link #DRAINED_BYTES} is read to its end first, a larger one is cut off as before.
     */
    private static void drain(InputStream in, long limit) throws IOException {
        byte[] buf = new byte[16 * 1024];
        long left = limit;
        for (int n; left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) != -1; ) {
            left -= n;
        }
    }

    private static ApiProblem tooLarge(long declared) {
        // the body is not read to its end (only drained up to DRAINED_BYTES), so the connection closes after this
        // answer: say so to the client
        return ApiProblem.of(
                        413,
                        "payload-too-large",
                        "Payload too large",
                        String.format(
                                Locale.ROOT,
                                "the request body must be at most %,d bytes, got: %s",
                                MAX_BODY_BYTES,
                                declared < 0 ? "more" : String.format(Locale.ROOT, "%,d bytes", declared)))
                .withHeader("Connection", "close");
    }

    private static void write(HttpServletResponse resp, Reply r) throws IOException {
        resp.setStatus(r.status());
        headers(resp);
        if (r.contentType() != null) {
            resp.setContentType(r.contentType());
        }
        if (r.streamer() != null) {
            resp.setHeader("Cache-Control", "no-cache");
            resp.flushBuffer();
            r.streamer().write(resp.getOutputStream());
            return;
        }
        resp.setContentLength(r.body().length);
        resp.getOutputStream().write(r.body());
    }

    static void problem(HttpServletResponse resp, ApiProblem p, String instance) throws IOException {
        JsonNode body = p.body(instance == null ? null : Fields.shown(instance));
        byte[] bytes = Call.JSON.writeValueAsBytes(body);
        resp.setStatus(p.status());
        headers(resp);
        p.headers().forEach(resp::setHeader);
        resp.setContentType(Reply.PROBLEM_JSON);
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    private static void headers(HttpServletResponse resp) {
        // answers are per caller and per moment: never cached by a proxy; never sniffed as HTML by a browser
        resp.setHeader("Cache-Control", "no-store");
        resp.setHeader("X-Content-Type-Options", "nosniff");
        // the web console's page and every answer: scripts and styles only from this server's own files, no
        // inline script, data only from this origin, never framed (clickjacking), no referrer to other sites
        resp.setHeader("Content-Security-Policy", CSP);
        resp.setHeader("X-Frame-Options", "DENY");
        resp.setHeader("Referrer-Policy", "no-referrer");
    }

    /** The content security policy of every answer (the web console's page above all). */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

    /** An engine message as it is, unless it reads as internal (then the plain meaning). */
    private static String clean(String m, String plain) {
        if (m == null
                || m.isBlank()
                || m.contains("Exception")
                || m.contains("\tat ")
                || m.contains("java.")
                || m.length() > 2000) {
            return plain;
        }
        return m;
    }
}
