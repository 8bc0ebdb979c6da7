package dev.toolscout.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ToolSpecTest {
    @Test
    void name_must_have_source_and_action() {
        assertThatThrownBy(() -> ToolName.parse("sendemail"))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("sendemail")
                .hasMessageContaining("<source>__<action>");
    }

    @Test
    void name_with_invalid_characters_names_the_rule_and_value() {
        assertThatThrownBy(() -> ToolName.parse("gmail__send email"))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("'send email'")
                .hasMessageContaining("must match");
    }

    @Test
    void name_longer_than_64_is_rejected() {
        String longName = "s__" + "a".repeat(62);
        assertThatThrownBy(() -> ToolName.parse(longName))
                .hasMessageContaining("at most 64")
                .hasMessageContaining("65");
    }

    @Test
    void first_double_underscore_splits_source_from_action() {
        ToolName n = ToolName.parse("web_research__search__web");
        assertThat(n.source()).isEqualTo("web_research");
        assertThat(n.action()).isEqualTo("search__web");
    }

    @Test
    void blank_description_is_rejected_with_tool_and_field() {
        assertThatThrownBy(() -> ToolSpec.builder("a__b", "  ").build())
                .isInstanceOf(InvalidSpecException.class)
                .hasMessage("tool 'a__b': description is required and must not be blank");
    }

    @Test
    void schema_type_must_be_object() {
        ObjectNode schema = ToolSpecJson.MAPPER.createObjectNode().put("type", "string");
        assertThatThrownBy(
                        () -> ToolSpec.builder("a__b", "d").parameters(schema).build())
                .hasMessageContaining("parameters.type")
                .hasMessageContaining("\"string\"");
    }

    @Test
    void required_must_name_a_property() {
        ObjectNode schema = ToolSpecJson.MAPPER.createObjectNode();
        schema.putObject("properties").putObject("to").put("type", "string");
        schema.putArray("required").add("subject");
        assertThatThrownBy(
                        () -> ToolSpec.builder("a__b", "d").parameters(schema).build())
                .hasMessageContaining("parameters.required")
                .hasMessageContaining("subject");
    }

    @Test
    void defaults_fill_missing_fields() {
        ToolSpec s = ToolSpec.builder("a__b", "Does b.").build();
        assertThat(s.category()).isEqualTo("general");
        assertThat(s.aiAccess()).isEqualTo(AiAccess.EXECUTE);
        assertThat(s.sideEffect()).isEqualTo(SideEffect.READ);
        assertThat(s.parameters().get("type").asText()).isEqualTo("object");
        assertThat(s.parameters().get("properties").isObject()).isTrue();
    }

    @Test
    void parameters_are_copied_so_later_mutation_does_not_leak_in() {
        ObjectNode schema = ToolSpecJson.MAPPER.createObjectNode();
        schema.putObject("properties");
        ToolSpec s = ToolSpec.builder("a__b", "d").parameters(schema).build();
        String before = s.contentHash();
        ((ObjectNode) schema.get("properties")).putObject("x").put("type", "string");
        assertThat(s.contentHash()).isEqualTo(before);
    }

    @Test
    void json_round_trip_keeps_the_content_hash() {
        ObjectNode schema = ToolSpecJson.MAPPER.createObjectNode();
        schema.putObject("properties")
                .putObject("when")
                .put("type", "string")
                .put("description", "Zeit für das Treffen");
        ToolSpec s = ToolSpec.builder("calendar__create_event", "Crée un événement.")
                .category("Planning")
                .tags(List.of("Calendar", "meeting"))
                .parameters(schema)
                .aiAccess(AiAccess.PROPOSE)
                .sideEffect(SideEffect.WRITE)
                .dependsOn(List.of("calendar__list_events"))
                .sourceKind(SourceKind.MCP)
                .originalName("create-event")
                .build();
        ToolSpec back = ToolSpecJson.fromJson(ToolSpecJson.toJson(s), null);
        assertThat(back).isEqualTo(s);
        assertThat(back.contentHash()).isEqualTo(s.contentHash());
        assertThat(back.category()).isEqualTo("planning");
    }

    @Test
    void lower_casing_uses_the_root_locale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            ToolSpec s = ToolSpec.builder("a__b", "d").category("INFO").build();
            assertThat(s.category()).isEqualTo("info");
            assertThat(ToolSpecJson.fromJson("{\"name\":\"a__b\",\"description\":\"d\",\"ai_access\":\"propose\"}")
                            .aiAccess())
                    .isEqualTo(AiAccess.PROPOSE);
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void unknown_enum_value_lists_the_allowed_ones() {
        assertThatThrownBy(() ->
                        ToolSpecJson.fromJson("{\"name\":\"a__b\",\"description\":\"d\",\"side_effect\":\"nuke\"}"))
                .hasMessageContaining("side_effect")
                .hasMessageContaining("[read, write, delete]")
                .hasMessageContaining("'nuke'");
    }

    @Test
    void depends_on_accepts_names_and_objects_with_a_name() {
        ToolSpec s = ToolSpecJson.fromJson(
                "{\"name\":\"a__b\",\"description\":\"d\",\"depends_on\":[\"a__c\",{\"name\":\"a__d\"}]}");
        assertThat(s.dependsOn()).containsExactly("a__c", "a__d");
    }

    @Test
    void a_tool_without_examples_or_output_schema_keeps_the_json_and_hash_it_had_before_they_existed() {
        ToolSpec plain = ToolSpec.builder("gmail__send_email", "Send an email.")
                .tags(List.of("mail"))
                .build();
        // the canonical JSON of this spec before examples and output schemas existed, as stored by earlier versions
        assertThat(ToolSpecJson.canonical(ToolSpecJson.toJson(plain)))
                .isEqualTo("{\"ai_access\":\"execute\","
                        + "\"category\":\"general\",\"depends_on\":[],\"description\":\"Send an email.\",\"name\":"
                        + "\"gmail__send_email\",\"parameters\":{\"properties\":{},\"type\":\"object\"},\"side_effect\":"
                        + "\"read\",\"source_kind\":\"integration\",\"tags\":[\"mail\"]}");
        ObjectNode out = ToolSpecJson.MAPPER.createObjectNode();
        out.putObject("properties").putObject("id").put("type", "string");
        ToolSpec rich = plain.toBuilder()
                .examples(List.of(" Mail Bob ", "", "Mail Bob"))
                .outputSchema(out)
                .build();
        assertThat(rich.examples()).containsExactly("Mail Bob");
        assertThat(rich.outputSchema().get("type").asText()).isEqualTo("object");
        assertThat(rich.contentHash()).isNotEqualTo(plain.contentHash());
        assertThat(ToolSpecJson.fromJson(ToolSpecJson.toJson(rich).toString())).isEqualTo(rich);
    }

    @Test
    void output_schema_follows_the_parameter_rules_under_its_own_name() {
        ObjectNode out = ToolSpecJson.MAPPER.createObjectNode().put("type", "array");
        assertThatThrownBy(() -> ToolSpec.builder("a__b", "d").outputSchema(out).build())
                .hasMessage("tool 'a__b': output_schema.type must be \"object\", got: \"array\"");
        List<String> examples =
                java.util.stream.IntStream.range(0, 17).mapToObj(i -> "e" + i).toList();
        assertThatThrownBy(
                        () -> ToolSpec.builder("a__b", "d").examples(examples).build())
                .hasMessage("tool 'a__b': examples must hold at most 16 examples, got: 17");
    }
}
