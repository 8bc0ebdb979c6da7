package dev.toolscout.agent.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenApiImporterTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Path petstore() {
        try {
            return Path.of(OpenApiImporterTest.class
                    .getResource("/openapi/petstore.yaml")
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, ToolSpec> byName(OpenApiImporter.Imported imported) {
        return imported.tools().stream().collect(Collectors.toMap(ToolSpec::fullName, Function.identity()));
    }

    @Test
    void each_operation_becomes_a_tool_named_by_its_operation_id_or_its_method_and_path() {
        OpenApiImporter.Imported imported = OpenApiImporter.read(petstore(), "petstore", null, null);

        assertThat(imported.tools())
                .extracting(ToolSpec::fullName)
                .containsExactly(
                        "petstore__listPets",
                        "petstore__createPet",
                        "petstore__showPetById",
                        "petstore__delete_pets_petId",
                        "petstore__echoHeaders",
                        "petstore__bigAnswer",
                        "petstore__moved");
        ToolSpec list = byName(imported).get("petstore__listPets");
        assertThat(list.sourceKind()).isEqualTo(SourceKind.OPENAPI);
        assertThat(list.description()).isEqualTo("List all pets\n\nReturns the pets in the store, oldest first.");
        assertThat(list.tags()).containsExactly("petstore", "pets");
        assertThat(list.originalName()).isEqualTo("listPets");
        assertThat(byName(imported).get("petstore__delete_pets_petId").description())
                .isEqualTo("Delete a pet");
        assertThat(imported.source().operations().get("petstore__showPetById").label())
                .isEqualTo("GET /pets/{petId}");
    }

    @Test
    void the_http_method_sets_side_effect_and_ai_access() {
        Map<String, ToolSpec> tools = byName(OpenApiImporter.read(petstore(), "petstore", null, null));

        assertThat(tools.get("petstore__listPets").sideEffect()).isEqualTo(SideEffect.READ);
        assertThat(tools.get("petstore__listPets").aiAccess()).isEqualTo(AiAccess.EXECUTE);
        assertThat(tools.get("petstore__createPet").sideEffect()).isEqualTo(SideEffect.WRITE);
        assertThat(tools.get("petstore__createPet").aiAccess()).isEqualTo(AiAccess.EXECUTE);
        assertThat(tools.get("petstore__delete_pets_petId").sideEffect()).isEqualTo(SideEffect.DELETE);
        assertThat(tools.get("petstore__delete_pets_petId").aiAccess()).isEqualTo(AiAccess.PROPOSE);
    }

    @Test
    void parameters_are_one_schema_of_path_query_header_params_and_the_json_body_with_refs_resolved() {
        Map<String, ToolSpec> tools = byName(OpenApiImporter.read(petstore(), "petstore", null, null));

        ToolSpec list = tools.get("petstore__listPets");
        assertThat(list.parameterNames()).containsExactly("limit", "tags", "X-Request-Id"); // the cookie is left out
        assertThat(list.parameters().at("/properties/limit/type").asText()).isEqualTo("integer");
        assertThat(list.parameters().at("/properties/limit/description").asText())
                .isEqualTo("How many pets to return at most");
        assertThat(list.requiredParameters()).isEmpty();

        ToolSpec show = tools.get("petstore__showPetById");
        assertThat(show.parameterNames()).containsExactly("petId"); // declared on the path item, by $ref
        assertThat(show.requiredParameters()).containsExactly("petId");
        assertThat(show.parameters().at("/properties/petId/description").asText())
                .isEqualTo("The id of the pet");

        ToolSpec create = tools.get("petstore__createPet");
        assertThat(create.parameterNames()).containsExactly("body");
        assertThat(create.requiredParameters()).containsExactly("body");
        JsonNode body = create.parameters().at("/properties/body");
        assertThat(body.path("description").asText()).isEqualTo("The pet to add");
        assertThat(body.at("/properties/name/type").asText()).isEqualTo("string");
        assertThat(body.at("/properties/name").has("example"))
                .as("documentation-only keywords dropped")
                .isFalse();
        // NewPet -> Owner -> pets: [NewPet] repeats inside itself: cut there, not expanded forever
        assertThat(body.at("/properties/owner/properties/pets/items/description")
                        .asText())
                .contains("recursive");
        assertThat(create.parameters().toString()).doesNotContain("$ref");
    }

    @Test
    void an_operation_that_cannot_be_called_as_described_is_left_out_with_a_warning_naming_it() {
        OpenApiImporter.Imported imported = OpenApiImporter.read(petstore(), "petstore", null, null);

        assertThat(imported.tools()).extracting(ToolSpec::fullName).doesNotContain("petstore__uploadPhoto");
        assertThat(imported.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith(petstore() + ": paths./pets/{petId}/photo.put: left out: ")
                        .contains("[image/png]")
                        .contains("only JSON bodies"));
        assertThat(imported.warnings()).anySatisfy(w -> assertThat(w).contains("cookie parameter 'session'"));
    }

    @Test
    void the_base_url_comes_from_the_documents_servers_with_variable_defaults_unless_given() {
        assertThat(OpenApiImporter.read(petstore(), "petstore", null, null)
                        .source()
                        .baseUrl())
                .hasToString("http://localhost:8080/v1");
        assertThat(OpenApiImporter.read(petstore(), "petstore", "https://pets.example.com/api/", null)
                        .source()
                        .baseUrl())
                .hasToString("https://pets.example.com/api");
    }

    @Test
    void a_relative_server_url_needs_a_base_url_and_the_error_says_so() {
        ObjectNode doc = minimal();
        doc.putArray("servers").addObject().put("url", "/v1");

        assertThatThrownBy(() -> OpenApiImporter.parse("api.json", doc, "api", null, null))
                .isInstanceOf(OpenApiImportException.class)
                .hasMessageStartingWith("api.json: servers[0].url: is relative")
                .hasMessageContaining("--base-url")
                .hasMessageEndingWith("got: '/v1'");
        assertThat(OpenApiImporter.parse("api.json", doc, "api", "http://127.0.0.1:9/v1", null)
                        .tools())
                .hasSize(1);
    }

    @Test
    void a_json_document_imports_like_the_yaml_one() throws IOException {
        JsonNode tree = new YAMLMapper().readTree(petstore().toFile());
        Path json = dir.resolve("petstore.json");
        Files.writeString(json, JSON.writeValueAsString(tree));

        assertThat(OpenApiImporter.read(json, "petstore", null, null).tools())
                .isEqualTo(
                        OpenApiImporter.read(petstore(), "petstore", null, null).tools());
    }

    @Test
    void swagger_2_and_other_versions_are_refused_naming_the_version() {
        ObjectNode swagger = JSON.createObjectNode().put("swagger", "2.0");
        assertThatThrownBy(() -> OpenApiImporter.parse("old.json", swagger, "old", null, null))
                .hasMessageStartingWith("old.json: swagger: Swagger 2.0 documents are not supported")
                .hasMessageEndingWith("got: swagger \"2.0\"");
        ObjectNode four = minimal().put("openapi", "4.0.0");
        assertThatThrownBy(() -> OpenApiImporter.parse("new.json", four, "new", null, null))
                .hasMessage("new.json: openapi: must be a 3.0.x or 3.1.x version, got: \"4.0.0\"");
    }

    @Test
    void source_names_follow_the_tool_name_rule_and_reserved_ones_are_refused() {
        assertThatThrownBy(() -> OpenApiImporter.parse("a.json", minimal(), "Pet Store", null, null))
                .hasMessageContaining("got: 'Pet Store'");
        assertThatThrownBy(() -> OpenApiImporter.parse("a.json", minimal(), "pet__store", null, null))
                .hasMessageContaining("got: 'pet__store'");
        for (String reserved : java.util.List.of("tool_discovery", "skills", "memory", "mcp", "verbs")) {
            assertThatThrownBy(() -> OpenApiImporter.parse("a.json", minimal(), reserved, null, null))
                    .as(reserved)
                    .hasMessageStartingWith(
                            "--source '" + reserved + "' gives source '" + reserved + "', which is reserved");
        }
    }

    @Test
    void a_document_over_the_operation_limit_is_refused_whole_naming_the_count_and_the_limit() {
        ObjectNode doc = minimal();
        ObjectNode paths = doc.putObject("paths");
        for (int i = 0; i <= OpenApiImporter.MAX_OPERATIONS; i++) {
            paths.putObject("/r" + i).putObject("get").put("summary", "r" + i);
        }

        assertThatThrownBy(() -> OpenApiImporter.parse("huge.json", doc, "huge", null, null))
                .isInstanceOf(OpenApiImportException.class)
                .hasMessage("huge.json: paths: holds 2,001 operations, more than the limit of 2,000");
    }

    @Test
    void a_schema_nested_past_the_depth_limit_is_refused_naming_where() {
        ObjectNode doc = minimal();
        ObjectNode schema = doc.withObjectProperty("paths")
                .withObjectProperty("/deep")
                .withObjectProperty("post")
                .withObjectProperty("requestBody")
                .withObjectProperty("content")
                .withObjectProperty("application/json")
                .withObjectProperty("schema");
        ObjectNode s = schema;
        for (int i = 0; i < OpenApiImporter.MAX_SCHEMA_DEPTH + 5; i++) {
            s = s.put("type", "object").withObjectProperty("properties").withObjectProperty("p" + i);
        }

        assertThatThrownBy(() -> OpenApiImporter.parse("deep.json", doc, "deep", null, null))
                .isInstanceOf(OpenApiImportException.class)
                .hasMessageStartingWith(
                        "deep.json: paths./deep.post.requestBody.content.application/json.schema.properties.p0")
                .hasMessageEndingWith("schema nests more than 32 levels deep (the limit)");
    }

    @Test
    void references_that_multiply_a_small_schema_past_the_node_limit_are_refused() {
        ObjectNode doc = minimal();
        ObjectNode schemas = doc.withObjectProperty("components").withObjectProperty("schemas");
        for (int i = 0; i < 15; i++) { // 2^15 copies of S15, each level within the depth limit
            ObjectNode props =
                    schemas.withObjectProperty("S" + i).put("type", "object").withObjectProperty("properties");
            props.putObject("a").put("$ref", "#/components/schemas/S" + (i + 1));
            props.putObject("b").put("$ref", "#/components/schemas/S" + (i + 1));
        }
        schemas.withObjectProperty("S15").put("type", "string");
        doc.withObjectProperty("paths")
                .withObjectProperty("/bomb")
                .withObjectProperty("post")
                .withObjectProperty("requestBody")
                .withObjectProperty("content")
                .withObjectProperty("application/json")
                .withObjectProperty("schema")
                .put("$ref", "#/components/schemas/S0");

        assertThatThrownBy(() -> OpenApiImporter.parse("bomb.json", doc, "bomb", null, null))
                .isInstanceOf(OpenApiImportException.class)
                .hasMessage(
                        "bomb.json: paths./bomb.post: the parameter schemas hold more than 20,000 nodes once references "
                                + "are expanded (the limit)");
    }

    @Test
    void a_reference_to_another_file_leaves_out_its_operation_only() {
        ObjectNode doc = minimal();
        doc.withObjectProperty("paths")
                .withObjectProperty("/ext")
                .withObjectProperty("get")
                .putArray("parameters")
                .addObject()
                .put("$ref", "common.yaml#/components/parameters/Page");

        OpenApiImporter.Imported imported = OpenApiImporter.parse("api.json", doc, "api", null, null);

        assertThat(imported.tools()).extracting(ToolSpec::fullName).containsExactly("api__get_ping");
        assertThat(imported.warnings())
                .containsExactly(
                        "api.json: paths./ext.get: left out: paths./ext.get.parameters[0]: "
                                + "only references within the document (#/...) are supported, got: 'common.yaml#/components/parameters/Page'");
    }

    @Test
    void a_repeated_operation_id_gets_a_suffix_and_a_warning() {
        ObjectNode doc = minimal();
        doc.withObjectProperty("paths")
                .withObjectProperty("/ping2")
                .withObjectProperty("get")
                .put("operationId", "get_ping");

        OpenApiImporter.Imported imported = OpenApiImporter.parse("api.json", doc, "api", null, null);

        assertThat(imported.tools()).extracting(ToolSpec::fullName).containsExactly("api__get_ping", "api__get_ping_2");
        assertThat(imported.warnings()).singleElement().asString().contains("is taken by an earlier operation");
    }

    @Test
    void a_header_parameter_that_carries_the_credential_is_never_an_argument() {
        ObjectNode doc = minimal();
        var params = doc.withObjectProperty("paths")
                .withObjectProperty("/ping")
                .withObjectProperty("get")
                .putArray("parameters");
        params.addObject().put("name", "X-API-Key").put("in", "header").put("required", true);
        params.addObject().put("name", "Accept").put("in", "header");
        params.addObject().put("name", "X-Trace").put("in", "header");
        OpenApiAuth auth = new OpenApiAuth(OpenApiAuth.Type.HEADER, "x-api-key", null, "API_KEY", null);

        ToolSpec ping = OpenApiImporter.parse("api.json", doc, "api", null, auth)
                .tools()
                .get(0);

        assertThat(ping.parameterNames()).containsExactly("X-Trace");
    }

    @Test
    void an_api_key_header_the_request_sets_itself_is_refused_naming_it() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new OpenApiAuth(OpenApiAuth.Type.HEADER, "Host", null, "API_KEY", null))
                .hasMessageEndingWith("got: 'Host'");
    }

    @Test
    void the_stored_form_reads_back_as_the_same_source() {
        OpenApiAuth auth = new OpenApiAuth(OpenApiAuth.Type.BASIC, null, "alice", null, "enc:v1:AAAA");
        OpenApiSource source =
                OpenApiImporter.read(petstore(), "petstore", null, auth).source();

        String json = OpenApiSourceJson.write(source);

        assertThat(OpenApiSourceJson.read(json)).isEqualTo(source);
        assertThat(json).contains("\"secret_sealed\":\"enc:v1:AAAA\"");
    }

    /** One GET /ping operation, servers http://127.0.0.1:9. */
    private static ObjectNode minimal() {
        ObjectNode doc = JSON.createObjectNode().put("openapi", "3.1.0");
        doc.putArray("servers").addObject().put("url", "http://127.0.0.1:9");
        doc.putObject("paths").putObject("/ping").putObject("get").put("summary", "Ping");
        return doc;
    }
}
