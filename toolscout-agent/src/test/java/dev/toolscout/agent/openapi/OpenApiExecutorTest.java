package dev.toolscout.agent.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The executor against a real HTTP service started by the test (the petstore shape, {@link PetstoreServer}). */
class OpenApiExecutorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiAuth BEARER =
            new OpenApiAuth(OpenApiAuth.Type.BEARER, null, null, "PETSTORE_TOKEN", null);

    private PetstoreServer petstore;
    private Map<String, ToolSpec> tools;
    private OpenApiSource source;

    @BeforeEach
    void start() throws IOException {
        petstore = new PetstoreServer();
        OpenApiImporter.Imported imported =
                OpenApiImporter.read(OpenApiImporterTest.petstore(), "petstore", petstore.baseUrl(), BEARER);
        tools = imported.tools().stream().collect(Collectors.toMap(ToolSpec::fullName, Function.identity()));
        source = imported.source();
    }

    @AfterEach
    void stop() {
        petstore.close();
    }

    private OpenApiExecutor executor(OpenApiSource s, Map<String, String> env, OpenApiExecutor.Settings settings) {
        return new OpenApiExecutor(
                name -> name.equals(s.name()) ? Optional.of(s) : Optional.empty(),
                sealedValue -> {
                    throw new IllegalStateException("nothing is sealed here");
                },
                env,
                settings);
    }

    private OpenApiExecutor executor() {
        return executor(source, Map.of("PETSTORE_TOKEN", PetstoreServer.TOKEN), OpenApiExecutor.Settings.DEFAULTS);
    }

    private ToolResult call(OpenApiExecutor e, String tool, String argsJson) throws Exception {
        return e.execute(
                new ToolInvocation(tools.get(tool), (ObjectNode) JSON.readTree(argsJson), Principal.ANONYMOUS, "c1"));
    }

    @Test
    void lists_pets_with_the_limit_sent_in_the_query() throws Exception {
        try (OpenApiExecutor e = executor()) {
            ToolResult r = call(e, "petstore__listPets", "{\"limit\": 2}");

            assertThat(r.isError()).as(String.valueOf(r.error())).isFalse();
            assertThat(r.output().findValuesAsText("name")).containsExactly("Rex", "Tom");
            assertThat(petstore.seen.getLast().rawQuery()).isEqualTo("limit=2");
            assertThat(petstore.seen.getLast().rawPath()).isEqualTo("/v1/pets");
        }
    }

    @Test
    void gets_a_pet_by_the_id_substituted_in_the_path() throws Exception {
        try (OpenApiExecutor e = executor()) {
            ToolResult r = call(e, "petstore__showPetById", "{\"petId\": \"2\"}");

            assertThat(r.output().path("name").asText()).isEqualTo("Tom");
            assertThat(petstore.seen.getLast().rawPath()).isEqualTo("/v1/pets/2");
        }
    }

    @Test
    void creates_a_pet_from_a_json_body_with_the_bearer_token_the_service_checks() throws Exception {
        try (OpenApiExecutor e = executor()) {
            ToolResult r = call(e, "petstore__createPet", "{\"body\": {\"name\": \"Nemo\", \"tag\": \"fish\"}}");

            assertThat(r.isError()).as(String.valueOf(r.error())).isFalse();
            assertThat(r.output().path("id").asLong()).isEqualTo(4);
            assertThat(r.output().path("tag").asText()).isEqualTo("fish");
            PetstoreServer.Seen sent = petstore.seen.getLast();
            assertThat(sent.method()).isEqualTo("POST");
            assertThat(sent.header("Authorization")).isEqualTo("Bearer " + PetstoreServer.TOKEN);
            assertThat(sent.header("Content-Type")).isEqualTo("application/json");
            assertThat(JSON.readTree(sent.body())).isEqualTo(JSON.readTree("{\"name\": \"Nemo\", \"tag\": \"fish\"}"));
            assertThat(call(e, "petstore__showPetById", "{\"petId\": 4}")
                            .output()
                            .path("name")
                            .asText())
                    .isEqualTo("Nemo");
        }
    }

    @Test
    void a_wrong_token_is_the_services_401_as_a_tool_error_with_status_and_body() throws Exception {
        try (OpenApiExecutor e =
                executor(source, Map.of("PETSTORE_TOKEN", "wrong-token"), OpenApiExecutor.Settings.DEFAULTS)) {
            ToolResult r = call(e, "petstore__createPet", "{\"body\": {\"name\": \"Nemo\"}}");

            assertThat(r.error())
                    .isEqualTo("HTTP 401 from POST /pets: {\"message\":\"missing or wrong bearer token\"}");
        }
    }

    @Test
    void a_missing_pet_is_a_404_tool_error_with_an_excerpt_capped_to_the_limit() throws Exception {
        OpenApiExecutor.Settings small =
                new OpenApiExecutor.Settings(Duration.ofSeconds(5), Duration.ofSeconds(30), 1 << 20, 1 << 20, 12);
        try (OpenApiExecutor e = executor(source, Map.of("PETSTORE_TOKEN", PetstoreServer.TOKEN), small)) {
            ToolResult r = call(e, "petstore__showPetById", "{\"petId\": \"99\"}");

            assertThat(r.error()).isEqualTo("HTTP 404 from GET /pets/99: {\"message\":\"...");
        }
    }

    @Test
    void a_path_argument_is_one_encoded_segment_and_never_leaves_the_base_path() throws Exception {
        try (OpenApiExecutor e = executor()) {
            for (String id : new String[] {"../echo", "a/../../admin", "http://evil.example/x", "%2e%2e", "?x=1#y"}) {
                ToolResult r = call(
                        e,
                        "petstore__showPetById",
                        JSON.createObjectNode().put("petId", id).toString());
                assertThat(r.error()).as(id).startsWith("HTTP 404 from GET /pets/");
            }
            assertThat(petstore.seen)
                    .extracting(PetstoreServer.Seen::rawPath)
                    .containsExactly(
                            "/v1/pets/..%2Fecho",
                            "/v1/pets/a%2F..%2F..%2Fadmin",
                            "/v1/pets/http%3A%2F%2Fevil.example%2Fx",
                            "/v1/pets/%252e%252e",
                            "/v1/pets/%3Fx%3D1%23y");
            assertThat(petstore.seen).extracting(PetstoreServer.Seen::rawQuery).containsOnlyNulls();

            for (String id : new String[] {"..", ".", ""}) {
                ToolResult r = call(
                        e,
                        "petstore__showPetById",
                        JSON.createObjectNode().put("petId", id).toString());
                assertThat(r.error())
                        .as(id)
                        .isEqualTo("petstore__showPetById: path argument 'petId' must not be empty, "
                                + "'.' or '..', got: '" + id + "'");
            }
            assertThat(petstore.seen).hasSize(5); // the refused ones sent nothing
        }
    }

    @Test
    void arguments_the_model_can_fix_are_tool_errors_and_send_nothing() throws Exception {
        try (OpenApiExecutor e = executor()) {
            assertThat(call(e, "petstore__showPetById", "{}").error())
                    .isEqualTo("petstore__showPetById: argument 'petId' is required");
            assertThat(call(e, "petstore__showPetById", "{\"petId\": 1, \"host\": \"evil.example\"}")
                            .error())
                    .isEqualTo("petstore__showPetById: unknown argument 'host' (the arguments are: [petId])");
            assertThat(call(e, "petstore__listPets", "{\"X-Request-Id\": \"a\\r\\nX-Evil: 1\"}")
                            .error())
                    .isEqualTo("petstore__listPets: header argument 'X-Request-Id' must not hold control characters");
            assertThat(petstore.seen).isEmpty();
        }
    }

    @Test
    void query_lists_repeat_the_name_and_header_arguments_are_sent() throws Exception {
        try (OpenApiExecutor e = executor()) {
            call(e, "petstore__listPets", "{\"tags\": [\"dog\", \"cat & mouse\"], \"X-Request-Id\": \"r-1\"}");

            PetstoreServer.Seen sent = petstore.seen.getLast();
            assertThat(sent.rawQuery()).isEqualTo("tags=dog&tags=cat%20%26%20mouse");
            assertThat(sent.header("X-Request-Id")).isEqualTo("r-1");
        }
    }

    @Test
    void a_credential_from_an_unset_environment_variable_is_a_tool_error_naming_the_variable() throws Exception {
        try (OpenApiExecutor e = executor(source, Map.of(), OpenApiExecutor.Settings.DEFAULTS)) {
            assertThat(call(e, "petstore__listPets", "{}").error())
                    .isEqualTo(
                            "the API 'petstore' is called with a "
                                    + "credential from the environment variable PETSTORE_TOKEN, which is not set where ToolScout runs");
            assertThat(petstore.seen).isEmpty();
        }
    }

    @Test
    void an_api_that_echoes_the_credential_never_hands_it_to_the_model() throws Exception {
        try (OpenApiExecutor e = executor()) {
            ToolResult r = call(e, "petstore__echoHeaders", "{}");

            assertThat(petstore.seen.getLast().header("Authorization")).isEqualTo("Bearer " + PetstoreServer.TOKEN);
            assertThat(r.output().toString())
                    .doesNotContain(PetstoreServer.TOKEN)
                    .contains("Bearer ***");
        }
    }

    @Test
    void api_key_header_and_basic_credentials_go_in_their_headers() throws Exception {
        OpenApiAuth key = new OpenApiAuth(OpenApiAuth.Type.HEADER, "X-API-Key", null, "KEY", null);
        OpenApiAuth basic = new OpenApiAuth(OpenApiAuth.Type.BASIC, null, "alice", null, "enc:v1:sealed");
        try (OpenApiExecutor e =
                        executor(source.withAuth(key), Map.of("KEY", "k-123456"), OpenApiExecutor.Settings.DEFAULTS);
                OpenApiExecutor b = new OpenApiExecutor(
                        n -> Optional.of(source.withAuth(basic)),
                        sealedValue -> sealedValue.equals("enc:v1:sealed") ? "pw-123456" : null,
                        Map.of(),
                        OpenApiExecutor.Settings.DEFAULTS)) {
            call(e, "petstore__listPets", "{}");
            assertThat(petstore.seen.getLast().header("X-API-Key")).isEqualTo("k-123456");
            assertThat(petstore.seen.getLast().header("Authorization")).isNull();

            call(b, "petstore__listPets", "{}");
            assertThat(petstore.seen.getLast().header("Authorization")).isEqualTo("Basic YWxpY2U6cHctMTIzNDU2");
        }
    }

    @Test
    void an_answer_over_the_size_limit_is_an_error_not_a_truncated_output() throws Exception {
        try (OpenApiExecutor e = executor()) {
            assertThat(call(e, "petstore__bigAnswer", "{}").error())
                    .isEqualTo("the answer of GET /big is larger than the limit of 1,048,576 bytes");
        }
    }

    @Test
    void a_redirect_is_not_followed() throws Exception {
        try (OpenApiExecutor e = executor()) {
            assertThat(call(e, "petstore__moved", "{}").error()).isEqualTo("HTTP 302 from GET /moved");
            assertThat(petstore.seen).hasSize(1);
        }
    }

    @Test
    void a_service_that_is_down_is_a_tool_error_naming_the_host() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        OpenApiSource down = new OpenApiSource(
                "petstore",
                "petstore.yaml",
                java.net.URI.create("http://127.0.0.1:" + port + "/v1"),
                null,
                source.operations());
        try (OpenApiExecutor e = executor(down, Map.of(), OpenApiExecutor.Settings.DEFAULTS)) {
            assertThat(call(e, "petstore__listPets", "{}").error())
                    .isEqualTo("could not connect to 127.0.0.1:" + port
                            + " for GET /pets (connection refused or unreachable)");
        }
    }

    @Test
    void a_tool_with_no_imported_operation_is_not_executable_here() throws Exception {
        try (OpenApiExecutor e =
                new OpenApiExecutor(n -> Optional.empty(), s -> s, Map.of(), OpenApiExecutor.Settings.DEFAULTS)) {
            assertThat(call(e, "petstore__listPets", "{}").error())
                    .startsWith("tool 'petstore__listPets' is not " + "executable here");
        }
    }
}
