package dev.toolscout.access;

import java.util.Optional;

/**
 * The stored access policy, as opaque JSON. Thread-safe.
 */
public interface PolicyStore {
    /**
     * The stored access policy's JSON, exactly as saved, if one was saved. The store does not read it:
     * {@link AccessPolicyJson} owns the format.
     */
    Optional<String> loadPolicyJson();

    /** Replaces the stored access policy's JSON (kept exactly as given), durable on return. */
    void savePolicyJson(String json);
}
