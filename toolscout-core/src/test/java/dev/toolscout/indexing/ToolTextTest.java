package dev.toolscout.indexing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import org.junit.jupiter.api.Test;

class ToolTextTest {
    @Test
    void identifiers_split_on_underscores_case_and_digits() {
        assertThat(ToolText.splitIdentifier("gmail__send_email")).isEqualTo("gmail send email");
        assertThat(ToolText.splitIdentifier("getHTTPResponse2")).isEqualTo("get http response 2");
        assertThat(ToolText.splitIdentifier("web-research.searchWeb")).isEqualTo("web research search web");
        assertThat(ToolText.splitIdentifier("Worldwide Recipes / Suggestions"))
                .isEqualTo("worldwide recipes suggestions");
        assertThat(ToolText.splitIdentifier("__x__")).isEqualTo("x");
    }

    @Test
    void parameter_text_has_names_descriptions_and_enum_values() {
        ObjectNode schema = ToolSpecJson.MAPPER.createObjectNode();
        ObjectNode p = schema.putObject("properties").putObject("startTime");
        p.put("type", "string").put("description", "When it starts");
        p.putArray("enum").add("morning").add("evening");
        ToolSpec s = ToolSpec.builder("calendar__create_event", "d")
                .parameters(schema)
                .build();
        assertThat(ToolText.parameterText(s)).isEqualTo("start time When it starts morning evening");
        assertThat(ToolText.embeddingText(s)).isEqualTo("calendar create event: d Parameters: start time.");
    }

    @Test
    void original_name_adds_only_new_words_digits_included() {
        ToolSpec renamed = ToolSpec.builder("crm__update", "d")
                .originalName("updateContactRecord")
                .build();
        assertThat(ToolText.nameWords(renamed)).isEqualTo("crm update contact record");
        ToolSpec same =
                ToolSpec.builder("t__timeport", "d").originalName("timeport").build();
        assertThat(ToolText.nameWords(same)).isEqualTo("t timeport");
        ToolSpec id = ToolSpec.builder("t__live_giveaways", "d")
                .originalName("apigen_tool_17")
                .build();
        assertThat(ToolText.nameWords(id)).isEqualTo("t live giveaways apigen tool 17");
        ToolSpec numeric =
                ToolSpec.builder("t__Weather_Forecast", "d").originalName("7").build();
        assertThat(ToolText.nameWords(numeric)).isEqualTo("t weather forecast 7");
    }

    @Test
    void abbreviations_in_name_words_are_spelled_out_once_after_the_name() {
        ToolSpec div = ToolSpec.builder("math__div", "d").build();
        assertThat(ToolText.nameWords(div)).isEqualTo("math div divide");
        ToolSpec repo = ToolSpec.builder("gh__get_repo_info", "d")
                .originalName("getRepoInfo")
                .build();
        assertThat(ToolText.nameWords(repo)).isEqualTo("gh get repo info repository information");
        ToolSpec both = ToolSpec.builder("db__create_database", "d").build();
        assertThat(ToolText.nameWords(both)).isEqualTo("db create database");
        ToolSpec gcd = ToolSpec.builder("t__gcd", "d").build();
        assertThat(ToolText.nameWords(gcd)).isEqualTo("t gcd greatest common divisor");
        assertThat(ToolText.embeddingText(div)).isEqualTo("math div divide: d");
        ToolSpec plain = ToolSpec.builder("t__temperature_position", "d").build();
        assertThat(ToolText.nameWords(plain)).isEqualTo("t temperature position");
    }
}
