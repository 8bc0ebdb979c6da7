package dev.toolscout.secret;

import dev.toolscout.model.Hashing;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one rule set that says what is a secret, shared by everything that seals, masks or scrubs one: the
 * approval queue's stored arguments ({@code approval.ArgumentRedaction}) and the MCP servers' URLs, arguments,
 * headers and environment ({@code mcp.upstream.SecretText}, {@code ServerConfig}). The rules:
 *
 * <ul>
 *   <li>{@link #isSecretName}: a field, header, environment variable, URL query parameter or command-line flag
 *       whose name says it holds a secret ({@code api_key}, {@code X-Custom-Auth}, {@code X-Amz-Signature},
 *       {@code access_key}, {@code private_key}, {@code jwt}, {@code session}, {@code sid}, ...).
 *   <li>{@link #USERINFO}: the user-info of a URL of any scheme, anywhere in a text ({@code
 *       postgres://u:pw@db/x}, {@code --db=mysql://root:pw@h}).
 *   <li>{@link #passwordFlag}: the short flags that take a password in tools known to take one that way
 *       ({@code mysql -pPW}, {@code mysql -p PW}, {@code sshpass -p PW}, {@code redis-cli -a PW}).
 *   <li>{@link #looksLikeKey}: a value that looks like a key by itself (a known token prefix, long hex, a long
 *       mix of upper case, lower case and digits).
 * </ul>
 *
 * And how a secret is shown: {@link #mask}. Stateless and thread-safe.
 */
public final class SecretRules {
    /**
     * Lower-cased with {@code _ - .} and spaces removed, a name containing one of these is a secret's. {@code
     * signature} covers {@code X-Amz-Signature}; {@code session} covers {@code session_id}, {@code JSESSIONID}.
     */
    private static final List<String> SECRET_WORDS = List.of(
            "apikey",
            "token",
            "secret",
            "password",
            "passwd",
            "pwd",
            "authorization",
            "credential",
            "privatekey",
            "accesskey",
            "cookie",
            "session",
            "signature",
            "jwt");
    /** Names that are a secret's only when they are the whole name (as a part they are too common). */
    private static final Set<String> SECRET_NAMES = Set.of("key", "sig", "sid", "pass", "auth", "pin", "otp");
    /**
     * A URL's scheme and user-info, anywhere in a text: group 1 the scheme with {@code ://}, group 2 the user-info
     * (without the {@code @}). The user-info stops at the first character that cannot be in it.
     */
    public static final Pattern USERINFO =
            Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]{0,31}://)([^/?#@\\s\"'<>]{1,512})@");
    /** Tools whose short flag {@code -p} (or {@code -a}) takes a password, and that flag, by command name. */
    private static final List<Tool> PASSWORD_TOOLS = List.of(
            new Tool(
                    Pattern.compile(
                            "(?i)^(mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb"
                                    + "|mariadb-dump|mariadb-admin|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|sshpass)$"),
                    "-p"),
            new Tool(Pattern.compile("(?i)^(redis-cli|valkey-cli|keydb-cli)$"), "-a"));

    private static final Pattern KNOWN_TOKEN = Pattern.compile(
            "^(sk-|sk_live_|sk_test_|rk_live_|pk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA"
                    + "|AIza|hf_|npm_|ya29\\.|eyJ)[A-Za-z0-9._\\-]{8,}$");
    private static final Pattern HEX = Pattern.compile("^[0-9a-fA-F]{32,}$");
    private static final Pattern MIXED = Pattern.compile("^[A-Za-z0-9_\\-+=]{32,}$");
    /** A masked value shows its last characters only when it has at least this many (so they reveal a quarter). */
    public static final int SHOWN_TAIL_MIN_LENGTH = 16;
    /** How many of the last characters a long masked value shows. */
    public static final int SHOWN_TAIL = 4;
    /** How many hex digits of the value's SHA-256 a masked value shows. */
    public static final int SHOWN_DIGEST = 8;

    private record Tool(Pattern command, String flag) {}

    private SecretRules() {}

    /** Whether a field, header, environment variable, query parameter or flag of this name holds a secret. */
    public static boolean isSecretName(String name) {
        if (name == null) {
            return false;
        }
        String n = name.toLowerCase(Locale.ROOT).replaceAll("[-_.\\s]", "");
        if (n.isEmpty()) {
            return false;
        }
        if (SECRET_NAMES.contains(n)) {
            return true;
        }
        // "max_tokens", "input_tokens": a count, not a credential
        boolean count = n.endsWith("tokens");
        for (String w : SECRET_WORDS) {
            if (n.contains(w) && !(count && w.equals("token"))) {
                return true;
            }
        }
        // X-Custom-Auth, proxy_auth, auth_header (but not author)
        if (n.endsWith("auth") || n.startsWith("auth") && !n.startsWith("author")) {
            return true;
        }
        return n.endsWith("key") && n.length() <= 8; // "authkey", "sshkey", "userkey"
    }

    /**
     * The flag that takes a password in the command line {@code command args}, or {@code null}: the command, or
     * the first argument that names a tool after a launcher ({@code npx}, {@code docker run ... mysql}), is one of
     * the known tools. Judged by the file name of each word, without a version suffix ({@code mysql@8}).
     */
    public static String passwordFlag(String command, List<String> args) {
        String f = toolFlag(command);
        if (f != null) {
            return f;
        }
        for (String a : args) {
            f = toolFlag(a);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    private static String toolFlag(String word) {
        if (word == null || word.isBlank()) {
            return null;
        }
        String base = word.substring(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1);
        int at = base.indexOf('@', 1);
        base = at > 0 ? base.substring(0, at) : base;
        base = base.endsWith(".exe") ? base.substring(0, base.length() - 4) : base;
        for (Tool t : PASSWORD_TOOLS) {
            if (t.command().matcher(base).matches()) {
                return t.flag();
            }
        }
        return null;
    }

    /** Whether a value, taken alone, looks like a key or token. */
    public static boolean looksLikeKey(String value) {
        if (KNOWN_TOKEN.matcher(value).matches() || HEX.matcher(value).matches()) {
            return true;
        }
        return MIXED.matcher(value).matches()
                && value.chars().anyMatch(Character::isUpperCase)
                && value.chars().anyMatch(Character::isLowerCase)
                && value.chars().anyMatch(Character::isDigit);
    }

    /**
     * A secret as an approver sees it: never the value, but enough to tell two values apart: {@code [redacted
     * sha256:1a2b3c4d]}, and for a value of at least {@value #SHOWN_TAIL_MIN_LENGTH} characters its last {@value
     * #SHOWN_TAIL} too, {@code [redacted …ions sha256:1a2b3c4d]}. The digest is of the value's UTF-8 bytes (the
     * first {@value #SHOWN_DIGEST} hex digits of its SHA-256): two different values show different digests (but a
     * short, guessable value can be found from its digest by trying every candidate, so a secret worth the name
     * is long).
     */
    public static String mask(String value) {
        String digest = Hashing.sha256Hex(value).substring(0, SHOWN_DIGEST);
        int n = value.codePointCount(0, value.length());
        if (n < SHOWN_TAIL_MIN_LENGTH) {
            return "[redacted sha256:" + digest + "]";
        }
        int from = value.offsetByCodePoints(value.length(), -SHOWN_TAIL);
        return "[redacted …" + value.substring(from) + " sha256:" + digest + "]";
    }
}
