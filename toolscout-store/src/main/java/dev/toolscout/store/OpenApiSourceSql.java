package dev.toolscout.store;

import dev.toolscout.catalog.OpenApiSourceStore;
import java.util.Objects;
import java.util.Optional;

/** The imported APIs' SQL ({@link OpenApiSourceStore}): rows of {@code meta} under a key prefix. Thread-safe as the store it belongs to. */
final class OpenApiSourceSql implements OpenApiSourceStore {
  private final SqlDialect db;

  OpenApiSourceSql(SqlDialect db) {
    this.db = db;
  }


  /**
   * Imported APIs' configurations live in {@code meta}, one row per source under this key prefix: a key-value
   * row is all they need, and it takes no schema migration. No change-log row: the executor reads a source at each
   * call.
   */
  private static final String OPENAPI_SOURCE_KEY = "openapi_source:";

  @Override
  public Optional<String> loadOpenApiSource(String name) {
    Objects.requireNonNull(name, "name");
    return db.query("load OpenAPI source '" + name + "'", h -> Optional.ofNullable(db.meta(h, OPENAPI_SOURCE_KEY + name,
        false)));
  }

  @Override
  public void saveOpenApiSource(String name, String configJson) {
    if (name == null || name.isBlank() || configJson == null) {
      throw new IllegalArgumentException("an OpenAPI source needs a name and its JSON, got: '" + name + "'");
    }
    db.write("save OpenAPI source '" + name + "'", h -> {
      SqlDialect.upsertMeta(h).bind(0, OPENAPI_SOURCE_KEY + name).bind(1, configJson).add().execute();
      return null;
    });
  }

  @Override
  public boolean deleteOpenApiSource(String name) {
    Objects.requireNonNull(name, "name");
    return db.write("delete OpenAPI source '" + name + "'",
        h -> SqlDialect.update(h, "DELETE FROM meta WHERE key = ?", OPENAPI_SOURCE_KEY + name) > 0);
  }

}
