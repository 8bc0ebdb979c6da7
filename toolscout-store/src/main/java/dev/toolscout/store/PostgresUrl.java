package dev.toolscout.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A PostgreSQL store's address as users write it: {@code postgresql://[user[:password]@]host[:port]/database[?
 * schema=name&...]} (also {@code postgres://}). {@code schema} is ToolScout's own parameter (the store's tables
 * live there, created when missing; default {@code public}); every other parameter goes to the PostgreSQL JDBC
 * driver as it is (for example {@code sslmode=require}). A password may also come from the driver's own
 * {@code password} parameter; it is never part of {@link #display()}.
 *
 * @param jdbcUrl the driver's URL, without user and password
 * @param user the user, or {@code null} for the driver's default
 * @param password the password, or {@code null}
 * @param schema the schema the store's tables live in
 * @param display the address without any password, for messages and logs
 */
public record PostgresUrl(String jdbcUrl, String user, String password, String schema, String display) {
    /** Longest address accepted. */
    public static final int MAX_LENGTH = 2048;

    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /** Leaves the password out. */
    @Override
    public String toString() {
        return display;
    }

    /** Whether {@code value} is meant as a PostgreSQL address (its scheme), so a caller can tell it from a path. */
    public static boolean isPostgresUrl(String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        return v.startsWith("postgresql://") || v.startsWith("postgres://");
    }

    /**
     * Parses {@code value}.
     *
     * @throws IllegalArgumentException naming the rule and the value (its password left out) when it is not a
     *     PostgreSQL address this understands
     */
    public static PostgresUrl parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("store address must not be blank");
        }
        if (value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "store address must be at most " + MAX_LENGTH + " characters, got: " + value.length());
        }
        if (!isPostgresUrl(value)) {
            throw new IllegalArgumentException(
                    "store address must start with postgresql:// (postgresql://host:port/database?schema=name), got: '"
                            + redact(value) + "'");
        }
        URI uri;
        try {
            uri = new URI(value.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "store address is not a valid URL (" + e.getReason() + "), got: '" + redact(value) + "'", e);
        }
        String host = uri.getHost();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String database = path.startsWith("/") ? path.substring(1) : path;
        if (host == null || database.isEmpty() || database.contains("/")) {
            throw new IllegalArgumentException("store address must name a host and a database "
                    + "(postgresql://host:port/database), got: '" + redact(value) + "'");
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = decode(parts[0]);
            password = parts.length > 1 ? decode(parts[1]) : null;
        }
        String schema = "public";
        List<String> params = new ArrayList<>();
        if (uri.getRawQuery() != null) {
            for (String p : uri.getRawQuery().split("&")) {
                if (p.isEmpty()) {
                    continue;
                }
                String key = decode(p.contains("=") ? p.substring(0, p.indexOf('=')) : p);
                String val = p.contains("=") ? decode(p.substring(p.indexOf('=') + 1)) : "";
                if (key.equals("schema")) {
                    schema = val;
                } else if (key.equalsIgnoreCase("currentSchema")) {
                    throw new IllegalArgumentException(
                            "store address: give the schema as schema=name, not currentSchema, got: '" + redact(value)
                                    + "'");
                } else if (key.equals("password") && password == null) {
                    password = val;
                } else if (key.equals("user") && user == null) {
                    user = val;
                } else if (!key.equals("password") && !key.equals("user")) {
                    params.add(p);
                }
            }
        }
        if (!SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException("store address: schema must be 1 to 63 characters of a-z 0-9 _ not "
                    + "starting with a digit, got: '" + schema + "'");
        }
        params.add("currentSchema=" + schema);
        String hostPort =
                (host.contains(":") ? "[" + host + "]" : host) + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
        String jdbc = "jdbc:postgresql://" + hostPort + "/" + database + "?" + String.join("&", params);
        String display =
                "postgresql://" + (user == null ? "" : user + "@") + hostPort + "/" + database + "?schema=" + schema;
        return new PostgresUrl(jdbc, user, password, schema, display);
    }

    /** The value of the driver parameter {@code key} this address sets (for example {@code sslmode}), or {@code null}. */
    public String driverParameter(String key) {
        int q = jdbcUrl.indexOf('?');
        if (q >= 0) {
            for (String p : jdbcUrl.substring(q + 1).split("&")) {
                int eq = p.indexOf('=');
                if (eq > 0 && decode(p.substring(0, eq)).equals(key)) {
                    return decode(p.substring(eq + 1));
                }
            }
        }
        return null;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** The value with whatever could be a password replaced. */
    private static String redact(String value) {
        return value.replaceAll("(//[^/@:]*:)[^@/]*@", "$1***@").replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
