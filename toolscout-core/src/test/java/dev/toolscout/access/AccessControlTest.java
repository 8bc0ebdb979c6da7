package dev.toolscout.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.access.AccessRule.Effect;
import dev.toolscout.access.AccessRule.Subject;
import dev.toolscout.access.AccessRule.Target;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessControlTest {
    private static final ToolSpec SEND =
            ToolSpec.builder("gmail__send", "Send.").category("communication").build();
    private static final ToolSpec LIST =
            ToolSpec.builder("gmail__list", "List.").category("communication").build();
    private static final Map<String, String> SPACES = Map.of("kitchen", "home", "home", "root");

    private static AccessControl with(Effect def, AccessRule... rules) {
        return new AccessControl(new AccessPolicy(def, SPACES, List.of(rules)));
    }

    @Test
    void blocked_is_denied_whatever_the_rules_say() {
        ToolSpec reset = ToolSpec.builder("settings__reset", "Reset.")
                .aiAccess(AiAccess.BLOCKED)
                .build();
        AccessControl ac =
                with(Effect.ALLOW, new AccessRule(Effect.ALLOW, Target.TOOL, "settings__reset", Subject.USER, "ann"));
        assertThat(ac.allows(new Principal("ann", null, null), reset)).isFalse();
    }

    @Test
    void user_rule_beats_group_rule() {
        AccessControl ac = with(
                Effect.ALLOW,
                new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.GROUP, "kids"),
                new AccessRule(Effect.ALLOW, Target.SOURCE, "gmail", Subject.USER, "ann"));
        assertThat(ac.allows(new Principal("ann", "kids", null), SEND)).isTrue();
        assertThat(ac.allows(new Principal("bob", "kids", null), SEND)).isFalse();
    }

    @Test
    void spaces_inherit_their_parents_rules_and_nearer_spaces_win() {
        AccessControl ac = with(
                Effect.ALLOW,
                new AccessRule(Effect.DENY, Target.CATEGORY, "communication", Subject.SPACE, "root"),
                new AccessRule(Effect.ALLOW, Target.TOOL, "gmail__list", Subject.SPACE, "kitchen"));
        Principal inKitchen = new Principal(null, null, "kitchen");
        assertThat(ac.allows(inKitchen, SEND)).isFalse();
        assertThat(ac.allows(inKitchen, LIST)).isTrue();
        assertThat(ac.allows(new Principal(null, null, "home"), LIST)).isFalse();
        assertThat(ac.allows(new Principal(null, null, "elsewhere"), LIST)).isTrue();
    }

    @Test
    void at_equal_specificity_deny_wins() {
        AccessControl ac = with(
                Effect.ALLOW,
                new AccessRule(Effect.ALLOW, Target.TOOL, "gmail__send", Subject.EVERYONE, null),
                new AccessRule(Effect.DENY, Target.TOOL, "gmail__send", Subject.EVERYONE, null));
        assertThat(ac.allows(Principal.ANONYMOUS, SEND)).isFalse();
    }

    @Test
    void a_tool_rule_beats_a_source_rule_for_the_same_subject() {
        AccessControl ac = with(
                Effect.ALLOW,
                new AccessRule(Effect.DENY, Target.SOURCE, "gmail", Subject.EVERYONE, null),
                new AccessRule(Effect.ALLOW, Target.TOOL, "gmail__list", Subject.EVERYONE, null));
        assertThat(ac.allows(Principal.ANONYMOUS, LIST)).isTrue();
        assertThat(ac.allows(Principal.ANONYMOUS, SEND)).isFalse();
    }

    @Test
    void default_deny_hides_everything_no_rule_allows() {
        AccessControl ac =
                with(Effect.DENY, new AccessRule(Effect.ALLOW, Target.TOOL, "gmail__list", Subject.GROUP, "staff"));
        assertThat(ac.allows(new Principal(null, "staff", null), LIST)).isTrue();
        assertThat(ac.allows(new Principal(null, "staff", null), SEND)).isFalse();
        assertThat(ac.allows(Principal.ANONYMOUS, LIST)).isFalse();
    }

    @Test
    void a_space_cycle_is_rejected_naming_the_space() {
        assertThatThrownBy(() -> new AccessPolicy(Effect.ALLOW, Map.of("a", "b", "b", "a"), List.of()))
                .hasMessageContaining("cycle");
    }

    @Test
    void a_changed_policy_is_used_at_once() {
        dev.toolscout.Fixture f = new dev.toolscout.Fixture();
        f.catalog.sync(List.of(SEND, LIST));
        assertThat(f.access.allowed(f.catalog.snapshot(), Principal.ANONYMOUS).cardinality())
                .isEqualTo(2);
        f.access.setPolicy(new AccessPolicy(
                Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(Effect.DENY, Target.TOOL, "gmail__send", Subject.EVERYONE, null))));
        assertThat(f.access.allowed(f.catalog.snapshot(), Principal.ANONYMOUS).cardinality())
                .isEqualTo(1);
    }

    @Test
    void more_principals_than_the_cache_holds_each_still_get_their_own_set() {
        dev.toolscout.Fixture f = new dev.toolscout.Fixture();
        f.catalog.sync(List.of(SEND, LIST));
        f.access.setPolicy(new AccessPolicy(
                Effect.DENY,
                Map.of(),
                List.of(new AccessRule(Effect.ALLOW, Target.TOOL, "gmail__list", Subject.GROUP, "readers"))));
        // past CACHE_SIZE the cache evicts; every answer, first or cached, is still the principal's own
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < AccessControl.CACHE_SIZE + 300; i++) {
                boolean reader = i % 3 == 0;
                Principal p = new Principal("user" + i, reader ? "readers" : "others", null);
                assertThat(f.access.allowed(f.catalog.snapshot(), p).cardinality())
                        .as("user%d", i)
                        .isEqualTo(reader ? 1 : 0);
            }
        }
    }

    @Test
    void concurrent_readers_never_see_a_set_of_a_replaced_policy_after_the_change() throws Exception {
        dev.toolscout.Fixture f = new dev.toolscout.Fixture();
        f.catalog.sync(List.of(SEND, LIST));
        AccessPolicy denySend = new AccessPolicy(
                Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(Effect.DENY, Target.TOOL, "gmail__send", Subject.EVERYONE, null)));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            List<java.util.concurrent.Future<?>> readers = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int n = t;
                readers.add(pool.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        f.access.allowed(f.catalog.snapshot(), new Principal("u" + n + "-" + (i % 50), null, null));
                    }
                }));
            }
            f.access.setPolicy(denySend);
            // once setPolicy returned, no principal, cached before or not, sees the denied tool
            for (int i = 0; i < 50; i++) {
                for (int t = 0; t < 4; t++) {
                    assertThat(f.access
                                    .allowed(f.catalog.snapshot(), new Principal("u" + t + "-" + i, null, null))
                                    .cardinality())
                            .isEqualTo(1);
                }
            }
            stop.set(true);
            for (var r : readers) {
                r.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
