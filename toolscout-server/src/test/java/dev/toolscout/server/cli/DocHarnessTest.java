package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executable docs' harness on its own: how samples are compared and how command lines are read. */
class DocHarnessTest {
    @TempDir
    Path dir;

    @Test
    void a_score_matches_within_the_tolerance_and_not_beyond() {
        assertThat(DocOutput.line("  1  calendar__list_events  0.891  x", "  1  calendar__list_events  0.8908  x"))
                .isTrue();
        assertThat(DocOutput.line("  1  calendar__list_events  0.891  x", "  1  calendar__list_events  0.874  x"))
                .isFalse();
    }

    @Test
    void integers_and_one_decimal_figures_are_exact() {
        assertThat(DocOutput.line("Tokens: 948 (87.2% saved)", "Tokens: 949 (87.2% saved)"))
                .isFalse();
        assertThat(DocOutput.line("Tokens: 948 (87.2% saved)", "Tokens: 948 (87.3% saved)"))
                .isFalse();
    }

    @Test
    void an_elision_stands_for_text_in_a_line_and_for_lines_on_its_own() {
        assertThat(DocOutput.line("\"id\" : \"mem_...\",", "\"id\" : \"mem_4b7e3f3619dc7092aaf7\","))
                .isTrue();
        assertThat(DocOutput.compare(List.of("a", "...", "z"), List.of("a", "b", "c", "z")))
                .isNull();
        DocOutput.Mismatch m = DocOutput.compare(List.of("a", "...", "z"), List.of("a", "b", "y"));
        assertThat(m.index()).isEqualTo(2);
        assertThat(m.expected()).isEqualTo("z");
    }

    @Test
    void a_mismatch_names_the_sample_line_and_an_extra_line_is_one() {
        DocOutput.Mismatch m = DocOutput.compare(List.of("a", "b"), List.of("a", "c"));
        assertThat(m).isEqualTo(new DocOutput.Mismatch(1, "b", "c"));
        assertThat(DocOutput.compare(List.of("a"), List.of("a", "more")).actual())
                .isEqualTo("more");
    }

    @Test
    void json_is_compared_without_its_layout() {
        assertThat(DocOutput.compactJson(List.of("{ \"a\" : [ 1, 2 ],", "  \"b\": \"x y\" }")))
                .isEqualTo("{\"a\":[1,2],\"b\":\"x y\"}");
    }

    @Test
    void the_update_mode_keeps_matching_lines_and_leaves_elided_samples_alone() {
        assertThat(DocOutput.updated(List.of("score 0.891", "Tokens: 948"), List.of("score 0.8908", "Tokens: 951")))
                .containsExactly("score 0.891", "Tokens: 951");
        assertThat(DocOutput.updated(List.of("a", "..."), List.of("a", "b"))).isNull();
    }

    @Test
    void the_shell_splits_an_unquoted_variable_and_keeps_an_array_element_whole() throws Exception {
        Path template = Files.createDirectories(dir.resolve("template"));
        try (DocShell sh = new DocShell(dir, Files.createDirectories(dir.resolve("work")), template)) {
            sh.run("KEY=k-0123456789abcdef");
            sh.run("H=(-H \"Authorization: Bearer $KEY\" -H 'Content-Type: application/json')");
            assertThat(sh.words("curl \"${H[@]}\" x"))
                    .containsExactly(
                            "curl",
                            "-H",
                            "Authorization: Bearer k-0123456789abcdef",
                            "-H",
                            "Content-Type: application/json",
                            "x");
            sh.run("S=\"-H Authorization: Bearer\"");
            assertThat(sh.words("curl $S # a comment")).containsExactly("curl", "-H", "Authorization:", "Bearer");
            assertThatThrownBy(() -> sh.words("echo $UNSET"))
                    .isInstanceOf(DocShell.CannotRun.class)
                    .hasMessageContaining("$UNSET is not set");
            assertThatThrownBy(() -> sh.run("ls | wc -l"))
                    .isInstanceOf(DocShell.CannotRun.class)
                    .hasMessageContaining("'|'");
            assertThat(sh.run("echo $?").output()).isEqualTo("0\n");
        }
    }
}
