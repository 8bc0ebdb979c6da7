package dev.toolscout.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a stdio upstream inherits: what it needs to start and the locale, never ToolScout's secrets. */
class ChildEnvironmentTest {
    static final Map<String, String> PARENT = Map.ofEntries(
            Map.entry("PATH", "/usr/bin:/bin"),
            Map.entry("HOME", "/home/u"),
            Map.entry("LANG", "de_DE.UTF-8"),
            Map.entry("LC_ALL", "de_DE.UTF-8"),
            Map.entry("TMPDIR", "/tmp/u"),
            Map.entry("TOOLSCOUT_SECRET_KEY", "c2VjcmV0LWtleS1zZWNyZXQta2V5LXNlY3JldC1rZXkh"),
            Map.entry("TOOLSCOUT_DATA_DIR", "/data"),
            Map.entry("OPENAI_API_KEY", "sk-parent-only"),
            Map.entry("AWS_SECRET_ACCESS_KEY", "aws-parent-only"),
            Map.entry("GITHUB_TOKEN", "ghp_parentonly"),
            Map.entry("HTTPS_PROXY", "http://user:pw@proxy:3128"),
            Map.entry("BASH_FUNC_x%%", "() { echo hi; }"),
            Map.entry("Path", "C:\\Windows"),
            Map.entry("SystemRoot", "C:\\Windows"));

    @Test
    void a_child_gets_path_home_locale_and_temp_dir_and_nothing_else_of_ours() {
        Map<String, String> env = ProcessTransport.childEnvironment(PARENT, Map.of());

        assertThat(env).containsOnlyKeys("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "Path", "SystemRoot");
    }

    @Test
    void what_the_config_names_is_added_exactly_and_wins_over_the_parents_value() {
        Map<String, String> env = ProcessTransport.childEnvironment(
                PARENT, Map.of("GITHUB_TOKEN", "ghp_given_by_config", "HOME", "/srv/server-home"));

        assertThat(env)
                .containsEntry("GITHUB_TOKEN", "ghp_given_by_config")
                .containsEntry("HOME", "/srv/server-home")
                .doesNotContainKeys("TOOLSCOUT_SECRET_KEY", "OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "HTTPS_PROXY");
    }

    @Test
    void toolscout_variables_are_never_inherited_even_under_an_allowed_looking_name() {
        Map<String, String> env = ProcessTransport.childEnvironment(
                Map.of("TOOLSCOUT_HOME", "/x", "toolscout_secret_key", "k", "LC_TOOLSCOUT", "fine"), Map.of());

        assertThat(env).containsOnlyKeys("LC_TOOLSCOUT");
    }
}
