package dev.toolscout.store;

import dev.toolscout.catalog.PolicyStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.util.Objects;
import java.util.Optional;

/** The access policy's SQL ({@link PolicyStore}): one row of opaque JSON. Thread-safe as the store it belongs to. */
final class PolicySql implements PolicyStore {
  private final SqlDialect db;

  PolicySql(SqlDialect db) {
    this.db = db;
  }

  private static final int POLICY_ID = 1;

  @Override
  public Optional<String> loadPolicyJson() {
    return db.query("load the access policy", h -> h.createQuery("SELECT policy_json FROM policy WHERE id = ?")
        .bind(0, POLICY_ID).mapTo(String.class).findOne());
  }

  @Override
  public void savePolicyJson(String json) {
    Objects.requireNonNull(json, "policy json");
    db.write("save the access policy", h -> {
      h.createUpdate("INSERT INTO policy (id, policy_json) VALUES (?, ?) "
          + "ON CONFLICT (id) DO UPDATE SET policy_json = excluded.policy_json").bind(0, POLICY_ID).bind(1, json)
          .execute();
      db.changed(h, Area.POLICY);
      return null;
    });
  }
}
