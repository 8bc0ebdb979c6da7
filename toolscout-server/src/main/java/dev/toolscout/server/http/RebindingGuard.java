package dev.toolscout.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.mcp.gateway.JsonRpcGuard;
import dev.toolscout.server.http.api.ApiProblem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses DNS rebinding, in front of every path of the server ({@code /mcp}, {@code /approvals}, the HTTP API, the
 * web console): a web page whose name an attacker re-points at 127.0.0.1 reaches this port from the user's own
 * browser, and would act as the local user of a server without API keys. Such a request still names the attacker's
 * host in {@code Host}, and a page's cross-site request carries its {@code Origin}; the MCP Streamable HTTP
 * specification requires servers to validate {@code Origin} for this reason.
 *
 * <ul>
 *   <li>{@code Host} (its name; the port is not looked at) must be an IP address literal, parsed as a literal
 *       without any DNS lookup, that is a loopback address when there are no API keys (any address with keys: a
 *       page reached by its address has that address as its origin, so no rebinding is possible), or {@code
 *       localhost}, or with keys the name {@code --host} binds, or a name given with {@code --allowed-hosts}.
 *       Never a prefix: {@code 127.0.0.1.nip.io} is a name, not an address.
 *   <li>{@code Origin}, when there is one, must be this server's own: {@code http}, the port the request was
 *       sent to, and a host that is the request's own {@code Host}, a loopback address, {@code localhost} or an
 *       allowed name; or an origin given with {@code --allowed-origins}. {@code null} (a sandboxed frame, a file
 *       or data URL) is refused. A request without {@code Origin} (a non-browser client, a same-origin GET) is
 *       let through.
 * </ul>
 *
 * A refusal is HTTP 403 naming the header, the rule and the bad value: a JSON-RPC error on {@code /mcp} (with
 * {@code data: {"header", "rule", "value"}}), {@code application/problem+json} ({@code host-not-allowed}, {@code
 * origin-not-allowed}) on every other path. Thread-safe (immutable).
 */
final class RebindingGuard implements Filter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");
    private static final Pattern NAME = Pattern.compile(
            "(?=.{1,253}$)[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?)*");

    /**
     * The names and origins the operator allows besides the server's own ({@code serve --allowed-hosts},
     * {@code --allowed-origins}).
     *
     * @param hosts host names or IP addresses, without a port: lower case
     * @param origins {@code scheme://host:port}, the port always written
     */
    record Allowed(Set<String> hosts, Set<String> origins) {
        static final Allowed NONE = new Allowed(Set.of(), Set.of());

        Allowed {
            hosts = Set.copyOf(hosts);
            origins = Set.copyOf(origins);
        }

        /**
         * Checks and normalizes what an operator gave.
         *
         * @throws IllegalArgumentException naming the option and the value that is not a host name or an origin
         */
        static Allowed of(List<String> hosts, List<String> origins) {
            Set<String> h = new LinkedHashSet<>();
            for (String given : hosts) {
                String n = given == null ? "" : given.strip().toLowerCase(Locale.ROOT);
                if (!NAME.matcher(n).matches() && literal(n) == null) {
                    throw new IllegalArgumentException(
                            "--allowed-hosts takes host names or IP addresses (no scheme, port or "
                                    + "wildcard), e.g. tools.example.com, got: '" + given + "'");
                }
                h.add(unbracketed(n));
            }
            Set<String> o = new LinkedHashSet<>();
            for (String given : origins) {
                String n = origin(given == null ? "" : given.strip());
                if (n == null) {
                    throw new IllegalArgumentException("--allowed-origins takes origins: http or https, a host and an "
                            + "optional port, nothing else, e.g. https://tools.example.com, got: '" + given + "'");
                }
                o.add(n);
            }
            return new Allowed(h, o);
        }
    }

    private final boolean keys;
    private final Allowed allowed;
    /** The name {@code --host} binds, when it is a name (with keys, clients may use it). */
    private final String boundName;

    /**
     * @param keys whether the server requires API keys
     * @param boundHost what the server binds ({@code --host})
     */
    RebindingGuard(boolean keys, String boundHost, Allowed allowed) {
        this.keys = keys;
        this.allowed = allowed;
        String b = boundHost == null ? "" : boundHost.strip().toLowerCase(Locale.ROOT);
        this.boundName = keys && literal(b) == null ? b : null;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String host = req.getServerName();
        if (!hostAllowed(host)) {
            String given = req.getHeader("Host");
            refuse(
                    req,
                    resp,
                    "Host",
                    "host-not-allowed",
                    "Host not allowed",
                    hostRule(),
                    given != null ? given : String.valueOf(host),
                    "a web page that reaches this port through DNS rebinding " + "sends its own name");
            return;
        }
        String origin = req.getHeader("Origin");
        if (origin != null && !originAllowed(origin, req)) {
            refuse(
                    req,
                    resp,
                    "Origin",
                    "origin-not-allowed",
                    "Origin not allowed",
                    originRule(),
                    origin,
                    origin.strip().equals("null")
                            ? "an opaque origin: a sandboxed frame, a file or a data URL"
                            : "a page of another site may not call this server");
            return;
        }
        chain.doFilter(request, response);
    }

    private String hostRule() {
        return (keys
                        ? "an IP address, localhost, " + (boundName == null ? "" : boundName + " (--host), ")
                        : "a loopback IP address (127.0.0.1, [::1]), localhost, ")
                + "or a name given with serve --allowed-hosts"
                + (allowed.hosts().isEmpty() ? " (none given)" : " (" + String.join(", ", allowed.hosts()) + ")");
    }

    private static String originRule() {
        return "this server's own origin (http://HOST:PORT with the port of this request and HOST the request's Host, "
                + "a loopback IP address, localhost or an allowed host) or one given with serve --allowed-origins";
    }

    /** Whether {@code host} (a request's server name, an IPv6 address in brackets or not) names this server. */
    boolean hostAllowed(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String h = unbracketed(host.toLowerCase(Locale.ROOT));
        if (h.equals("localhost") || allowed.hosts().contains(h) || h.equals(boundName)) {
            return true;
        }
        InetAddress a = literal(h);
        return a != null && (keys || a.isLoopbackAddress());
    }

    /** Whether {@code origin} is this server's own, for a request whose Host was allowed, or an allowed one. */
    private boolean originAllowed(String origin, HttpServletRequest req) {
        String o = origin(origin.strip());
        if (o == null) {
            return false;
        }
        if (allowed.origins().contains(o)) {
            return true;
        }
        URI u = URI.create(o);
        if (!u.getScheme().equals(req.getScheme()) || u.getPort() != req.getServerPort()) {
            return false;
        }
        String h = unbracketed(u.getHost());
        InetAddress a = literal(h);
        return h.equals(unbracketed(req.getServerName().toLowerCase(Locale.ROOT)))
                || h.equals("localhost")
                || allowed.hosts().contains(h)
                || a != null && a.isLoopbackAddress();
    }

    /**
     * An origin as {@code scheme://host:port} in lower case with the port always written, or null when {@code
     * text} is not one (a path, a query, user info, another scheme, {@code null}).
     */
    static String origin(String text) {
        URI u;
        try {
            u = new URI(text);
        } catch (java.net.URISyntaxException e) {
            return null;
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))
                || u.getHost() == null
                || u.getRawUserInfo() != null
                || u.getRawQuery() != null
                || u.getRawFragment() != null
                || !(u.getRawPath() == null
                        || u.getRawPath().isEmpty()
                        || u.getRawPath().equals("/"))) {
            return null;
        }
        int port = u.getPort() >= 0 ? u.getPort() : scheme.equals("http") ? 80 : 443;
        return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    }

    /**
     * The address {@code host} is when it is an IP address literal (an IPv6 one in brackets or not), else null.
     * Never a DNS lookup: an IPv4 literal is four decimal numbers, parsed here; an IPv6 one holds only hex digits,
     * colons and dots, which the JDK parses as a literal and refuses without a lookup when it is not one.
     */
    static InetAddress literal(String host) {
        String h = unbracketed(host);
        try {
            Matcher m = IPV4.matcher(h);
            if (m.matches()) {
                byte[] b = new byte[4];
                for (int i = 0; i < 4; i++) {
                    int n = Integer.parseInt(m.group(i + 1));
                    if (n > 255) {
                        return null;
                    }
                    b[i] = (byte) n;
                }
                return InetAddress.getByAddress(b);
            }
            if (h.indexOf(':') >= 0 && IPV6.matcher(h).matches()) {
                return InetAddress.getByName(h);
            }
        } catch (UnknownHostException e) {
            return null;
        }
        return null;
    }

    private static String unbracketed(String host) {
        return host.length() > 1 && host.startsWith("[") && host.endsWith("]")
                ? host.substring(1, host.length() - 1)
                : host;
    }

    private static void refuse(
            HttpServletRequest req,
            HttpServletResponse resp,
            String header,
            String type,
            String title,
            String rule,
            String value,
            String why)
            throws IOException {
        String shown = value.length() > 120 ? value.substring(0, 120) + "..." : value;
        String detail = header + " must be " + rule + ", got: " + shown + " (" + why + ")";
        String path = req.getRequestURI();
        if (path != null
                && (path.equals(GatewayHttpServer.ENDPOINT) || path.startsWith(GatewayHttpServer.ENDPOINT + "/"))) {
            ObjectNode body = JSON.createObjectNode();
            body.put("jsonrpc", "2.0");
            body.putNull("id");
            ObjectNode error = body.putObject("error");
            error.put("code", JsonRpcGuard.INVALID_REQUEST);
            error.put("message", detail);
            error.putObject("data").put("header", header).put("rule", rule).put("value", shown);
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            resp.setStatus(403);
            resp.setHeader("Cache-Control", "no-store");
            resp.setContentType("application/json");
            resp.setContentLength(bytes.length);
            resp.getOutputStream().write(bytes);
            return;
        }
        ApiProblem.of(403, type, title, detail).withInput(header, rule, value).write(resp, path);
    }
}
