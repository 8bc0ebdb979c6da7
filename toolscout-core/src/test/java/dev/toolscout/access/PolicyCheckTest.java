package dev.toolscout.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.Fixture;
import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.access.PolicyCheck.Unmatched;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PolicyCheckTest {
    private static Fixture catalog() {
        Fixture f = new Fixture();
        f.catalog.sync(List.of(
                ToolSpec.builder("sql__run_query", "Run a SQL query.")
                        .category("data")
                        .build(),
                ToolSpec.builder("filesystem_mcp__read_file", "Read a file.")
                        .category("files")
                        .build(),
                ToolSpec.builder("gmail__send_email", "Send an email.")
                        .category("communication")
                        .build()));
        return f;
    }

    private static AccessRule deny(Target t, String value) {
        return new AccessRule(Effect.DENY, t, value, Subject.EVERYONE, null);
    }

    @Test
    void misspelt_tool_and_source_are_reported_with_their_index_field_value_and_suggestion() {
        Fixture f = catalog();
        AccessPolicy p = new AccessPolicy(
                Effect.ALLOW,
                Map.of(),
                List.of(
                        deny(Target.SOURCE, "gmail"),
                        deny(Target.SOURCE, "sqll"),
                        deny(Target.TOOL, "sql__run_querry"),
                        deny(Target.SOURCE, "filesystem"),
                        deny(Target.CATEGORY, "nothing_like_it")));

        List<Unmatched> found = PolicyCheck.check(p, PolicyCheck.Known.of(f.catalog.snapshot(), p, null, null, null));

        assertThat(found)
                .containsExactly(
                        new Unmatched(1, "source", "sqll", "sql"),
                        new Unmatched(2, "tool", "sql__run_querry", "sql__run_query"),
                        new Unmatched(3, "source", "filesystem", "filesystem_mcp"),
                        new Unmatched(4, "category", "nothing_like_it", null));
        assertThat(found.get(1).message())
                .isEqualTo("rules[2].tool: 'sql__run_querry' matches no known tool (did you mean 'sql__run_query'?)");
        assertThat(found.get(3).message()).isEqualTo("rules[4].category: 'nothing_like_it' matches no known category");
    }

    @Test
    void subjects_are_checked_only_against_principals_that_are_known() {
        Fixture f = catalog();
        AccessPolicy p = new AccessPolicy(
                Effect.ALLOW,
                Map.of("kitchen", "home"),
                List.of(
                        new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.GROUP, "kidz"),
                        new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.USER, "ann"),
                        new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.SPACE, "kitchn"),
                        new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.SPACE, "home")));

        // no keys known: users and groups are not checked; spaces come from the policy's own tree
        assertThat(PolicyCheck.check(p, PolicyCheck.Known.of(f.catalog.snapshot(), p, null, null, null)))
                .containsExactly(new Unmatched(2, "space", "kitchn", "kitchen"));
        // with the principals of an API keys file, they are
        assertThat(PolicyCheck.check(
                        p,
                        PolicyCheck.Known.of(
                                f.catalog.snapshot(), p, Set.of("ann"), Set.of("kids", "staff"), Set.of())))
                .containsExactly(
                        new Unmatched(0, "group", "kidz", "kids"), new Unmatched(2, "space", "kitchn", "kitchen"));
    }

    @Test
    void a_policy_whose_rules_all_match_reports_nothing() {
        Fixture f = catalog();
        AccessPolicy p = new AccessPolicy(
                Effect.DENY,
                Map.of(),
                List.of(
                        deny(Target.TOOL, "sql__run_query"),
                        deny(Target.CATEGORY, "files"),
                        deny(Target.SOURCE, "gmail")));
        assertThat(PolicyCheck.check(p, PolicyCheck.Known.of(f.catalog.snapshot(), p, null, null, null)))
                .isEmpty();
    }

    @Test
    void closest_prefers_a_containing_name_then_a_near_spelling_and_gives_up_when_far() {
        assertThat(PolicyCheck.closest("filesystem", Set.of("filesystem_mcp", "files")))
                .isEqualTo("filesystem_mcp");
        assertThat(PolicyCheck.closest("gmial", Set.of("gmail", "github"))).isEqualTo("gmail");
        assertThat(PolicyCheck.closest("GMAIL", Set.of("gmail"))).isEqualTo("gmail");
        assertThat(PolicyCheck.closest("weather", Set.of("gmail", "github"))).isNull();
        assertThat(PolicyCheck.distance("kitten", "sitting", 5)).isEqualTo(3);
        assertThat(PolicyCheck.distance("a", "abcdef", 2)).isEqualTo(3);
    }
}
