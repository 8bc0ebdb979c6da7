package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.toolscout.agent.openapi.OpenApiExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ReservedSources;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.StateStore;
import dev.toolscout.store.SqliteStateStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code toolscout index --openapi}: the document's operations as tools, the credential sealed, calls through the store. */
class OpenApiIndexCliTest {
    private static final String TOKEN = "pets-Token-0123456789abcdef";

    @TempDir
    Path dir;

    private HttpServer api;
    private String out;
    private String err;

    private static final String DOC = """
      openapi: 3.1.0
      info: {title: Pets, version: "1"}
      paths:
        /pets/{petId}:
          get:
            operationId: getPet
            summary: Get a pet by its id
            parameters:
              - {name: petId, in: path, required: true, schema: {type: string}}
        /pets:
          get:
            operationId: listPets
            summary: List the pets
      """;

    @BeforeEach
    void start() throws IOException {
        api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext("/api/pets/", this::pet);
        api.start();
    }

    @AfterEach
    void stop() {
        api.stop(0);
    }

    private void pet(HttpExchange ex) throws IOException {
        try (ex) {
            boolean ok = ("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"));
            String id = ex.getRequestURI().getRawPath().substring("/api/pets/".length());
            byte[] body = (ok ? "{\"id\": \"" + id + "\", \"name\": \"Rex\"}" : "{\"message\": \"unauthorized\"}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(ok ? 200 : 401, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        }
    }

    private String baseUrl() {
        return "http://127.0.0.1:" + api.getAddress().getPort() + "/api";
    }

    private int run(Map<String, String> env, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = dir.resolve("data").toString();
        int code = ToolScoutCli.run(
                all,
                new java.io.ByteArrayInputStream(new byte[0]),
                new PrintWriter(o, true),
                new PrintWriter(e, true),
                env);
        out = o.toString();
        err = e.toString();
        return code;
    }

    private ToolResult call(StateStore store, String tool, String argsJson) throws Exception {
        ToolSpec spec = store.loadCatalog().tools().stream()
                .filter(t -> t.fullName().equals(tool))
                .findFirst()
                .orElseThrow();
        SecretBox box = SecretBox.open(dir.resolve("data"), Map.of());
        try (OpenApiExecutor e =
                OpenApiExecutor.fromStore(store, box::unseal, Map.of(), OpenApiExecutor.Settings.DEFAULTS)) {
            return e.execute(
                    new ToolInvocation(spec, (ObjectNode) Json.MAPPER.readTree(argsJson), Principal.ANONYMOUS, "c1"));
        }
    }

    @Test
    void imports_a_document_with_a_sealed_credential_and_an_import_again_replaces_the_sources_tools() throws Exception {
        Path doc = dir.resolve("pets.yaml");
        Files.writeString(doc, DOC);

        int code = run(
                Map.of("PETS_TOKEN", TOKEN),
                "index",
                "--openapi",
                doc.toString(),
                "--source",
                "pets",
                "--base-url",
                baseUrl(),
                "--auth",
                "bearer",
                "--seal-secret-env",
                "PETS_TOKEN");

        assertThat(code).as(err).isZero();
        assertThat(out)
                .startsWith("Imported 2 operations of " + doc + " as pets__* tools: 2 added, 0 updated, "
                        + "0 unchanged, 0 removed")
                .contains("Calls go to " + baseUrl() + " with bearer token (sealed in the store)");
        try (StateStore store = SqliteStateStore.open(dir.resolve("data/state.db"))) {
            assertThat(store.loadOpenApiSource("pets"))
                    .hasValueSatisfying(
                            json -> assertThat(json).doesNotContain(TOKEN).contains("\"secret_sealed\":\"enc:v1:"));
            ToolResult r = call(store, "pets__getPet", "{\"petId\": \"7\"}");
            assertThat(r.isError()).as(String.valueOf(r.error())).isFalse();
            assertThat(r.output().path("id").asText()).isEqualTo("7");
        }
        assertThat(Files.readString(dir.resolve("data/state.db"), StandardCharsets.ISO_8859_1))
                .doesNotContain(TOKEN);

        // the document loses an operation; imported again without --auth, the stored credential stays
        Files.writeString(doc, DOC.substring(0, DOC.indexOf("  /pets:\n")));
        assertThat(run(Map.of(), "index", "--openapi", doc.toString(), "--source", "pets", "--base-url", baseUrl()))
                .as(err)
                .isZero();
        assertThat(out).contains("0 added, 0 updated, 1 unchanged, 1 removed");
        try (StateStore store = SqliteStateStore.open(dir.resolve("data/state.db"))) {
            assertThat(store.loadCatalog().tools())
                    .extracting(ToolSpec::fullName)
                    .contains("pets__getPet")
                    .doesNotContain("pets__listPets");
            assertThat(call(store, "pets__getPet", "{\"petId\": \"8\"}")
                            .output()
                            .path("id")
                            .asText())
                    .isEqualTo("8");
        }

        // removing the source takes its stored configuration, the sealed credential with it
        assertThat(run(Map.of(), "remove", "--source", "pets")).as(err).isZero();
        assertThat(out).startsWith("Removed 1 tool and the stored configuration of the imported API 'pets'.");
        try (StateStore store = SqliteStateStore.open(dir.resolve("data/state.db"))) {
            assertThat(store.loadOpenApiSource("pets")).isEmpty();
        }
    }

    @Test
    void catalog_index_replace_keeps_the_imported_tools() throws Exception {
        Path doc = dir.resolve("pets.yaml");
        Files.writeString(doc, DOC);
        Path catalog = dir.resolve("crm.json");
        Files.writeString(
                catalog, "{\"tools\": [{\"name\": \"crm__find_contact\", \"description\": \"Find a contact\"}]}");
        assertThat(run(Map.of(), "index", "--openapi", doc.toString(), "--source", "pets", "--base-url", baseUrl()))
                .as(err)
                .isZero();

        assertThat(run(Map.of(), "index", "--replace", catalog.toString()))
                .as(err)
                .isZero();

        try (StateStore store = SqliteStateStore.open(dir.resolve("data/state.db"))) {
            assertThat(store.loadCatalog().tools())
                    .extracting(ToolSpec::fullName)
                    .containsExactlyInAnyOrder("crm__find_contact", "pets__getPet", "pets__listPets");
        }
    }

    @Test
    void bad_imports_are_refused_naming_the_rule_and_change_nothing() throws Exception {
        Path doc = dir.resolve("pets.yaml");
        Files.writeString(doc, DOC);
        Path swagger = dir.resolve("old.json");
        Files.writeString(swagger, "{\"swagger\": \"2.0\", \"paths\": {}}");
        Path catalog = dir.resolve("crm.json");
        Files.writeString(
                catalog, "{\"tools\": [{\"name\": \"crm__find_contact\", \"description\": \"Find a contact\"}]}");
        assertThat(run(Map.of(), "index", catalog.toString())).isZero();

        for (List<String> args : List.of(
                List.of("--openapi", doc.toString()),
                List.of("--openapi", doc.toString(), "--source", "pets"), // no servers in the document, no --base-url
                List.of("--openapi", swagger.toString(), "--source", "old", "--base-url", baseUrl()),
                List.of("--openapi", doc.toString(), "--source", "crm", "--base-url", baseUrl()),
                List.of("--openapi", doc.toString(), "--source", "pets", "--base-url", baseUrl(), "--auth", "bearer"),
                List.of(
                        "--openapi",
                        doc.toString(),
                        "--source",
                        "pets",
                        "--base-url",
                        baseUrl(),
                        "--auth",
                        "bearer",
                        "--seal-secret-env",
                        "UNSET_VAR"),
                List.of("--base-url", baseUrl(), catalog.toString()))) {
            String[] all = java.util.stream.Stream.concat(java.util.stream.Stream.of("index"), args.stream())
                    .toArray(String[]::new);
            assertThat(run(Map.of(), all)).as(args + ": " + err).isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(err).as(String.valueOf(args)).startsWith("toolscout index: error: ");
        }
        assertThat(err).isEqualTo("toolscout index: error: --base-url applies to --openapi only\n");
        assertThat(run(Map.of(), "index", "--openapi", doc.toString(), "--source", "pets"))
                .isEqualTo(2);
        assertThat(err).contains(doc + ": servers: the document names no server URL");
        assertThat(run(Map.of(), "index", "--openapi", doc.toString(), "--source", "crm", "--base-url", baseUrl()))
                .isEqualTo(2);
        assertThat(err).contains("source 'crm' already holds 1 tool(s)");

        try (StateStore store = SqliteStateStore.open(dir.resolve("data/state.db"))) {
            assertThat(store.loadCatalog().tools())
                    .extracting(ToolSpec::fullName)
                    .noneMatch(n -> n.startsWith("pets__"));
            assertThat(store.loadOpenApiSource("pets")).isEmpty();
            assertThat(store.loadOpenApiSource("crm")).isEmpty();
        }
    }

    @Test
    void an_import_may_not_take_any_of_the_engines_own_sources() throws Exception {
        // issue 30, item 4: one list (ReservedSources); "memory" was missing from the importer's own copy
        Path doc = dir.resolve("pets.yaml");
        Files.writeString(doc, DOC);
        for (String source : List.of("skills", "memory", "mcp", "tool_discovery", "verbs")) {
            assertThat(run(Map.of(), "index", "--openapi", doc.toString(), "--source", source, "--base-url", baseUrl()))
                    .as(source + ": " + err)
                    .isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(err)
                    .as(source)
                    .isEqualTo("toolscout index: error: --source '" + source + "' gives source '" + source
                            + "', which is reserved for ToolScout's own tools (" + source + "__*: "
                            + ReservedSources.holder(source).orElseThrow()
                            + "; reserved: mcp, tool_discovery, skills, memory, verbs); "
                            + "choose another name, e.g. '" + source + "-api'\n");
        }
        try (StateStore store = SqliteStateStore.open(dir.resolve("data/state.db"))) {
            for (String source : ReservedSources.NAMES) {
                assertThat(store.loadOpenApiSource(source)).as(source).isEmpty();
            }
        }
    }
}
