package dev.toolscout.store;

import dev.toolscout.openapi.OpenApiSourceStore;
import java.util.Objects;
import java.util.Optional;

/**
 * The imported APIs' SQL ({@link OpenApiSourceStore}): rows of {@code meta} under a key prefix. Thread-safe as the
 * store it belongs to.
 */
interface OpenApiSourceSql extends OpenApiSourceStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    /**
     * Imported APIs' configurations live in {@code meta}, one row per source under this key prefix: a key-value
     * row is all they need, and it takes no schema migration. No change-log row: the executor reads a source at each
     * call.
     */
    private static String openapiSourceKey() {
        return "openapi_source:";
    }

    @Override
    default Optional<String> loadOpenApiSource(String name) {
        Objects.requireNonNull(name, "name");
        return db().query(
                        "load OpenAPI source '" + name + "'",
                        h -> Optional.ofNullable(db().meta(h, openapiSourceKey() + name, false)));
    }

    @Override
    default void saveOpenApiSource(String name, String configJson) {
        if (name == null || name.isBlank() || configJson == null) {
            throw new IllegalArgumentException("an OpenAPI source needs a name and its JSON, got: '" + name + "'");
        }
        db().write("save OpenAPI source '" + name + "'", h -> {
            SqlDialect.upsertMeta(h)
                    .bind(0, openapiSourceKey() + name)
                    .bind(1, configJson)
                    .add()
                    .execute();
            return null;
        });
    }

    @Override
    default boolean deleteOpenApiSource(String name) {
        Objects.requireNonNull(name, "name");
        return db().write(
                        "delete OpenAPI source '" + name + "'",
                        h -> SqlDialect.update(h, "DELETE FROM meta WHERE key = ?", openapiSourceKey() + name) > 0);
    }
}
