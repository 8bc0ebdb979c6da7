package dev.toolscout.agent.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 30, item 10, against a real HTTP service on a loopback port: the document's own path template never
 * leaves the base URL through dot segments (resolved at import, refused when they climb out, and checked again at
 * call time for a stored operation), and a service that echoes the credential in an encoded form never hands it
 * to the model.
 */
class OpenApiPathAndEchoTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Bytes whose base64 differs between the two alphabets ({@code >>>} is {@code Pj4+}, {@code ???} {@code Pz8/}),
     *  with padding, and characters that percent-encoding changes. */
    private static final String SECRET = "pa ss/w+rd?&=>>>???~";

    private HttpServer server;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/api";
    }

    /** Records the raw path; {@code /api/echo} answers the credential it got in every encoded form. */
    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getRawPath();
            seen.add(path);
            ObjectNode out = JSON.createObjectNode().put("path", path);
            if (path.equals("/api/echo")) {
                String auth = ex.getRequestHeaders().getFirst("Authorization");
                String secret = auth.startsWith("Bearer ")
                        ? auth.substring(7)
                        : new String(Base64.getDecoder().decode(auth.substring(6)), StandardCharsets.UTF_8);
                for (Map.Entry<String, String> e : forms(secret).entrySet()) {
                    out.put(e.getKey(), "got " + e.getValue() + " here");
                }
                if (!auth.startsWith("Bearer ")) {
                    String pass = secret.substring(secret.indexOf(':') + 1);
                    forms(pass).forEach((k, v) -> out.put("password " + k, v));
                }
            }
            byte[] bytes = JSON.writeValueAsBytes(out);
            ex.getResponseHeaders().add("Content-Type", "text/plain"); // the text as sent, no JSON escaping undone
            ex.sendResponseHeaders(200, bytes.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(bytes);
            }
        }
    }

    /** The encoded forms the executor promises to take out. */
    private static Map<String, String> forms(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        String form = URLEncoder.encode(s, StandardCharsets.UTF_8);
        Map<String, String> m = new LinkedHashMap<>();
        m.put("literal", s);
        m.put("base64", Base64.getEncoder().encodeToString(b));
        m.put("base64 unpadded", Base64.getEncoder().withoutPadding().encodeToString(b));
        m.put("base64url", Base64.getUrlEncoder().encodeToString(b));
        m.put("base64url unpadded", Base64.getUrlEncoder().withoutPadding().encodeToString(b));
        m.put("form-encoded", form);
        m.put("percent-encoded", form.replace("+", "%20"));
        m.put(
                "percent-encoded lower hex",
                java.util.regex.Pattern.compile("%[0-9A-F]{2}")
                        .matcher(form.replace("+", "%20"))
                        .replaceAll(r -> r.group().toLowerCase(Locale.ROOT)));
        return m;
    }

    private static JsonNode doc(String... paths) {
        ObjectNode d = JSON.createObjectNode().put("openapi", "3.0.3");
        d.putObject("info").put("title", "t").put("version", "1");
        ObjectNode ps = d.putObject("paths");
        for (int i = 0; i < paths.length; i++) {
            ps.putObject(paths[i])
                    .putObject("get")
                    .put("operationId", "op" + i)
                    .put("summary", "Operation " + i)
                    .putObject("responses")
                    .putObject("200")
                    .put("description", "ok");
        }
        return d;
    }

    private OpenApiExecutor executor(OpenApiSource s, String secret) {
        return new OpenApiExecutor(
                n -> n.equals(s.name()) ? Optional.of(s) : Optional.empty(),
                sealedValue -> secret,
                Map.of("TOKEN", secret),
                OpenApiExecutor.Settings.DEFAULTS);
    }

    private static ToolResult call(OpenApiExecutor e, ToolSpec tool) throws InterruptedException {
        return e.execute(new ToolInvocation(tool, JSON.createObjectNode(), Principal.ANONYMOUS, "c1"));
    }

    @Test
    void dot_segments_in_the_documents_path_are_resolved_at_import_and_an_escape_is_left_out() throws Exception {
        OpenApiImporter.Imported imported = OpenApiImporter.parse(
                "dots.json",
                doc("/../../escape", "/a/./b/../c", "/x/%2e%2E/%2e./escape", "/files/..;/..;/escape", "/pets/list"),
                "dots",
                base(),
                null);

        assertThat(imported.source().operations()).containsOnlyKeys("dots__op1", "dots__op4");
        assertThat(imported.source().operations().get("dots__op1").path()).isEqualTo("/a/c");
        assertThat(imported.warnings())
                .anySatisfy(
                        w -> assertThat(w)
                                .isEqualTo(
                                        "dots.json: paths./../../escape: left out: path '/../../escape' climbs above the base URL with '..'"));
        assertThat(imported.warnings())
                .anySatisfy(w -> assertThat(w).contains("paths./x/%2e%2E/%2e./escape: left out"));
        assertThat(imported.warnings())
                .anySatisfy(w -> assertThat(w).contains("paths./files/..;/..;/escape: left out"));
        assertThat(imported.warnings()).contains("dots.json: paths./a/./b/../c: dot segments resolved, called as /a/c");

        ToolSpec c = imported.tools().stream()
                .filter(t -> t.fullName().equals("dots__op1"))
                .findFirst()
                .orElseThrow();
        try (OpenApiExecutor e = executor(imported.source(), "unused")) {
            assertThat(call(e, c).isError()).isFalse();
        }
        assertThat(seen).containsExactly("/api/a/c");
    }

    @Test
    void a_stored_operation_whose_path_climbs_out_is_refused_at_call_time_and_sends_nothing() throws Exception {
        // as a source imported before dot segments were resolved would be stored
        OpenApiOperation out = new OpenApiOperation("get", "/v2/../../escape", List.of(), null);
        OpenApiOperation inside = new OpenApiOperation("get", "/v2/../pets/./list", List.of(), null);
        OpenApiSource s = new OpenApiSource(
                "old", "old.json", URI.create(base()), null, Map.of("old__out", out, "old__inside", inside));
        ToolSpec outTool = ToolSpec.builder("old__out", "d").build();
        ToolSpec insideTool = ToolSpec.builder("old__inside", "d").build();

        try (OpenApiExecutor e = executor(s, "unused")) {
            assertThat(call(e, outTool).error())
                    .isEqualTo("old__out: the path /v2/../../escape would leave the API's " + "base URL " + base()
                            + " (its '..' climbs above it)");
            assertThat(seen).isEmpty();
            assertThat(call(e, insideTool).isError()).isFalse();
        }
        assertThat(seen).containsExactly("/api/pets/list");
    }

    @Test
    void a_bearer_token_echoed_literally_in_base64_or_percent_encoded_never_reaches_the_model() throws Exception {
        OpenApiAuth bearer = new OpenApiAuth(OpenApiAuth.Type.BEARER, null, null, "TOKEN", null);
        OpenApiImporter.Imported imported = OpenApiImporter.parse("echo.json", doc("/echo"), "echo", base(), bearer);
        try (OpenApiExecutor e = executor(imported.source(), SECRET)) {
            String text = call(e, imported.tools().getFirst()).output().asText();

            assertThat(text)
                    .contains(
                            "\"literal\":\"got *** here\"",
                            "\"base64 unpadded\":\"got *** here\"",
                            "\"base64url\":\"got *** here\"",
                            "\"form-encoded\":\"got *** here\"",
                            "\"percent-encoded lower hex\":\"got *** here\"");
            forms(SECRET).forEach((k, v) -> assertThat(text).as(k).doesNotContain(v));
        }
    }

    @Test
    void a_basic_password_and_its_user_password_pair_echoed_in_any_form_never_reach_the_model() throws Exception {
        OpenApiAuth basic = new OpenApiAuth(OpenApiAuth.Type.BASIC, null, "alice", null, "enc:v1:sealed");
        OpenApiImporter.Imported imported = OpenApiImporter.parse("echo.json", doc("/echo"), "echo", base(), basic);
        try (OpenApiExecutor e = executor(imported.source(), SECRET)) {
            String text = call(e, imported.tools().getFirst()).output().asText();

            forms("alice:" + SECRET).forEach((k, v) -> assertThat(text).as(k).doesNotContain(v));
            forms(SECRET).forEach((k, v) -> assertThat(text).as("password " + k).doesNotContain(v));
            assertThat(text).contains("\"base64\":\"got *** here\"", "\"password base64url unpadded\":\"***\"");
        }
    }
}
