package dev.toolscout.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.approval.Approvals.Approver;
import dev.toolscout.approval.Approvals.Outcome;
import dev.toolscout.catalog.InMemoryStateStore;
import dev.toolscout.catalog.StateStore.ApprovalStatus;
import dev.toolscout.catalog.StateStore.StoredApproval;
import dev.toolscout.model.Role;
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

  private Instant now = Instant.parse("2026-03-01T10:00:00Z");
  private final InMemoryStateStore store = new InMemoryStateStore();
  private final Approvals approvals = new Approvals(store, new Clock() {
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
  }, Duration.ofHours(1));

  private StoredApproval held(Outcome o) {
    assertThat(o).isInstanceOf(Outcome.Held.class);
    return o.request();
  }

  @Test
  void a_call_is_held_as_one_pending_request_however_often_it_is_repeated() {
    StoredApproval first = held(approvals.request("key:alice", TOOL, ARGS));
    Outcome again = approvals.request("key:alice", TOOL, ARGS);

    assertThat(first.status()).isEqualTo(ApprovalStatus.PENDING);
    assertThat(first.id()).matches("ap-[0-9a-f]{10}");
    assertThat(((Outcome.Held) again).filed()).isFalse();
    assertThat(again.request().id()).isEqualTo(first.id());
    assertThat(store.loadApprovals()).hasSize(1);
  }

  @Test
  void once_approved_the_identical_call_runs_once_and_the_next_is_held_again() {
    StoredApproval r = held(approvals.request("key:alice", TOOL, ARGS));
    approvals.decide(r.id(), true, OPERATOR);

    Outcome run = approvals.request("key:alice", TOOL, ARGS);
    Outcome after = approvals.request("key:alice", TOOL, ARGS);

    assertThat(run).isInstanceOf(Outcome.Run.class);
    assertThat(run.request().id()).isEqualTo(r.id());
    assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.USED);
    assertThat(((Outcome.Held) after).filed()).isTrue();
    assertThat(after.request().id()).isNotEqualTo(r.id());
  }

  @Test
  void an_approval_covers_only_that_requester_tool_and_arguments() {
    StoredApproval r = held(approvals.request("key:alice", TOOL, ARGS));
    approvals.decide(r.id(), true, OPERATOR);

    assertThat(approvals.request("key:bob", TOOL, ARGS)).isInstanceOf(Outcome.Held.class);
    assertThat(approvals.request("key:alice", "kg__delete_relations", ARGS)).isInstanceOf(Outcome.Held.class);
    assertThat(approvals.request("key:alice", TOOL, Map.of("entityNames", java.util.List.of("Other"))))
        .isInstanceOf(Outcome.Held.class);
    assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.APPROVED);
  }

  @Test
  void the_requester_cannot_approve_its_own_request_even_as_an_admin() {
    StoredApproval r = held(approvals.request("key:root", TOOL, ARGS));

    assertThatThrownBy(() -> approvals.decide(r.id(), true, new Approver("key:root", Role.ADMIN)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(r.id())
        .hasMessageContaining("was made by 'key:root', who cannot approve it");
    assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.PENDING);
    assertThat(approvals.request("key:root", TOOL, ARGS)).isInstanceOf(Outcome.Held.class);
  }

  @Test
  void only_an_admin_decides_and_a_user_or_reader_cannot() {
    StoredApproval r = held(approvals.request("key:alice", TOOL, ARGS));

    for (Role role : new Role[] {Role.USER, Role.READER}) {
      assertThatThrownBy(() -> approvals.decide(r.id(), true, new Approver("key:bob", role)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("has the role " + role.id());
    }
    assertThat(approvals.decide(r.id(), true, new Approver("key:carol", Role.ADMIN)).decidedBy()).isEqualTo("key:carol");
  }

  @Test
  void a_requester_may_withdraw_its_own_request_by_denying_it() {
    StoredApproval r = held(approvals.request("key:root", TOOL, ARGS));

    StoredApproval denied = approvals.decide(r.id(), false, new Approver("key:root", Role.ADMIN));

    assertThat(denied.status()).isEqualTo(ApprovalStatus.DENIED);
  }

  @Test
  void a_denied_call_stays_denied_until_the_denial_expires() {
    StoredApproval r = held(approvals.request("key:alice", TOOL, ARGS));
    approvals.decide(r.id(), false, OPERATOR);

    Outcome denied = approvals.request("key:alice", TOOL, ARGS);
    now = now.plus(Duration.ofHours(2));
    Outcome later = approvals.request("key:alice", TOOL, ARGS);

    assertThat(denied).isInstanceOf(Outcome.Denied.class);
    assertThat(denied.request().decidedBy()).isEqualTo("cli:ops");
    assertThat(((Outcome.Held) later).filed()).isTrue();
  }

  @Test
  void a_request_not_decided_in_time_expires_and_can_no_longer_be_approved() {
    StoredApproval r = held(approvals.request("key:alice", TOOL, ARGS));
    now = now.plus(Duration.ofHours(1));

    assertThat(approvals.list()).singleElement().extracting(StoredApproval::status).isEqualTo(ApprovalStatus.EXPIRED);
    assertThatThrownBy(() -> approvals.decide(r.id(), true, OPERATOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("approval request " + r.id() + " is expired (by expiry");
  }

  @Test
  void an_approval_not_used_in_time_expires() {
    StoredApproval r = held(approvals.request("key:alice", TOOL, ARGS));
    approvals.decide(r.id(), true, OPERATOR);
    now = now.plus(Duration.ofMinutes(61));

    Outcome late = approvals.request("key:alice", TOOL, ARGS);

    assertThat(late).isInstanceOf(Outcome.Held.class);
    assertThat(store.loadApproval(r.id()).orElseThrow().status()).isEqualTo(ApprovalStatus.EXPIRED);
  }

  @Test
  void deciding_twice_or_an_unknown_id_is_refused_naming_the_id() {
    StoredApproval r = held(approvals.request("key:alice", TOOL, ARGS));
    approvals.decide(r.id(), true, OPERATOR);

    assertThatThrownBy(() -> approvals.decide(r.id(), false, OPERATOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("approval request " + r.id() + " is approved (by cli:ops at ");
    assertThatThrownBy(() -> approvals.decide("ap-nope", true, OPERATOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no approval request has the id 'ap-nope'");
  }

  @Test
  void stored_arguments_never_hold_the_secrets_and_a_new_secret_value_matches_the_same_approval() {
    Map<String, Object> withKey = Map.of("name", "Search", "api_key", "sk-live-123",
        "endpoint", "https://bob:hunter2@search.example.com/mcp?api_key=abc&q=1");
    StoredApproval r = held(approvals.request("key:alice", "mcp__register_server", withKey));

    assertThat(r.argumentsJson()).doesNotContain("sk-live-123", "hunter2", "abc")
        .contains("search.example.com/mcp").contains("q=1").contains(ArgumentRedaction.MASK);
    approvals.decide(r.id(), true, OPERATOR);
    Map<String, Object> otherKey = Map.of("endpoint", "https://bob:pw2@search.example.com/mcp?api_key=xyz&q=1",
        "api_key", "sk-live-456", "name", "Search");
    assertThat(approvals.request("key:alice", "mcp__register_server", otherKey)).isInstanceOf(Outcome.Run.class);
  }
}
