package dev.toolscout.store;

import dev.toolscout.access.PolicyStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.util.Objects;
import java.util.Optional;

/** The access policy's SQL ({@link PolicyStore}): one row of opaque JSON. Thread-safe as the store it belongs to. */
interface PolicySql extends PolicyStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    private static int policyId() {
        return 1;
    }

    @Override
    default Optional<String> loadPolicyJson() {
        return db().query(
                        "load the access policy",
                        h -> h.createQuery("SELECT policy_json FROM policy WHERE id = ?")
                                .bind(0, policyId())
                                .mapTo(String.class)
                                .findOne());
    }

    @Override
    default void savePolicyJson(String json) {
        Objects.requireNonNull(json, "policy json");
        db().write("save the access policy", h -> {
            h.createUpdate("INSERT INTO policy (id, policy_json) VALUES (?, ?) "
                            + "ON CONFLICT (id) DO UPDATE SET policy_json = excluded.policy_json")
                    .bind(0, policyId())
                    .bind(1, json)
                    .execute();
            db().changed(h, Area.POLICY);
            return null;
        });
    }
}
