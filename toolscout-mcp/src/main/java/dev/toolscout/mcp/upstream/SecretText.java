package dev.toolscout.mcp.upstream;

import dev.toolscout.secret.SecretRules;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the secrets people put where they do not belong (a password in a server URL, a token on a stdio
 * command line) and redacts them, so that every output can show a server's endpoint: {@code
 * https://user:***@host/mcp?api_key=***}, {@code server --token *** --api-key=***}. What is a secret is decided
 * by the one rule set the whole of ToolScout uses, {@link SecretRules} (the approval queue's masks too):
 *
 * <ul>
 *   <li>URL: the password of the user-info part (the whole user-info when it has no password: a token used
 *       as a user name, as GitHub allows), for a URL of any scheme ({@code postgres://u:pw@db}) anywhere in an
 *       argument; and the value of every query parameter whose name {@link SecretRules#isSecretName} marks
 *       ({@code api_key}, {@code X-Amz-Signature}, {@code access_key}, {@code jwt}, {@code session}, {@code
 *       sid}, {@code sig}, ...).
 *   <li>Argument: the value of {@code --name=value} and the argument after a flag {@code --name} when the
 *       name is a secret's as in a query ({@code --token}, {@code --api-key}, {@code --key}, {@code --password});
 *       the password flag of tools known to take one after a short flag ({@code mysql -pPW}, {@code mysql -p
 *       PW}, {@code sshpass -p PW}, {@code redis-cli -a PW}: {@link SecretRules#passwordFlag}); the value of
 *       {@code NAME=value} when the name is a secret's ({@code API_TOKEN=...}), else the value judged as an
 *       argument itself ({@code DATABASE_URL=postgres://u:pw@db}); the value of {@code Name: value} (a header
 *       given on the command line, {@code Authorization: Bearer ...}); and an argument that looks like a key by
 *       itself
 *       ({@link SecretRules#looksLikeKey}).
 *   <li>Marked by the operator ({@link ServerConfig.SecretMarks}): the value after (or of {@code =}) a
 *       listed flag, and the argument at a listed position.
 * </ul>
 *
 * Stateless and thread-safe.
 */
public final class SecretText {
    /** What stands in for a secret in every output. */
    public static final String REDACTED = "***";

    private static final Pattern FLAG_VALUE = Pattern.compile("^(--?[A-Za-z0-9][A-Za-z0-9_.-]*)=(.*)$", Pattern.DOTALL);
    private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Za-z_][A-Za-z0-9_.-]*)=(.+)$", Pattern.DOTALL);
    private static final Pattern HEADER = Pattern.compile("^([A-Za-z][A-Za-z0-9-]*)\\s*:\\s*(.+)$", Pattern.DOTALL);
    private static final Pattern FLAG = Pattern.compile("^--?[A-Za-z0-9][A-Za-z0-9_.-]*$");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://.*", Pattern.DOTALL);
    /** {@code name=value} inside a longer argument ({@code "host=db password=pw"}, a libpq connection string). */
    private static final Pattern INNER_ASSIGNMENT =
            Pattern.compile("(?<![\\w.-])([A-Za-z_][A-Za-z0-9_.-]*)=([^\\s&;]+)");

    private SecretText() {}

    /** Whether a URL query parameter (or a flag) of this name holds a secret. */
    static boolean isSecretParam(String name) {
        return SecretRules.isSecretName(name);
    }

    /** Whether an argument, taken alone, looks like a key or token. */
    static boolean looksLikeKey(String arg) {
        return SecretRules.looksLikeKey(arg);
    }

    /** The URL as text with its secrets replaced by {@value #REDACTED}; {@code null} for {@code null}. */
    public static String url(URI u) {
        if (u == null) {
            return null;
        }
        if (u.isOpaque() || u.getRawAuthority() == null) {
            return u.toString();
        }
        StringBuilder sb = new StringBuilder();
        sb.append(u.getScheme()).append("://");
        String info = u.getRawUserInfo();
        if (info != null) {
            int colon = info.indexOf(':');
            sb.append(colon >= 0 ? info.substring(0, colon + 1) + REDACTED : REDACTED)
                    .append('@');
        }
        String authority = u.getRawAuthority();
        sb.append(info == null ? authority : authority.substring(authority.lastIndexOf('@') + 1));
        if (u.getRawPath() != null) {
            sb.append(u.getRawPath());
        }
        if (u.getRawQuery() != null) {
            sb.append('?');
            String[] pairs = u.getRawQuery().split("&", -1);
            for (int i = 0; i < pairs.length; i++) {
                if (i > 0) {
                    sb.append('&');
                }
                int eq = pairs[i].indexOf('=');
                String name = eq < 0 ? pairs[i] : pairs[i].substring(0, eq);
                sb.append(eq >= 0 && isSecretParam(decode(name)) ? name + "=" + REDACTED : pairs[i]);
            }
        }
        if (u.getRawFragment() != null) {
            sb.append('#').append(u.getRawFragment());
        }
        return sb.toString();
    }

    /**
     * A URL given as text, perhaps not even a valid URI (for an error message about it), secrets redacted: as
     * {@link #url} when it parses, else with its user-info and its whole query hidden.
     */
    public static String urlText(String text) {
        try {
            return url(new URI(text.strip()));
        } catch (java.net.URISyntaxException e) {
            String noInfo = text.replaceFirst("//[^/?#]*@", "//" + REDACTED + "@");
            int q = noInfo.indexOf('?');
            return q < 0 ? noInfo : noInfo.substring(0, q + 1) + REDACTED;
        }
    }

    /** The arguments with every secret replaced by {@value #REDACTED} (same length and order). */
    public static List<String> args(List<String> args) {
        return args(null, args, ServerConfig.SecretMarks.NONE);
    }

    /**
     * The arguments of {@code command} with every secret replaced by {@value #REDACTED} (same length and order):
     * by the rules, and those {@code marks} names.
     */
    public static List<String> args(String command, List<String> args, ServerConfig.SecretMarks marks) {
        String pw = SecretRules.passwordFlag(command, args);
        List<String> out = new ArrayList<>(args.size());
        boolean nextIsSecret = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            boolean flag = FLAG.matcher(a).matches();
            if (marks.position(i) || nextIsSecret && !flag) {
                // after "--token" comes its value, unless the flag stood alone and another flag follows
                out.add(REDACTED);
            } else if (pw != null && a.startsWith(pw) && a.length() > pw.length() && !a.startsWith("--")) {
                out.add(pw + REDACTED); // mysql -pPASSWORD
            } else {
                out.add(arg(a, marks));
            }
            nextIsSecret = flag && (secretFlag(a, marks) || a.equals(pw));
        }
        return out;
    }

    private static boolean secretFlag(String flag, ServerConfig.SecretMarks marks) {
        return isSecretParam(flag.replaceFirst("^-+", "")) || marks.flag(flag);
    }

    private static String arg(String a, ServerConfig.SecretMarks marks) {
        Matcher m = FLAG_VALUE.matcher(a);
        if (m.matches()) {
            String value = m.group(2);
            return secretFlag(m.group(1), marks) ? m.group(1) + "=" + REDACTED : m.group(1) + "=" + arg(value, marks);
        }
        if (SCHEME.matcher(a).matches()) {
            try {
                URI u = new URI(a);
                if (u.getRawAuthority() != null) {
                    return url(u);
                }
            } catch (java.net.URISyntaxException notAUri) {
                // judged as text below
            }
        }
        m = ASSIGNMENT.matcher(a);
        if (m.matches()) {
            return m.group(1) + "=" + (SecretRules.isSecretName(m.group(1)) ? REDACTED : arg(m.group(2), marks));
        }
        m = HEADER.matcher(a);
        if (m.matches() && SecretRules.isSecretName(m.group(1))) {
            return m.group(1) + ": " + REDACTED;
        }
        if (looksLikeKey(a)) {
            return REDACTED;
        }
        // a URL's user-info or a secret's name=value inside a longer text
        String s = SecretRules.USERINFO
                .matcher(a)
                .replaceAll(u -> Matcher.quoteReplacement(u.group(1)
                        + (u.group(2).indexOf(':') >= 0
                                ? u.group(2).substring(0, u.group(2).indexOf(':') + 1) + REDACTED
                                : REDACTED)
                        + "@"));
        return INNER_ASSIGNMENT
                .matcher(s)
                .replaceAll(v -> Matcher.quoteReplacement(
                        SecretRules.isSecretName(v.group(1)) ? v.group(1) + "=" + REDACTED : v.group()));
    }

    /**
     * The secret strings in a URL and an argument list: what {@link #scrub} takes out of free text such as an
     * error message that quotes the URL or the command line.
     */
    static Set<String> secrets(URI url, List<String> args) {
        return secrets(url, null, args, ServerConfig.SecretMarks.NONE);
    }

    /** As {@link #secrets(URI, List)}, for the arguments of {@code command} and what {@code marks} names too. */
    static Set<String> secrets(URI url, String command, List<String> args, ServerConfig.SecretMarks marks) {
        Set<String> out = new LinkedHashSet<>();
        if (url != null) {
            urlSecrets(url, out);
        }
        String pw = SecretRules.passwordFlag(command, args);
        boolean nextIsSecret = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            boolean flag = FLAG.matcher(a).matches();
            if (marks.position(i) || nextIsSecret && !flag) {
                out.add(a);
            } else if (pw != null && a.startsWith(pw) && a.length() > pw.length() && !a.startsWith("--")) {
                out.add(a.substring(pw.length()));
            } else {
                argSecrets(a, marks, out);
            }
            nextIsSecret = flag && (secretFlag(a, marks) || a.equals(pw));
        }
        out.removeIf(s -> s.isBlank() || s.equals(REDACTED));
        return out;
    }

    private static void urlSecrets(URI url, Set<String> out) {
        String info = url.getRawUserInfo();
        if (info != null) {
            String secret = info.indexOf(':') >= 0 ? info.substring(info.indexOf(':') + 1) : info;
            out.add(secret);
            out.add(decode(secret));
        }
        if (url.getRawQuery() != null) {
            for (String pair : url.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                if (eq >= 0 && isSecretParam(decode(pair.substring(0, eq)))) {
                    out.add(pair.substring(eq + 1));
                    out.add(decode(pair.substring(eq + 1)));
                }
            }
        }
    }

    private static void argSecrets(String a, ServerConfig.SecretMarks marks, Set<String> out) {
        Matcher m = FLAG_VALUE.matcher(a);
        if (m.matches()) {
            if (secretFlag(m.group(1), marks)) {
                out.add(m.group(2));
            } else {
                argSecrets(m.group(2), marks, out);
            }
            return;
        }
        if (SCHEME.matcher(a).matches()) {
            try {
                URI u = new URI(a);
                if (u.getRawAuthority() != null) {
                    urlSecrets(u, out);
                    return;
                }
            } catch (java.net.URISyntaxException notAUri) {
                // judged as text below
            }
        }
        m = ASSIGNMENT.matcher(a);
        if (m.matches()) {
            if (SecretRules.isSecretName(m.group(1))) {
                out.add(m.group(2));
            } else {
                argSecrets(m.group(2), marks, out);
            }
            return;
        }
        m = HEADER.matcher(a);
        if (m.matches() && SecretRules.isSecretName(m.group(1))) {
            out.add(m.group(2));
            return;
        }
        if (looksLikeKey(a)) {
            out.add(a);
            return;
        }
        Matcher u = SecretRules.USERINFO.matcher(a);
        while (u.find()) {
            String info = u.group(2);
            out.add(info.indexOf(':') >= 0 ? info.substring(info.indexOf(':') + 1) : info);
        }
        Matcher v = INNER_ASSIGNMENT.matcher(a);
        while (v.find()) {
            if (SecretRules.isSecretName(v.group(1))) {
                out.add(v.group(2));
            }
        }
    }

    /**
     * {@code text} with each of {@code secrets} replaced by {@value #REDACTED}, longest first (so a secret that
     * holds another is taken out whole). Secrets shorter than 4 characters are left: taking them out would
     * garble the text and hide next to nothing.
     */
    public static String scrub(String text, Collection<String> secrets) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        List<String> sorted = new ArrayList<>(secrets);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        String out = text;
        for (String s : sorted) {
            if (s.length() >= 4) {
                out = out.replace(s, REDACTED);
            }
        }
        return out;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
