package dev.toolscout.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.Principal;
import dev.toolscout.state.InMemoryStateStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationsTest {
    private static final Principal ANN = new Principal("ann", "staff", "home");
    private static final Principal BOB = new Principal("bob", "staff", "home");
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        Instant now = T0;

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private final InMemoryStateStore store = new InMemoryStateStore();
    private final TestClock clock = new TestClock();

    private Conversations conversations(ConversationLimits limits) {
        return new Conversations(store, clock, limits);
    }

    @Test
    void a_conversation_is_started_on_first_use_and_read_back_with_its_skills() {
        Conversations c = conversations(ConversationLimits.DEFAULT);

        c.use(ANN, "conv-1");
        c.activate(ANN, "conv-1", "database");

        Conversation got = c.get(ANN, "conv-1").orElseThrow();
        assertThat(got.activeSkills()).containsExactly("database");
        assertThat(got.principal()).isEqualTo(ANN);
        assertThat(got.createdAt()).isEqualTo(T0);
        // a new instance over the same store (a restart) sees the same
        assertThat(conversations(ConversationLimits.DEFAULT).get(ANN, "conv-1")).contains(got);
    }

    @Test
    void another_principal_never_reads_or_resumes_a_conversation_and_gets_one_of_its_own() {
        Conversations c = conversations(ConversationLimits.DEFAULT);
        c.activate(ANN, "shared", "database");

        assertThat(c.get(BOB, "shared")).isEmpty();
        assertThat(c.forget(BOB, "shared")).isFalse();
        Conversation bobs = c.use(BOB, "shared");

        assertThat(bobs.activeSkills()).isEmpty();
        assertThat(c.get(ANN, "shared").orElseThrow().activeSkills()).containsExactly("database");
        // principals that differ in the group or the space alone are other principals too
        assertThat(c.get(new Principal("ann", "staff", "office"), "shared")).isEmpty();
        assertThat(c.get(new Principal("ann", null, "home"), "shared")).isEmpty();
    }

    @Test
    void an_idle_conversation_expires_after_the_idle_time_and_its_id_starts_afresh() {
        Conversations c = conversations(ConversationLimits.DEFAULT.withIdle(Duration.ofHours(24)));
        c.activate(ANN, "conv", "database");

        clock.now = T0.plus(Duration.ofHours(24)).minusSeconds(1);
        assertThat(c.get(ANN, "conv")).isPresent();
        clock.now = T0.plus(Duration.ofHours(24));
        assertThat(c.get(ANN, "conv")).isEmpty();
        assertThat(c.use(ANN, "conv").activeSkills()).isEmpty();
    }

    @Test
    void using_a_conversation_keeps_it_alive_and_writes_the_last_use_at_most_once_a_minute() {
        Conversations c = conversations(ConversationLimits.DEFAULT);
        c.use(ANN, "conv");

        clock.now = T0.plusSeconds(59);
        c.use(ANN, "conv");
        assertThat(c.get(ANN, "conv").orElseThrow().lastUsedAt()).isEqualTo(T0);
        clock.now = T0.plusSeconds(60);
        c.use(ANN, "conv");
        assertThat(c.get(ANN, "conv").orElseThrow().lastUsedAt()).isEqualTo(T0.plusSeconds(60));
        clock.now = T0.plusSeconds(60).plus(Duration.ofHours(23));
        assertThat(c.get(ANN, "conv")).isPresent();
    }

    @Test
    void activating_twice_records_once_and_past_the_cap_is_refused_naming_the_limit() {
        Conversations c = conversations(new ConversationLimits(Duration.ofHours(1), 100, 10, 2, 10));

        assertThat(c.activate(ANN, "conv", "database").added()).isTrue();
        assertThat(c.activate(ANN, "conv", "database").added()).isFalse();
        c.activate(ANN, "conv", "maps");

        assertThatThrownBy(() -> c.activate(ANN, "conv", "mail"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "a conversation may have at most 2 active skills, and this one has 2 (database, maps); start a "
                                + "new conversation to use 'mail'");
        assertThat(c.get(ANN, "conv").orElseThrow().activeSkills()).containsExactly("database", "maps");
    }

    @Test
    void disclosed_tools_keep_the_newest_past_the_cap() {
        Conversations c = conversations(new ConversationLimits(Duration.ofHours(1), 100, 10, 2, 3));

        c.disclose(ANN, "conv", List.of("a__1", "a__2"));
        c.disclose(ANN, "conv", List.of("a__2", "a__3", "a__4"));

        assertThat(c.get(ANN, "conv").orElseThrow().disclosedTools()).containsExactly("a__2", "a__3", "a__4");
    }

    @Test
    void past_the_per_principal_cap_the_least_recently_used_conversation_of_that_principal_is_forgotten() {
        Conversations c = conversations(new ConversationLimits(Duration.ofHours(1), 100, 2, 2, 3));
        c.use(ANN, "first");
        clock.now = T0.plusSeconds(60);
        c.use(ANN, "second");
        c.use(BOB, "bobs");
        clock.now = T0.plusSeconds(120);
        c.use(ANN, "first"); // now "second" is the least recently used

        c.use(ANN, "third");

        assertThat(c.get(ANN, "second")).isEmpty();
        assertThat(c.get(ANN, "first")).isPresent();
        assertThat(c.get(ANN, "third")).isPresent();
        assertThat(c.get(BOB, "bobs")).isPresent();
    }

    @Test
    void past_the_store_cap_a_new_conversation_is_refused_until_old_ones_expire() {
        Conversations c = conversations(new ConversationLimits(Duration.ofHours(1), 2, 10, 2, 3));
        c.use(ANN, "a");
        c.use(BOB, "b");

        assertThatThrownBy(() -> c.use(ANN, "c"))
                .isInstanceOf(ConversationsFullException.class)
                .hasMessageContaining("already keeps 2 conversations, the most it keeps (2)");
        assertThat(c.use(ANN, "a").id()).isEqualTo("a"); // an existing one is still used

        clock.now = T0.plus(Duration.ofHours(1));
        assertThat(c.use(ANN, "c").id()).isEqualTo("c");
        assertThat(store.conversationCount()).isEqualTo(1);
    }

    @Test
    void forget_removes_only_the_callers_conversation() {
        Conversations c = conversations(ConversationLimits.DEFAULT);
        c.activate(ANN, "conv", "database");

        assertThat(c.forget(BOB, "conv")).isFalse();
        assertThat(c.forget(ANN, "conv")).isTrue();
        assertThat(c.forget(ANN, "conv")).isFalse();
        assertThat(c.get(ANN, "conv")).isEmpty();
    }

    @Test
    void a_bad_conversation_id_is_refused_naming_the_rule_and_the_value() {
        Conversations c = conversations(ConversationLimits.DEFAULT);

        assertThatThrownBy(() -> c.use(ANN, "has space"))
                .hasMessage("conversation id must be 1-128 characters of A-Z a-z 0-9 . _ : -, got: 'has space'");
        assertThatThrownBy(() -> c.get(ANN, "x".repeat(129))).hasMessageContaining("(129 characters)");
        assertThatThrownBy(() -> c.get(ANN, null)).hasMessageEndingWith("got: nothing");
        assertThat(store.conversationCount()).isZero();
    }
}
