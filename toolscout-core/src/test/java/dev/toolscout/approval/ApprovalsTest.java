package dev.toolscout.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.approval.Approvals.Approver;
import dev.toolscout.approval.Approvals.Outcome;
import dev.toolscout.model.Role;
import dev.toolscout.secret.SecretRules;
import dev.toolscout.state.InMemoryStateStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The approval queue's rules, over the in-memory store and a clock the test moves. */
class ApprovalsTest {
    private static final String TOOL = "kg__delete_entities";
    private static final Map<String, Object> ARGS = Map.of("entityNames", java.util.List.of("Temp"));
    private static final Approver OPERATOR = Approver.operator("ops");
    private static final Approvals.Channel G = Approvals.Channel.GATEWAY;

    private Instant now = Instant.parse("2026-03-01T10:00:00Z");
    private final InMemoryStateStore store = new InMemoryStateStore();
    private final Approvals approvals = new Approvals(
            store,
            new Clock() {
                @Override
                public ZoneOffset getZone() {
                    return ZoneOffset.UTC;
                }

                @Override
                public Clock withZone(java.time.ZoneId zone) {
                    return this;
                }

                @Override
                public Instant instant() {
                    return now;
                }
            },
            Duration.ofHours(1));

    private StoredApproval held(Outcome o) {
        assertThat(o).isInstanceOf(Outcome.Held.class);
        return o.request();
    }

    @Test
    void a_call_is_held_as_one_pending_request_however_often_it_is_repeated() {
        StoredApproval first = held(approvals.request(G, null, "key:alice", TOOL, ARGS));
        Outcome again = approvals.request(G, null, "key:alice", TOOL, ARGS);

        assertThat(first.status()).isEqualTo(ApprovalStatus.PENDING);
        assertThat(first.id()).matches("ap-[0-9a-f]{10}");
        assertThat(((Outcome.Held) again).filed()).isFalse();
        assertThat(again.request().id()).isEqualTo(first.id());
        assertThat(store.loadApprovals()).hasSize(1);
    }

    @Test
    void once_approved_the_identical_call_runs_once_and_the_next_is_held_again() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));
        approvals.decide(r.id(), true, OPERATOR);

        Outcome run = approvals.request(G, null, "key:alice", TOOL, ARGS);
        Outcome after = approvals.request(G, null, "key:alice", TOOL, ARGS);

        assertThat(run).isInstanceOf(Outcome.Run.class);
        assertThat(run.request().id()).isEqualTo(r.id());
        assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.USED);
        assertThat(((Outcome.Held) after).filed()).isTrue();
        assertThat(after.request().id()).isNotEqualTo(r.id());
    }

    @Test
    void an_approval_covers_only_that_requester_tool_and_arguments() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));
        approvals.decide(r.id(), true, OPERATOR);

        assertThat(approvals.request(G, null, "key:bob", TOOL, ARGS)).isInstanceOf(Outcome.Held.class);
        assertThat(approvals.request(G, null, "key:alice", "kg__delete_relations", ARGS))
                .isInstanceOf(Outcome.Held.class);
        assertThat(approvals.request(G, null, "key:alice", TOOL, Map.of("entityNames", java.util.List.of("Other"))))
                .isInstanceOf(Outcome.Held.class);
        assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.APPROVED);
    }

    @Test
    void the_requester_cannot_approve_its_own_request_even_as_an_admin() {
        StoredApproval r = held(approvals.request(G, null, "key:root", TOOL, ARGS));

        assertThatThrownBy(() -> approvals.decide(r.id(), true, new Approver("key:root", Role.ADMIN)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(r.id())
                .hasMessageContaining("was made by 'key:root', who cannot approve it");
        assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.PENDING);
        assertThat(approvals.request(G, null, "key:root", TOOL, ARGS)).isInstanceOf(Outcome.Held.class);
    }

    @Test
    void only_an_admin_decides_and_a_user_or_reader_cannot() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));

        for (Role role : new Role[] {Role.USER, Role.READER}) {
            // to them another's request is as good as missing
            assertThatThrownBy(() -> approvals.decide(r.id(), true, new Approver("key:bob", role)))
                    .isInstanceOf(Approvals.UnknownRequest.class)
                    .hasMessageContaining("no approval request has the id '" + r.id() + "'");
        }
        assertThat(approvals
                        .decide(r.id(), true, new Approver("key:carol", Role.ADMIN))
                        .decidedBy())
                .isEqualTo("key:carol");
    }

    @Test
    void a_requester_may_withdraw_its_own_request_by_denying_it() {
        StoredApproval r = held(approvals.request(G, null, "key:root", TOOL, ARGS));

        StoredApproval denied = approvals.decide(r.id(), false, new Approver("key:root", Role.ADMIN));

        assertThat(denied.status()).isEqualTo(ApprovalStatus.DENIED);
    }

    @Test
    void a_denied_call_stays_denied_until_the_denial_expires() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));
        approvals.decide(r.id(), false, OPERATOR);

        Outcome denied = approvals.request(G, null, "key:alice", TOOL, ARGS);
        now = now.plus(Duration.ofHours(2));
        Outcome later = approvals.request(G, null, "key:alice", TOOL, ARGS);

        assertThat(denied).isInstanceOf(Outcome.Denied.class);
        assertThat(denied.request().decidedBy()).isEqualTo("cli:ops");
        assertThat(((Outcome.Held) later).filed()).isTrue();
    }

    @Test
    void a_request_not_decided_in_time_expires_and_can_no_longer_be_approved() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));
        now = now.plus(Duration.ofHours(1));

        assertThat(approvals.list())
                .singleElement()
                .extracting(StoredApproval::status)
                .isEqualTo(ApprovalStatus.EXPIRED);
        assertThatThrownBy(() -> approvals.decide(r.id(), true, OPERATOR))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("approval request " + r.id() + " is expired (by expiry");
    }

    @Test
    void an_approval_not_used_in_time_expires() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));
        approvals.decide(r.id(), true, OPERATOR);
        now = now.plus(Duration.ofMinutes(61));

        Outcome late = approvals.request(G, null, "key:alice", TOOL, ARGS);

        assertThat(late).isInstanceOf(Outcome.Held.class);
        assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.EXPIRED);
    }

    @Test
    void deciding_twice_or_an_unknown_id_is_refused_naming_the_id() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));
        approvals.decide(r.id(), true, OPERATOR);

        assertThatThrownBy(() -> approvals.decide(r.id(), false, OPERATOR))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("approval request " + r.id() + " is approved (by cli:ops at ");
        assertThatThrownBy(() -> approvals.decide("ap-nope", true, OPERATOR))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no approval request has the id 'ap-nope'");
    }

    @Test
    void stored_arguments_never_hold_the_secrets_but_tell_two_values_apart() {
        Map<String, Object> withKey = Map.of(
                "name",
                "Search",
                "api_key",
                "sk-live-123",
                "endpoint",
                "https://bob:hunter2@search.example.com/mcp?api_key=abc&q=1");
        StoredApproval r = held(approvals.request(G, null, "key:alice", "mcp__register_server", withKey));

        assertThat(r.argumentsJson())
                .doesNotContain("sk-live-123", "hunter2", "abc")
                .contains("search.example.com/mcp")
                .contains("q=1")
                .contains(SecretRules.mask("sk-live-123"))
                .contains("bob:" + SecretRules.mask("hunter2"));
        assertThat(r.argumentsHash()).doesNotContain("sk-live-123");
    }

    @Test
    void an_approval_of_one_secret_value_never_runs_the_call_with_another() {
        StoredApproval alice =
                held(approvals.request(G, null, "key:ops", "auth__revoke", Map.of("token", "session-of-alice")));
        approvals.decide(alice.id(), true, OPERATOR);

        Outcome all = approvals.request(G, null, "key:ops", "auth__revoke", Map.of("token", "ALL-SESSIONS"));

        assertThat(all).isInstanceOf(Outcome.Held.class);
        assertThat(all.request().id()).isNotEqualTo(alice.id());
        assertThat(all.request().argumentsJson()).isNotEqualTo(alice.argumentsJson());
        assertThat(store.loadApproval(alice.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.APPROVED);
        for (Map<String, Object> other : java.util.List.<Map<String, Object>>of(
                Map.of("url", "postgres://u:other@db/x"), Map.of("url", "https://h/x?api_key=other"))) {
            Map<String, Object> first =
                    Map.of("url", other.get("url").toString().replace("other", "first"));
            StoredApproval a = held(approvals.request(G, null, "key:ops", "db__drop", first));
            approvals.decide(a.id(), true, OPERATOR);
            assertThat(approvals.request(G, null, "key:ops", "db__drop", other)).isInstanceOf(Outcome.Held.class);
        }
    }

    @Test
    void an_approval_holds_only_in_its_channel_and_run() {
        Map<String, Object> args = Map.of("token", "session-of-alice");
        StoredApproval gw = held(approvals.request(G, null, "key:ops", "auth__revoke", args));
        approvals.decide(gw.id(), true, OPERATOR);

        Outcome loop = approvals.request(Approvals.Channel.AGENT, "run-1", "key:ops", "auth__revoke", args);
        StoredApproval run1 = loop.request();
        approvals.decide(run1.id(), true, OPERATOR);
        Outcome otherRun = approvals.request(Approvals.Channel.AGENT, "run-2", "key:ops", "auth__revoke", args);

        assertThat(loop).isInstanceOf(Outcome.Held.class);
        assertThat(run1.channel()).isEqualTo("agent");
        assertThat(run1.scope()).isEqualTo("run-1");
        assertThat(otherRun).isInstanceOf(Outcome.Held.class);
        assertThat(approvals.request(Approvals.Channel.AGENT, "run-1", "key:ops", "auth__revoke", args))
                .isInstanceOf(Outcome.Run.class);
        assertThat(approvals.request(G, null, "key:ops", "auth__revoke", args)).isInstanceOf(Outcome.Run.class);
    }

    @Test
    void the_match_key_is_the_same_for_the_same_call_in_any_key_order_and_differs_for_any_other() {
        Map<String, Object> ab = new java.util.LinkedHashMap<>();
        ab.put("a", 1);
        ab.put("token", "t-1");
        Map<String, Object> ba = new java.util.LinkedHashMap<>();
        ba.put("token", "t-1");
        ba.put("a", 1);
        String k = Approvals.matchKey(G, null, "key:a", "x__y", ab);

        assertThat(Approvals.matchKey(G, null, "key:a", "x__y", ba)).isEqualTo(k);
        assertThat(java.util.List.of(
                        Approvals.matchKey(G, null, "key:a", "x__y", Map.of("a", 1, "token", "t-2")),
                        Approvals.matchKey(Approvals.Channel.AGENT, null, "key:a", "x__y", ab),
                        Approvals.matchKey(G, "run-1", "key:a", "x__y", ab),
                        Approvals.matchKey(G, null, "key:b", "x__y", ab),
                        Approvals.matchKey(G, null, "key:a", "x__z", ab)))
                .doesNotContain(k)
                .doesNotHaveDuplicates();
        assertThat(k).startsWith("v2:").doesNotContain("t-1");
    }

    @Test
    void a_requester_of_any_role_may_withdraw_its_own_request_and_another_s_reads_as_missing() {
        StoredApproval r = held(approvals.request(G, null, "key:alice", TOOL, ARGS));

        assertThatThrownBy(() -> approvals.decide(r.id(), false, new Approver("key:bob", Role.USER)))
                .isInstanceOf(Approvals.UnknownRequest.class)
                .hasMessage("no approval request has the id '" + r.id() + "' (see `toolscout approvals list --all`)");
        assertThatThrownBy(() -> approvals.decide(r.id(), true, new Approver("key:alice", Role.USER)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("who cannot approve it");
        assertThat(approvals
                        .decide(r.id(), false, new Approver("key:alice", Role.USER))
                        .status())
                .isEqualTo(ApprovalStatus.DENIED);
    }
}
