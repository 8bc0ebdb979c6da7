package dev.toolscout.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.indexing.ToolDocument;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerbManifestTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The seed's example manifest, with inputs and outputs in its list form. */
    static final String SEARCH = """
      {"verb": "SEARCH_WEB", "description": "Search the web for information",
       "capabilities": ["web_search", "Information_Retrieval"], "category": "data_retrieval",
       "examples": ["Find competitor websites", "Research market trends"],
       "inputDefinitions": [{"name": "query", "type": "string", "description": "what to look for", "required": true},
                            {"name": "max_results", "type": "int"}],
       "outputDefinitions": [{"name": "results", "type": "list", "description": "pages found"}]}
      """;

    static VerbManifest read(String json) {
        try {
            return VerbManifestJson.fromJson(JSON.readTree(json));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void seed_manifest_maps_to_a_verb_tool_searched_by_description_capabilities_and_examples() {
        ToolSpec spec = read(SEARCH).toSpec();

        assertThat(spec.fullName()).isEqualTo("verbs__SEARCH_WEB");
        assertThat(spec.sourceKind()).isEqualTo(SourceKind.VERB);
        assertThat(spec.category()).isEqualTo("data_retrieval");
        assertThat(spec.tags()).containsExactly("web_search", "information_retrieval");
        assertThat(spec.parameterNames()).containsExactly("query", "max_results");
        assertThat(spec.requiredParameters()).containsExactly("query");
        assertThat(spec.parameters().at("/properties/max_results/type").asText())
                .isEqualTo("integer");
        assertThat(spec.outputSchema().at("/properties/results/type").asText()).isEqualTo("array");
        ToolDocument doc = ToolDocument.of(0, spec, new float[] {1});
        assertThat(doc.description()).contains("Search the web", "Find competitor websites", "Research market trends");
        assertThat(doc.labels()).contains("web search", "information retrieval");
        assertThat(ToolText.embeddingText(spec))
                .isEqualTo("verbs search web: Search the web for information Examples: "
                        + "Find competitor websites; Research market trends. Parameters: query, max results.");
    }

    @Test
    void manifest_survives_the_catalog_and_its_json_unchanged() {
        VerbManifest m = read(SEARCH);
        ToolSpec stored = ToolSpecJson.fromJson(ToolSpecJson.toJson(m.toSpec()).toString());

        assertThat(stored).isEqualTo(m.toSpec());
        assertThat(VerbManifest.fromSpec(stored)).isEqualTo(m);
        assertThat(VerbManifestJson.fromJson(VerbManifestJson.toJson(m))).isEqualTo(m);
        JsonNode out = VerbManifestJson.toJson(m);
        assertThat(out.get("inputDefinitions").get("type").asText()).isEqualTo("object");
        assertThat(out.get("capabilities").toString()).isEqualTo("[\"web_search\",\"information_retrieval\"]");
    }

    @Test
    void verb_written_loosely_is_normalized_and_a_bad_one_names_the_rule_and_value() {
        assertThat(VerbManifest.of("search-web", "d", null, null, null, null, null)
                        .verb())
                .isEqualTo("SEARCH_WEB");
        assertThat(VerbManifest.of(" get weather ", "d", null, null, null, null, null)
                        .verb())
                .isEqualTo("GET_WEATHER");

        assertThatThrownBy(() -> VerbManifest.of("search/web", "d", null, null, null, null, null))
                .isInstanceOf(InvalidVerbException.class)
                .hasMessage("verb 'SEARCH/WEB': verb must be upper snake case matching ^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$ "
                        + "(e.g. SEARCH_WEB), got: 'SEARCH/WEB'");
        assertThatThrownBy(() -> VerbManifest.of("2FA", "d", null, null, null, null, null))
                .hasMessageContaining("got: '2FA'");
        String longest = "A".repeat(VerbManifest.MAX_VERB);
        assertThat(VerbManifest.of(longest, "d", null, null, null, null, null).toolName())
                .hasSize(64);
        assertThatThrownBy(() -> VerbManifest.of(longest + "B", "d", null, null, null, null, null))
                .hasMessageContaining("verb must be at most 57 characters")
                .hasMessageContaining("got: 58");
    }

    @Test
    void broken_fields_are_named_by_the_manifest_not_by_the_catalog_tool() {
        assertThatThrownBy(() -> VerbManifest.of("X", " ", null, null, null, null, null))
                .hasMessage("verb 'X': description is required and must not be blank");
        assertThatThrownBy(() -> VerbManifest.of("X", "d", List.of("c".repeat(65)), null, null, null, null))
                .hasMessageStartingWith("verb 'X': capabilities entries must be at most 64 characters");
        assertThatThrownBy(() -> VerbManifest.of("X", "d", null, "data retrieval", null, null, null))
                .hasMessageStartingWith("verb 'X': category must match")
                .hasMessageContaining("'data retrieval'");
        assertThatThrownBy(() -> VerbManifest.of("X", "d", null, null, List.of("e".repeat(513)), null, null))
                .hasMessage("verb 'X': examples entries must be at most 512 characters, got: 513");
        assertThatThrownBy(() -> read("{\"verb\": \"X\", \"description\": \"d\", \"inputDefinitions\": \"query\"}"))
                .hasMessageStartingWith(
                        "verb 'X': inputDefinitions must be a list of {name, type, description, required}"
                                + " or a JSON Schema object: ");
        assertThatThrownBy(() -> read("{\"verb\": \"X\", \"description\": \"d\", \"outputDefinitions\": "
                        + "{\"type\": \"object\", \"properties\": {\"a\": 1}}}"))
                .hasMessage("verb 'X': outputDefinitions.properties.a must be a schema object, got: 1");
    }

    @Test
    void every_list_is_capped() {
        StringBuilder inputs = new StringBuilder("[");
        for (int i = 0; i <= VerbManifest.MAX_DEFINITIONS; i++) {
            inputs.append(i > 0 ? "," : "").append("{\"name\": \"p").append(i).append("\", \"type\": \"string\"}");
        }
        assertThatThrownBy(
                        () -> read("{\"verb\": \"X\", \"description\": \"d\", \"inputDefinitions\": " + inputs + "]}"))
                .hasMessage("verb 'X': inputDefinitions must declare at most 64 properties, got: 65");
        List<String> caps =
                java.util.stream.IntStream.range(0, 33).mapToObj(i -> "c" + i).toList();
        assertThatThrownBy(() -> VerbManifest.of("X", "d", caps, null, null, null, null))
                .hasMessage("verb 'X': capabilities must hold at most 32 tags, got: 33");
        List<String> examples =
                java.util.stream.IntStream.range(0, 17).mapToObj(i -> "e" + i).toList();
        assertThatThrownBy(() -> VerbManifest.of("X", "d", null, null, examples, null, null))
                .hasMessage("verb 'X': examples must hold at most 16 examples, got: 17");
    }

    @Test
    void json_refuses_unknown_keys_and_wrong_types_naming_them() {
        assertThatThrownBy(() -> read("{\"verb\": \"X\", \"description\": \"d\", \"inputDefintions\": []}"))
                .hasMessageStartingWith("verb 'X': inputDefintions is not a manifest field (known: [capabilities, ");
        assertThatThrownBy(() -> read("{\"description\": \"d\"}"))
                .hasMessage("verb '?': verb is required and must be a string, got: nothing");
        assertThatThrownBy(() -> read("{\"verb\": \"X\", \"description\": \"d\", \"capabilities\": \"web\"}"))
                .hasMessage("verb 'X': capabilities must be a list of strings, got: \"web\"");
        assertThatThrownBy(() -> read("{\"verb\": \"X\", \"description\": \"d\", \"inputDefinitions\": [],"
                        + " \"input_definitions\": []}"))
                .hasMessageContaining("inputDefinitions is given twice");
        assertThat(read("{\"verb\": \"X\", \"description\": \"d\", \"input_definitions\": [{\"name\": \"q\"}]}")
                        .toSpec()
                        .parameterNames())
                .containsExactly("q");
    }

    @Test
    void documents_of_manifests_are_read_whole_or_not_at_all_naming_the_position() throws Exception {
        JsonNode two = JSON.readTree("{\"verbs\": [{\"verb\": \"A\", \"description\": \"a\"},"
                + " {\"verb\": \"B\", \"description\": \"b\"}]}");
        assertThat(VerbManifestJson.readAll(two, "f.json"))
                .extracting(VerbManifest::verb)
                .containsExactly("A", "B");
        assertThat(VerbManifestJson.readAll(JSON.readTree("{\"verb\": \"A\", \"description\": \"a\"}"), "f.json"))
                .hasSize(1);

        JsonNode bad =
                JSON.readTree("[{\"verb\": \"A\", \"description\": \"a\"}, {\"verb\": \"B\", \"description\": \"\"}]");
        assertThatThrownBy(() -> VerbManifestJson.readAll(bad, "f.json"))
                .hasMessage("f.json at [1]: verb 'B': description is required and must not be blank");
        JsonNode twice =
                JSON.readTree("[{\"verb\": \"A\", \"description\": \"a\"}, {\"verb\": \"a\", \"description\": \"b\"}]");
        assertThatThrownBy(() -> VerbManifestJson.readAll(twice, "f.json"))
                .hasMessage("f.json at [1]: verb 'A' is given twice");
        assertThatThrownBy(() -> VerbManifestJson.readAll(JSON.readTree("[]"), "body"))
                .hasMessage("body: holds no verb" + " manifest");
        assertThatThrownBy(() -> VerbManifestJson.readAll(JSON.readTree("42"), "body"))
                .hasMessageStartingWith(
                        "body: expected a verb manifest, an array of them or {\"verbs\": [...]}, got: 42");
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i <= VerbManifestJson.MAX_MANIFESTS; i++) {
            many.append(i > 0 ? "," : "").append("{\"verb\": \"V").append(i).append("\", \"description\": \"d\"}");
        }
        assertThatThrownBy(() -> VerbManifestJson.readAll(JSON.readTree(many + "]"), "body"))
                .hasMessage("body: must hold at most 500 verb manifests, got: 501");
    }

    @Test
    void a_hostile_verb_is_cut_in_messages() {
        String huge = "x".repeat(10_000);
        assertThatThrownBy(() -> VerbManifest.of(huge, "d", null, null, null, null, null))
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(400));
    }

    @Test
    void only_verb_tools_read_back_as_manifests() {
        ToolSpec tool = ToolSpec.builder("verbs__X", "d").build();
        assertThat(VerbManifest.isVerb(tool)).isFalse();
        assertThatThrownBy(() -> VerbManifest.fromSpec(tool))
                .hasMessage("tool 'verbs__X' is not a verb (kind integration, source verbs)");
    }
}
