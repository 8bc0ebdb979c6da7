package dev.toolscout.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.indexing.ToolText;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolSchemasTest {
    private static JsonNode json(String s) {
        try {
            return ToolSpecJson.MAPPER.readTree(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ToolSpec tool(String parameters, List<String> problems) {
        return ToolSpecJson.fromJson(
                json("{\"name\": \"weather__forecast\", \"description\": \"Weather forecast.\", " + "\"parameters\": "
                        + parameters + "}"),
                null,
                problems);
    }

    @Test
    void python_style_types_are_read_as_json_schema_types_and_keep_their_text() {
        List<String> problems = new ArrayList<>();
        ToolSpec t = tool("""
        {"type": "dict", "properties": {
          "city": {"type": "str", "description": "City to forecast"},
          "days": {"type": "int", "description": "How many days ahead"},
          "threshold": {"type": "float"},
          "metric": {"type": "bool"},
          "hours": {"type": "List[int]"},
          "point": {"type": "tuple"},
          "extra": {"type": "any", "description": "Anything else"},
          "when": {"type": "date", "description": "Start day"},
          "units": {"type": "STRING", "enum": ["c", "f"]}},
         "required": ["city"]}""", problems);

        assertThat(problems).isEmpty();
        JsonNode p = t.parameters();
        assertThat(p.get("type").asText()).isEqualTo("object");
        JsonNode props = p.get("properties");
        assertThat(props.get("city").get("type").asText()).isEqualTo("string");
        assertThat(props.get("days").get("type").asText()).isEqualTo("integer");
        assertThat(props.get("threshold").get("type").asText()).isEqualTo("number");
        assertThat(props.get("metric").get("type").asText()).isEqualTo("boolean");
        assertThat(props.get("hours").get("type").asText()).isEqualTo("array");
        assertThat(props.get("hours").get("items").get("type").asText()).isEqualTo("integer");
        assertThat(props.get("point").get("type").asText()).isEqualTo("array");
        assertThat(props.get("extra").has("type")).isFalse();
        assertThat(props.get("when").has("type")).isFalse();
        assertThat(props.get("when").get("description").asText()).isEqualTo("Start day (date)");
        assertThat(props.get("units").get("type").asText()).isEqualTo("string");
        assertThat(t.requiredParameters()).containsExactly("city");
        assertThat(ToolText.parameterText(t))
                .contains("city", "City to forecast", "How many days ahead", "Anything else", "Start day");
    }

    @Test
    void a_schema_without_type_a_parameter_map_and_a_parameter_list_are_read() {
        List<String> problems = new ArrayList<>();
        ToolSpec noType = tool("{\"properties\": {\"q\": {\"type\": \"str\", \"description\": \"Query\"}}}", problems);
        ToolSpec map = tool("{\"q\": {\"type\": \"str\", \"description\": \"Query\", \"required\": true}}", problems);
        ToolSpec list = tool(
                "[{\"name\": \"q\", \"type\": \"str\", \"description\": \"Query\", \"required\": true}]", problems);

        assertThat(problems).isEmpty();
        for (ToolSpec t : List.of(noType, map, list)) {
            assertThat(t.parameters().get("properties").get("q").get("type").asText())
                    .isEqualTo("string");
            assertThat(ToolText.parameterText(t)).isEqualTo("q Query");
        }
        assertThat(map.requiredParameters()).containsExactly("q");
        assertThat(list.requiredParameters()).containsExactly("q");
        assertThat(map.parameters().get("properties").get("q").has("required")).isFalse();
    }

    @Test
    void an_unreadable_schema_keeps_the_tool_and_its_description_and_says_why() {
        List<String> problems = new ArrayList<>();
        ToolSpec t = tool("{\"type\": \"string\"}", problems);
        ToolSpec u = tool("\"city: str\"", problems);

        assertThat(t.description()).isEqualTo("Weather forecast.");
        assertThat(t.parameterNames()).isEmpty();
        assertThat(u.parameterNames()).isEmpty();
        assertThat(problems)
                .containsExactly(
                        "parameters: type must be an object type (object or dict), got: \"string\"",
                        "parameters: must be a JSON Schema object, got: \"city: str\"");
    }

    @Test
    void a_json_schema_reads_back_unchanged() {
        String schema = """
        {"type": "object", "properties": {"a": {"type": "string", "description": "A"},
          "b": {"type": ["integer", "null"]}, "c": {"type": "array", "items": {"type": "object",
          "properties": {"d": {"type": "number"}}, "required": ["d"]}}}, "required": ["b", "a"],
         "additionalProperties": false}""";
        assertThat(ToolSchemas.read(json(schema)).schema()).isEqualTo(json(schema));
    }
}
