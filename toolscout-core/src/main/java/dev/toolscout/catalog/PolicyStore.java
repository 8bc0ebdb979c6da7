package dev.toolscout.catalog;

import java.util.Optional;

/**
 * The stored access policy, as opaque JSON. Thread-safe.
 */
public interface PolicyStore {
  /**
   * The stored access policy's JSON, exactly as saved, if one was saved. The store does not read it: the
   * access package owns the format ({@code access.AccessPolicyJson}), and keeping it opaque keeps this package
   * free of a dependency on access (which depends on the catalog).
   */
  Optional<String> loadPolicyJson();

  /** Replaces the stored access policy's JSON (kept exactly as given), durable on return. */
  void savePolicyJson(String json);
}
