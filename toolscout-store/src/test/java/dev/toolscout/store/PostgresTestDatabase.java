package dev.toolscout.store;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Fresh schemas in the test PostgreSQL ({@link TestPostgres}), one per store a test opens, so tests and builds running
 * at the same time never see each other's tables. {@link #dropAll} removes the schemas this instance made.
 */
final class PostgresTestDatabase {
    private final List<String> schemas = new ArrayList<>();

    /** The address of a new, empty schema. */
    synchronized String newSchema() {
        TestPostgres.Server server = TestPostgres.server();
        String schema = TestPostgres.newSchema("ts_test_");
        schemas.add(schema);
        return server.url(schema);
    }

    synchronized void dropAll() throws SQLException {
        if (schemas.isEmpty()) {
            return;
        }
        TestPostgres.Server server = TestPostgres.server();
        for (String s : schemas) {
            server.dropSchema(s);
        }
        schemas.clear();
    }
}
