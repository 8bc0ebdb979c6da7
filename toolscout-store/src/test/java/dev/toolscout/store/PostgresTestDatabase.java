package dev.toolscout.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The test PostgreSQL (127.0.0.1:5432, trust auth, database {@code test}; override with {@code
 * TOOLSCOUT_TEST_POSTGRES}) and fresh schemas in it, one per store a test opens, so tests and builds running at
 * the same time never see each other's tables. {@link #dropAll} removes the schemas this instance made.
 */
final class PostgresTestDatabase {
    static final String BASE =
            System.getenv().getOrDefault("TOOLSCOUT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test");

    private final List<String> schemas = new ArrayList<>();

    /** The address of a new, empty schema. */
    synchronized String newSchema() {
        String schema = "ts_test_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        schemas.add(schema);
        return BASE + (BASE.contains("?") ? "&" : "?") + "schema=" + schema;
    }

    synchronized void dropAll() throws SQLException {
        try (Connection c = PostgresStateStore.connect(PostgresUrl.parse(BASE));
                Statement st = c.createStatement()) {
            for (String s : schemas) {
                st.execute("DROP SCHEMA IF EXISTS \"" + s + "\" CASCADE");
            }
        }
        schemas.clear();
    }
}
