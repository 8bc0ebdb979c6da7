package dev.toolscout.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DNS rebinding against {@code serve}, over real HTTP on a raw socket (the JDK's client sets its own {@code Host}):
 * a web page whose name an attacker points at 127.0.0.1 sends its own name as {@code Host}, and its cross-site
 * requests its own {@code Origin}. Each is refused with 403 naming the header, the rule and the value, on every
 * path (the MCP gateway, the HTTP API, the metrics, the approval queue, the web console), while this machine's
 * names and the server's own origin keep working.
 */
class RebindingSecurityTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"rebinding-test\",\"version\":\"1\"}}}";

    @TempDir
    static Path tmp;

    static ApiServer keyless;
    static ApiServer keyed;

    @BeforeAll
    static void start() throws Exception {
        keyless = ApiServer.withoutKeys(tmp.resolve("keyless"));
        keyed = ApiServer.allowing(
                tmp.resolve("keyed"), true, List.of("Tools.Example.test"), List.of("https://console.example.test"));
        keyless.awaitReady();
        keyed.awaitReady();
    }

    @AfterAll
    static void stop() {
        for (ApiServer s : new ApiServer[] {keyless, keyed}) {
            if (s != null) {
                s.close();
            }
        }
    }

    /** One request per path of the server, as a client of it sends it, and what it answers when let through. */
    record Probe(String method, String path, String body, int allowed) {}

    static final List<Probe> KEYLESS_PROBES = List.of(
            new Probe("POST", "/mcp", INITIALIZE, 200),
            new Probe("POST", "/v1/select", "{\"message\": \"send an email\"}", 200),
            new Probe("GET", "/metrics", null, 200),
            // without keys nobody is an admin: the queue's own refusal, past the Host and Origin checks
            new Probe("GET", "/v1/approvals", null, 403),
            // retired: it names /v1/approvals, past the same checks
            new Probe("GET", "/approvals", null, 410),
            new Probe("GET", "/", null, 200));

    @Test
    void without_keys_a_host_that_is_not_this_machine_is_refused_on_every_path() throws Exception {
        int port = keyless.http.address().getPort();
        int sessions = keyless.gateway.openSessions();
        for (String host : List.of("127.0.0.1.nip.io:" + port, "127.evil.example:" + port, "evil.com:" + port)) {
            for (Probe p : KEYLESS_PROBES) {
                Answer a = send(port, p, host, null, null);

                assertThat(a.status()).as(p + " Host: " + host + "\n" + a).isEqualTo(403);
                assertRefusal(p.path(), a, "Host", host, "host-not-allowed");
                assertThat(a.body()).doesNotContain("gmail__").doesNotContain("toolscout_");
            }
        }
        // not one session was started by a refused initialize
        assertThat(keyless.gateway.openSessions()).isEqualTo(sessions);
    }

    @Test
    void the_refusal_docs_security_md_shows_is_the_one_the_server_answers() throws Exception {
        String doc = Files.readString(Path.of("../docs/SECURITY.md"));
        int start = doc.indexOf("`Host must be ");
        assertThat(start).as("docs/SECURITY.md shows a Host refusal").isNotNegative();
        String shown = doc.substring(start + 1, doc.indexOf('`', start + 1)).replaceAll("\\s+", " ");
        int port = keyless.http.address().getPort();
        Probe select = KEYLESS_PROBES.get(1);

        Answer a = send(port, select, "127.0.0.1.nip.io:" + port, null, null);

        assertThat(JSON.readTree(a.body()).path("detail").asText())
                .isEqualTo(shown.replace("127.0.0.1.nip.io:8765", "127.0.0.1.nip.io:" + port));
    }

    @Test
    void without_keys_this_machines_names_are_served_on_every_path() throws Exception {
        int port = keyless.http.address().getPort();
        for (String host : List.of("localhost:" + port, "[::1]:" + port, "127.0.0.1:" + port, "LOCALHOST:" + port)) {
            for (Probe p : KEYLESS_PROBES) {
                Answer a = send(port, p, host, null, null);

                assertThat(a.status()).as(p + " Host: " + host + "\n" + a).isEqualTo(p.allowed());
                assertThat(a.body()).doesNotContain("host-not-allowed").doesNotContain("origin-not-allowed");
            }
        }
    }

    @Test
    void an_origin_of_another_site_or_an_opaque_one_is_refused_on_every_path() throws Exception {
        int port = keyless.http.address().getPort();
        for (String origin : List.of(
                "http://evil.example",
                "null",
                "http://127.0.0.1.nip.io:" + port,
                "http://127.0.0.1:" + (port == 1 ? 2 : port - 1),
                "https://127.0.0.1:" + port)) {
            for (Probe p : KEYLESS_PROBES) {
                Answer a = send(port, p, "127.0.0.1:" + port, origin, null);

                assertThat(a.status()).as(p + " Origin: " + origin + "\n" + a).isEqualTo(403);
                assertRefusal(p.path(), a, "Origin", origin, "origin-not-allowed");
            }
        }
    }

    @Test
    void the_servers_own_origin_is_served_as_the_web_console_sends_it() throws Exception {
        int port = keyless.http.address().getPort();
        for (String[] hostAndOrigin : new String[][] {
            {"127.0.0.1:" + port, "http://127.0.0.1:" + port},
            {"localhost:" + port, "http://localhost:" + port},
            {"127.0.0.1:" + port, "http://localhost:" + port},
            {"[::1]:" + port, "http://[::1]:" + port}
        }) {
            for (Probe p : KEYLESS_PROBES) {
                Answer a = send(port, p, hostAndOrigin[0], hostAndOrigin[1], null);

                assertThat(a.status())
                        .as(p + " " + String.join(" / ", hostAndOrigin) + "\n" + a)
                        .isEqualTo(p.allowed());
            }
        }
    }

    @Test
    void with_keys_an_ip_address_or_an_allowed_name_is_served_and_any_other_name_refused() throws Exception {
        int port = keyed.http.address().getPort();
        List<Probe> probes = List.of(
                new Probe("POST", "/mcp", INITIALIZE, 200),
                new Probe("POST", "/v1/select", "{\"message\": \"send an email\"}", 200),
                new Probe("GET", "/metrics", null, 200),
                new Probe("GET", "/v1/approvals", null, 200),
                new Probe("GET", "/approvals", null, 410),
                new Probe("GET", "/", null, 200));
        for (Probe p : probes) {
            for (String host :
                    List.of("127.0.0.1:" + port, "10.1.2.3:" + port, "tools.example.test:" + port, "localhost")) {
                Answer a = send(port, p, host, null, ApiServer.ADMIN);
                assertThat(a.status()).as(p + " Host: " + host + "\n" + a).isEqualTo(p.allowed());
            }
            for (String host : List.of("evil.com:" + port, "127.0.0.1.nip.io:" + port, "tools.example.test.evil.com")) {
                Answer a = send(port, p, host, null, ApiServer.ADMIN);
                assertThat(a.status()).as(p + " Host: " + host + "\n" + a).isEqualTo(403);
                assertRefusal(p.path(), a, "Host", host, "host-not-allowed");
            }
            // the configured origin (a console behind a TLS proxy), and not another
            Answer configured = send(port, p, "tools.example.test", "https://console.example.test", ApiServer.ADMIN);
            assertThat(configured.status()).as(p + "\n" + configured).isEqualTo(p.allowed());
            Answer other = send(port, p, "tools.example.test", "https://other.example.test", ApiServer.ADMIN);
            assertThat(other.status()).as(p + "\n" + other).isEqualTo(403);
            assertRefusal(p.path(), other, "Origin", "https://other.example.test", "origin-not-allowed");
        }
    }

    @Test
    void allowed_hosts_and_origins_that_are_not_names_or_origins_are_refused_at_start() {
        assertThatThrownBy(() -> GatewayHttpServer.checkAllowed(List.of("*.example.com"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--allowed-hosts takes host names or IP addresses (no scheme, port or wildcard), e.g. "
                        + "tools.example.com, got: '*.example.com'");
        assertThatThrownBy(() -> GatewayHttpServer.checkAllowed(List.of("tools.example.com:8765"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got: 'tools.example.com:8765'");
        assertThatThrownBy(() -> GatewayHttpServer.checkAllowed(List.of(), List.of("https://x.example/console")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "--allowed-origins takes origins: http or https, a host and an optional port, nothing else, "
                                + "e.g. https://tools.example.com, got: 'https://x.example/console'");
        assertThatThrownBy(() -> GatewayHttpServer.checkAllowed(List.of(), List.of("null")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got: 'null'");
    }

    @Test
    void serve_refuses_an_allowed_origin_that_is_not_one_with_exit_code_2() {
        java.io.StringWriter err = new java.io.StringWriter();

        int code = dev.toolscout.server.cli.ToolScoutCli.run(
                new String[] {
                    "serve",
                    "--data-dir",
                    tmp.resolve("never-opened").toString(),
                    "--allowed-hosts",
                    "tools.example.com,localhost",
                    "--allowed-origins",
                    "https://tools.example.com,ftp://tools.example.com"
                },
                new java.io.PrintWriter(new java.io.StringWriter(), true),
                new java.io.PrintWriter(err, true));

        assertThat(code).isEqualTo(dev.toolscout.server.cli.ToolScoutCli.BAD_INPUT);
        assertThat(err.toString())
                .contains("--allowed-origins takes origins: http or https, a host and an optional "
                        + "port, nothing else, e.g. https://tools.example.com, got: 'ftp://tools.example.com'");
        assertThat(tmp.resolve("never-opened")).doesNotExist();
    }

    /** A refusal names the header, the rule and the bad value: JSON-RPC on /mcp, problem+json elsewhere. */
    static void assertRefusal(String path, Answer a, String header, String value, String type) throws Exception {
        JsonNode body = JSON.readTree(a.body());
        if (path.equals("/mcp")) {
            assertThat(a.header("content-type")).startsWith("application/json");
            assertThat(body.path("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(body.path("error").path("code").asInt()).isEqualTo(-32600);
            assertThat(body.path("error").path("message").asText())
                    .startsWith(header + " must be ")
                    .contains(value);
            assertThat(body.path("error").path("data").path("header").asText()).isEqualTo(header);
            assertThat(body.path("error").path("data").path("value").asText()).isEqualTo(value);
            assertThat(body.path("error").path("data").path("rule").asText()).isNotBlank();
        } else {
            assertThat(a.header("content-type")).isEqualTo("application/problem+json");
            assertThat(body.path("type").asText()).isEqualTo("urn:toolscout:problem:" + type);
            assertThat(body.path("status").asInt()).isEqualTo(403);
            assertThat(body.path("input").asText()).isEqualTo(header);
            assertThat(body.path("value").asText()).isEqualTo(value);
            assertThat(body.path("rule").asText()).isNotBlank();
            assertThat(body.path("detail").asText())
                    .startsWith(header + " must be ")
                    .contains(value);
        }
    }

    /** An HTTP answer: status, headers (names in lower case), body. */
    record Answer(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name);
        }

        @Override
        public String toString() {
            return status + " " + headers + "\n" + body;
        }
    }

    /** Sends one request with exactly this {@code Host} (and {@code Origin}, when given) on a raw socket. */
    static Answer send(int port, Probe p, String host, String origin, String key) throws Exception {
        StringBuilder req = new StringBuilder(p.method() + " " + p.path() + " HTTP/1.1\r\nHost: " + host
                + "\r\nConnection: close\r\nAccept: application/json, text/event-stream\r\n");
        if (origin != null) {
            req.append("Origin: ").append(origin).append("\r\n");
        }
        if (key != null) {
            req.append("Authorization: Bearer ").append(key).append("\r\n");
        }
        byte[] body = p.body() == null ? new byte[0] : p.body().getBytes(StandardCharsets.UTF_8);
        if (p.body() != null) {
            req.append("Content-Type: application/json\r\nContent-Length: ")
                    .append(body.length)
                    .append("\r\n");
        }
        req.append("\r\n");
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(120_000);
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return parse(s.getInputStream().readAllBytes());
        }
    }

    static Answer parse(byte[] raw) {
        String all = new String(raw, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        String[] lines = all.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(
                    lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip());
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < in.length) {
            int eol = i;
            while (eol + 1 < in.length && !(in[eol] == '\r' && in[eol + 1] == '\n')) {
                eol++;
            }
            String size = new String(in, i, eol - i, StandardCharsets.ISO_8859_1).split(";")[0].strip();
            int n = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(in, eol + 2, Math.min(n, in.length - eol - 2));
            i = eol + 2 + n + 2;
        }
        return out.toByteArray();
    }
}
