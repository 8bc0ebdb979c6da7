package dev.toolscout.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.approval.ApprovalStore.ApprovalStatus;
import dev.toolscout.approval.ApprovalStore.StoredApproval;
import dev.toolscout.catalog.CatalogStore.StoredCatalog;
import dev.toolscout.state.StoreContract;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** What every {@link ApprovalStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class ApprovalStoreContract extends StoreContract {
    // --- approval requests ---

    @Test
    void approvals_round_trip_exactly_and_survive_reopen() {
        StoredApproval a = approval("ap-1", T0);
        StoredApproval decided = new StoredApproval(
                        "ap-2",
                        "local",
                        "mcp__register_server",
                        "{}",
                        "h2",
                        T0.plusSeconds(1),
                        ApprovalStatus.DENIED,
                        "cli:ops",
                        T0.plusSeconds(2))
                .in("agent", "run-7");

        store.saveApproval(a);
        store.saveApproval(decided);

        assertThat(store.loadApproval("ap-1")).contains(a);
        assertThat(store.loadApproval("ap-2")).contains(decided);
        assertThat(store.loadApproval("ap-2").orElseThrow().scope()).isEqualTo("run-7");
        assertThat(store.loadApproval("ap-1").orElseThrow().channel()).isNull();
        assertThat(store.loadApproval("ap-3")).isEmpty();
        assertThat(reopened().loadApprovals()).containsExactly(a, decided);
    }

    @Test
    void approval_times_are_kept_to_the_millisecond() {
        StoredApproval a = approval("ap-1", T0.plusNanos(123_456));

        store.saveApproval(a);

        assertThat(a.createdAt()).isEqualTo(T0);
        assertThat(store.loadApproval("ap-1").orElseThrow().createdAt()).isEqualTo(T0);
    }

    @Test
    void saving_an_approval_with_a_taken_id_is_refused_and_changes_nothing() {
        store.saveApproval(approval("ap-1", T0));

        assertThatThrownBy(() -> store.saveApproval(approval("ap-1", T0.plusSeconds(9))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ap-1'");
        assertThat(store.loadApprovals()).containsExactly(approval("ap-1", T0));
    }

    @Test
    void approvals_load_oldest_first_then_by_id() {
        store.saveApproval(approval("ap-c", T0.plusSeconds(5)));
        store.saveApproval(approval("ap-b", T0));
        store.saveApproval(approval("ap-a", T0.plusSeconds(5)));

        assertThat(store.loadApprovals()).extracting(StoredApproval::id).containsExactly("ap-b", "ap-a", "ap-c");
    }

    @Test
    void an_approval_moves_only_from_the_status_it_is_in() {
        store.saveApproval(approval("ap-1", T0));

        boolean wrongFrom = store.transitionApproval("ap-1", ApprovalStatus.APPROVED, ApprovalStatus.USED, null, null);
        boolean approved = store.transitionApproval(
                "ap-1", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "cli:ops", T0.plusSeconds(60));
        boolean again = store.transitionApproval(
                "ap-1", ApprovalStatus.PENDING, ApprovalStatus.DENIED, "key:mallory", T0.plusSeconds(61));
        boolean unknown = store.transitionApproval("ap-9", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "x", T0);

        assertThat(wrongFrom).isFalse();
        assertThat(approved).isTrue();
        assertThat(again).isFalse();
        assertThat(unknown).isFalse();
        StoredApproval now = reopened().loadApproval("ap-1").orElseThrow();
        assertThat(now.status()).isEqualTo(ApprovalStatus.APPROVED);
        assertThat(now.decidedBy()).isEqualTo("cli:ops");
        assertThat(now.decidedAt()).isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void marking_an_approval_used_keeps_who_approved_it_and_when() {
        store.saveApproval(approval("ap-1", T0));
        store.transitionApproval(
                "ap-1", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "cli:ops", T0.plusSeconds(60));

        assertThat(store.transitionApproval("ap-1", ApprovalStatus.APPROVED, ApprovalStatus.USED, null, null))
                .isTrue();

        assertThat(store.loadApproval("ap-1"))
                .contains(approval("ap-1", T0).moved(ApprovalStatus.USED, "cli:ops", T0.plusSeconds(60)));
    }

    @Test
    void of_racing_moves_of_one_approval_exactly_one_wins() throws Exception {
        store.saveApproval(approval("ap-1", T0));
        store.transitionApproval("ap-1", ApprovalStatus.PENDING, ApprovalStatus.APPROVED, "cli:ops", T0);
        int threads = 8;
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Boolean> won = new ConcurrentLinkedQueue<>();
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            all.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                won.add(store.transitionApproval("ap-1", ApprovalStatus.APPROVED, ApprovalStatus.USED, null, null));
            }));
        }
        go.countDown();
        for (Thread t : all) {
            t.join();
        }

        assertThat(won).hasSize(threads).containsOnlyOnce(true);
    }

    @Test
    void approvals_are_kept_apart_from_servers_and_the_catalog() {
        store.saveServer(server("github", "{}"));
        store.saveApproval(approval("ap-1", T0));

        assertThat(store.loadServers()).containsExactly(server("github", "{}"));
        assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(0, List.of()));
        assertThat(store.catalogVersion()).isZero();
    }

    @Test
    void stored_approval_names_the_missing_field() {
        assertThatThrownBy(() -> StoredApproval.pending("ap-1", " ", "t", "{}", "h", T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ap-1'")
                .hasMessageContaining("requester must not be blank");
        assertThatThrownBy(() -> StoredApproval.pending("ap-1", "local", "t", "{}", "h", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("createdAt and status are required");
    }
}
