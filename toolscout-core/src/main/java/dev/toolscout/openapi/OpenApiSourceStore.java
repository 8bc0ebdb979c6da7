package dev.toolscout.openapi;

import java.util.Optional;

/**
 * The configurations of imported APIs (OpenAPI sources), opaque JSON by name. Thread-safe.
 */
public interface OpenApiSourceStore {
    /**
     * The stored configuration of the API imported as source {@code name} (exact match): its base URL, its
     * credential (a secret sealed, or the name of an environment variable) and how each of its tools becomes an HTTP
     * request. Opaque here, as a server's config is: the agent module owns the format. Thread-safe.
     */
    Optional<String> loadOpenApiSource(String name);

    /**
     * Stores the configuration of an imported API, replacing any of the same name (upsert), durable on return.
     * Secrets in it are already sealed. Thread-safe.
     */
    void saveOpenApiSource(String name, String configJson);

    /**
     * Removes the configuration of an imported API, durable on return. Thread-safe.
     *
     * @return true when one was removed, false when none had that name
     */
    boolean deleteOpenApiSource(String name);
}
