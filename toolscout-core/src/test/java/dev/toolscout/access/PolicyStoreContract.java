package dev.toolscout.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.state.StoreContract;
import org.junit.jupiter.api.Test;

/** What every {@link PolicyStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class PolicyStoreContract extends StoreContract {
    // --- policy ---

    @Test
    void policy_round_trips() {
        AccessPolicy policy = samplePolicy();

        store.savePolicyJson(json(policy));

        assertThat(store.loadPolicyJson()).contains(json(policy));
        assertThat(reopened().loadPolicyJson()).contains(json(policy));
    }

    @Test
    void saving_a_policy_replaces_the_previous_one() {
        store.savePolicyJson(json(samplePolicy()));

        store.savePolicyJson(json(AccessPolicy.ALLOW_ALL));

        assertThat(store.loadPolicyJson()).contains(json(AccessPolicy.ALLOW_ALL));
    }
}
