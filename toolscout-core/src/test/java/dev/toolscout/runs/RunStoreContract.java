package dev.toolscout.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.state.StateStore;
import dev.toolscout.state.StoreContract;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What every {@link RunStore} and {@link UsageStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class RunStoreContract extends StoreContract {
    // --- the agent's runs and usage records ---

    @Test
    void runs_upsert_by_id_and_load_by_status_and_by_conversation() {
        Instant t = Instant.parse("2026-11-26T08:00:00.123456Z");
        store.saveRun(new StateStore.StoredRun("r1", "p:ann", "c1", "running", null, "{\"a\":1}", t, t));
        store.saveRun(new StateStore.StoredRun("r2", "p:ann", "c1", "done", null, "{}", t.plusSeconds(1), t));
        store.saveRun(new StateStore.StoredRun("r3", "p:bob", "c1", "done", null, "{}", t, t));
        store.saveRun(new StateStore.StoredRun(
                "r1", "p:ann", "c1", "awaiting_approval", "ap-1", "{\"a\":2}", t, t.plusSeconds(5)));

        StateStore.StoredRun r1 = store.loadRun("r1").orElseThrow();
        assertThat(r1.status()).isEqualTo("awaiting_approval");
        assertThat(r1.approvalId()).isEqualTo("ap-1");
        assertThat(r1.stateJson()).isEqualTo("{\"a\":2}");
        assertThat(r1.createdAt()).isEqualTo(Instant.parse("2026-11-26T08:00:00.123Z"));
        assertThat(store.loadRunsByStatus("awaiting_approval"))
                .extracting(StateStore.StoredRun::id)
                .containsExactly("r1");
        assertThat(store.loadRuns("p:ann", "c1"))
                .extracting(StateStore.StoredRun::id)
                .containsExactly("r1", "r2");
        assertThat(store.deleteRun("r2")).isTrue();
        assertThat(store.deleteRun("r2")).isFalse();
        assertThat(store.loadRun("r2")).isEmpty();
    }

    @Test
    void usage_records_replace_by_id_and_load_since_a_time_oldest_first() {
        Instant t = Instant.parse("2026-11-26T08:00:00Z");
        store.saveUsage(new StateStore.StoredUsage("u2", t.plusSeconds(2), "p", "c", "{\"n\":2}"));
        store.saveUsage(new StateStore.StoredUsage("u1", t.plusSeconds(1), "p", "c", "{\"n\":1}"));
        store.saveUsage(new StateStore.StoredUsage("u0", t, "p", "c", "{\"n\":0}"));
        store.saveUsage(new StateStore.StoredUsage("u1", t.plusSeconds(3), "p", "c", "{\"n\":11}"));

        assertThat(store.loadUsage(t.plusSeconds(1), 10))
                .extracting(StateStore.StoredUsage::json)
                .containsExactly("{\"n\":2}", "{\"n\":11}");
        assertThat(store.loadUsage(Instant.EPOCH, 1))
                .extracting(StateStore.StoredUsage::id)
                .containsExactly("u0");
    }
}
