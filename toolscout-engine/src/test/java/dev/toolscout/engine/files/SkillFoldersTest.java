package dev.toolscout.engine.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.skills.InvalidSkillException;
import dev.toolscout.skills.Skill;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SkillFoldersTest {
    @TempDir
    Path dir;

    private Path skill(String folder, String skillMd) throws IOException {
        Path f = dir.resolve(folder);
        Files.createDirectories(f);
        Files.writeString(f.resolve("SKILL.md"), skillMd);
        return f;
    }

    @Test
    void a_folder_in_the_agent_skills_format_is_loaded_with_its_tools_body_and_resources() throws IOException {
        Path f = skill("database", """
        ---
        name: database
        description: Tools for managing geographic features stored in the conversation database.
        allowed-tools: database__remove_feature geo__distance
        license: Apache-2.0
        metadata:
          author: maps-team
        ---
        # Database

        Remove a feature with database__remove_feature, giving its id.
        """);
        Files.createDirectories(f.resolve("scripts"));
        Files.writeString(f.resolve("scripts/cleanup.py"), "print('x')");
        Files.createDirectories(f.resolve("references/deep"));
        Files.writeString(f.resolve("references/deep/schema.md"), "# schema");
        Files.writeString(f.resolve("notes.txt"), "not a resource folder");

        Skill s = SkillFolders.load(f);

        assertThat(s.name()).isEqualTo("database");
        assertThat(s.description()).startsWith("Tools for managing geographic features");
        assertThat(s.tools()).containsExactly("database__remove_feature", "geo__distance");
        assertThat(s.documentation())
                .isEqualTo("# Database\n\nRemove a feature with database__remove_feature, giving its id.");
        assertThat(s.resources()).containsExactly("references/deep/schema.md", "scripts/cleanup.py");
        assertThat(s.source().kind()).isEqualTo(Skill.Source.Kind.FOLDER);
        assertThat(s.source().location())
                .isEqualTo(f.toAbsolutePath().normalize().toString());
    }

    @Test
    void allowed_tools_may_be_a_yaml_list_and_a_directory_of_skill_folders_loads_each() throws IOException {
        skill(
                "maps",
                "---\nname: maps\ndescription: Draw maps.\nallowed-tools:\n  - geo__distance\n  - geo__area\n---\n");
        skill("etiquette", "---\nname: etiquette\ndescription: Be polite.\n---\nSay please.\n");
        Files.createDirectories(dir.resolve("not-a-skill"));

        List<Skill> all = SkillFolders.loadAll(dir);

        assertThat(all).extracting(Skill::name).containsExactly("etiquette", "maps");
        assertThat(all.get(1).tools()).containsExactly("geo__distance", "geo__area");
        assertThat(all.get(0).tools()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // folder | front matter | field | message (after "skill '<name>': <field> ")
                "database|name: data-base\\ndescription: d|name|must equal the folder name 'database', got: 'data-base'",
                "Database|name: Database\\ndescription: d|name|must hold only lower-case letters a-z, digits and hyphens, got: 'Database'",
                "db--x|name: db--x\\ndescription: d|name|must not hold two hyphens in a row, got: 'db--x'",
                "db|description: d|name|is required in the front matter",
                "db|name: db|description|is required: 1-1024 characters",
                "db|name: db\\ndescription: [a, b]|description|must be a string, got: a list",
                "db|name: db\\ndescription: d\\nallowed-tools: 7|allowed-tools|must be tool names separated by spaces, or a list of them, got: a number",
                "db|name: db\\ndescription: d\\nallowed-tools: Bash(git:*)|allowed-tools|must hold tool names (source__action",
                "db|name: db\\ndescription: d\\ncompatibility: 3|compatibility|must be a string, got: a number",
                "db|just text|front matter|must be a YAML mapping with name and description"
            })
    void a_malformed_skill_is_refused_naming_its_file_the_field_and_the_rule(
            String folder, String frontMatter, String field, String rule) throws IOException {
        Path f = skill(folder, "---\n" + frontMatter.replace("\\n", "\n") + "\n---\nbody\n");

        assertThatThrownBy(() -> SkillFolders.load(f))
                .isInstanceOf(InvalidSkillException.class)
                .hasMessageStartingWith(f.resolve("SKILL.md") + ": skill '")
                .hasMessageContaining("': " + field + " " + rule)
                .satisfies(e -> assertThat(((InvalidSkillException) e).field()).isEqualTo(field))
                .satisfies(e -> assertThat(((InvalidSkillException) e).file())
                        .isEqualTo(f.resolve("SKILL.md").toString()));
    }

    @Test
    void a_description_over_1024_characters_and_a_file_without_front_matter_are_refused() throws IOException {
        Path longer = skill("db", "---\nname: db\ndescription: " + "x".repeat(1025) + "\n---\n");
        Path bare = skill("plain", "# Just markdown\n");
        Path open = skill("open", "---\nname: open\ndescription: d\n");

        assertThatThrownBy(() -> SkillFolders.load(longer))
                .hasMessage(longer.resolve("SKILL.md")
                        + ": skill 'db': description must be at most 1024 characters, got: 1025");
        assertThatThrownBy(() -> SkillFolders.load(bare))
                .hasMessageStartingWith(bare.resolve("SKILL.md") + ": skill 'plain': front matter is required");
        assertThatThrownBy(() -> SkillFolders.load(open))
                .hasMessage(open.resolve("SKILL.md")
                        + ": skill 'open': front matter is not closed: no line '---' after the " + "opening one");
    }

    @Test
    void a_directory_without_skills_is_refused_naming_it() throws IOException {
        Files.createDirectories(dir.resolve("empty"));

        assertThatThrownBy(() -> SkillFolders.loadAll(dir.resolve("empty")))
                .hasMessage(dir.resolve("empty") + ": holds no SKILL.md, nor do its subfolders");
        assertThatThrownBy(() -> SkillFolders.loadAll(dir.resolve("missing")))
                .hasMessageStartingWith(dir.resolve("missing") + ": not a directory");
    }
}
