package dev.toolscout.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SkillTest {
    @ParameterizedTest
    @ValueSource(strings = {"database", "a", "pdf-processing", "x1-2-3", "0"})
    void names_of_the_agent_skills_format_are_accepted(String name) {
        assertThat(Skill.of(name, "d", "", List.of()).name()).isEqualTo(name);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Database|must hold only lower-case letters a-z, digits and hyphens, got: 'Database'",
                "data_base|must hold only lower-case letters a-z, digits and hyphens, got: 'data_base'",
                "-data|must not start or end with a hyphen, got: '-data'",
                "data-|must not start or end with a hyphen, got: 'data-'",
                "data--base|must not hold two hyphens in a row, got: 'data--base'",
                "''|must be 1-64 characters, got: 0 ('')"
            })
    void a_bad_name_is_refused_naming_the_field_the_rule_and_the_value(String name, String rule) {
        assertThatThrownBy(() -> Skill.of(name, "d", "", List.of()))
                .isInstanceOf(InvalidSkillException.class)
                .hasMessage("skill '" + name + "': name " + rule)
                .extracting(e -> ((InvalidSkillException) e).field())
                .isEqualTo("name");
    }

    @Test
    void a_name_of_65_characters_is_refused_and_64_accepted() {
        assertThat(Skill.of("a".repeat(64), "d", "", List.of()).name()).hasSize(64);
        assertThatThrownBy(() -> Skill.of("a".repeat(65), "d", "", List.of()))
                .hasMessageContaining("name must be 1-64 characters, got: 65");
    }

    @Test
    void description_must_be_1_to_1024_characters() {
        assertThatThrownBy(() -> Skill.of("db", "  ", "", List.of()))
                .hasMessageStartingWith("skill 'db': description is required: 1-1024 characters");
        assertThatThrownBy(() -> Skill.of("db", "x".repeat(1025), "", List.of()))
                .hasMessage("skill 'db': description must be at most 1024 characters, got: 1025");
        assertThat(Skill.of("db", "x".repeat(1024), "", List.of()).description())
                .hasSize(1024);
    }

    @Test
    void tools_must_be_tool_names_and_are_kept_once_in_order() {
        Skill s = Skill.of(
                "db", "d", "", List.of("database__remove_feature", "geo__distance", "database__remove_feature"));
        assertThat(s.tools()).containsExactly("database__remove_feature", "geo__distance");
        assertThatThrownBy(() -> Skill.of("db", "d", "", List.of("Bash(git:*)")))
                .hasMessageContaining("tools must hold tool names (source__action")
                .hasMessageContaining("got: 'Bash(git:*)'");
        assertThatThrownBy(() -> Skill.of(
                        "db",
                        "d",
                        "",
                        java.util.stream.IntStream.range(0, 65)
                                .mapToObj(i -> "a__b" + i)
                                .toList()))
                .hasMessage("skill 'db': tools must hold at most 64 tools, got: 65");
    }

    @Test
    void documentation_and_resources_are_capped() {
        assertThatThrownBy(() -> Skill.of("db", "d", "x".repeat(Skill.MAX_DOCUMENTATION + 1), List.of()))
                .hasMessage("skill 'db': documentation must be at most 32768 characters, got: 32769");
        assertThatThrownBy(() -> new Skill("db", "d", "", List.of(), Skill.Source.API, List.of("scripts/../../etc")))
                .hasMessageContaining("resources must hold relative paths");
    }

    @Test
    void json_round_trips_and_names_the_input_the_field_and_the_value_when_wrong() throws Exception {
        Skill s = new Skill(
                "database",
                "Edits features.",
                "# Use\nCall database__remove_feature.",
                List.of("database__remove_feature"),
                new Skill.Source(Skill.Source.Kind.FOLDER, "/skills/database"),
                List.of("scripts/clean.sh"));
        assertThat(SkillJson.fromJsonText(SkillJson.toJsonText(s), null)).isEqualTo(s);

        ObjectMapper m = new ObjectMapper();
        assertThatThrownBy(() -> SkillJson.fromJson(
                        m.readTree("{\"name\":\"db\",\"description\":3}"), "PUT body", Skill.Source.API))
                .hasMessage("PUT body: skill 'db': description must be a string, got: 3");
        assertThatThrownBy(() -> SkillJson.fromJson(
                        m.readTree("{\"name\":\"db\",\"description\":\"d\",\"steps\":[]}"),
                        "PUT body",
                        Skill.Source.API))
                .hasMessageStartingWith("PUT body: skill 'db': steps is not a skill field");
        assertThatThrownBy(() -> SkillJson.fromJson(
                        m.readTree("{\"name\":\"DB\",\"description\":\"d\"}"), "PUT body", Skill.Source.API))
                .hasMessage(
                        "PUT body: skill 'DB': name must hold only lower-case letters a-z, digits and hyphens, got: 'DB'");
        // the Agent Skills spelling: one string of names
        Skill spaced = SkillJson.fromJson(
                m.readTree("{\"name\":\"db\",\"description\":\"d\",\"allowed-tools\":\"a__b c__d\"}"),
                null,
                Skill.Source.API);
        assertThat(spaced.tools()).containsExactly("a__b", "c__d");
    }
}
