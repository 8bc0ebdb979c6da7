package dev.toolscout.mcp.upstream;

import dev.toolscout.model.ToolNaming;
import dev.toolscout.secret.SecretRules;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How to reach one upstream MCP server. A stdio server has a command (plus arguments, environment and
 * working directory); an HTTP server has a URL (plus headers and an API key). Secrets (the API key, secret
 * headers, secret environment variables, a password or key in the URL, a token among the arguments: see
 * {@link SecretText}) are plain here, for the connection; they are sealed when stored and redacted by
 * {@link #redacted()}, {@link #endpoint()}, {@link #scrub} and {@link #toString()}.
 *
 * @param name the server's name as the user gave it; its tools are named {@code <prefix>__<tool>} with the
 *     prefix from {@link ToolNaming#serverPrefix(String)}
 * @param transport stdio, Streamable HTTP (falling back to SSE) or SSE only
 * @param timeout the limit on each request to this server ({@link #DEFAULT_TIMEOUT} when {@code null})
 * @param secretMarks what the operator marks secret beyond the rules ({@code secretArgs}, {@code
 *     secretHeaders}, {@code secretEnv} in a servers file or a stored config); {@link SecretMarks#NONE} when
 *     {@code null}
 */
public record ServerConfig(
        String name,
        Transport transport,
        String command,
        List<String> args,
        Map<String, String> env,
        Path cwd,
        URI url,
        Map<String, String> headers,
        String apiKey,
        Duration timeout,
        SecretMarks secretMarks) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);
    public static final int MAX_NAME = 48;
    /** The most names or positions one list of {@link SecretMarks} holds. */
    public static final int MAX_SECRET_MARKS = 64;

    static final String REDACTED = SecretText.REDACTED;

    /** How the server is reached. */
    public enum Transport {
        /** A child process speaking JSON-RPC over stdin/stdout. */
        STDIO,
        /** Streamable HTTP; a server that answers only the legacy SSE handshake is reached over SSE. */
        HTTP,
        /** The legacy HTTP+SSE transport only. */
        SSE;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the operator marks secret in a server's config beyond {@link SecretRules}' rules: sealed at rest and
     * shown as {@code ***} like the rest. Names are matched without regard to case.
     *
     * @param args flags whose value is a secret ({@code --conn}: the next argument, or the value of {@code
     *     --conn=...}), and positions (0-based, as decimal digits) of arguments that are secrets whole
     * @param headers header names whose value is a secret
     * @param env environment variable names whose value is a secret
     */
    public record SecretMarks(List<String> args, List<String> headers, List<String> env) {
        public static final SecretMarks NONE = new SecretMarks(List.of(), List.of(), List.of());

        public SecretMarks {
            args = check("secretArgs", args, true);
            headers = check("secretHeaders", headers, false);
            env = check("secretEnv", env, false);
        }

        private static List<String> check(String field, List<String> values, boolean argsList) {
            if (values == null) {
                return List.of();
            }
            if (values.size() > MAX_SECRET_MARKS) {
                throw new IllegalArgumentException(
                        field + " must hold at most " + MAX_SECRET_MARKS + " entries, got: " + values.size());
            }
            for (String v : values) {
                boolean ok = v != null
                        && !v.isBlank()
                        && v.length() <= 128
                        && (!argsList
                                || v.startsWith("-")
                                || v.chars().allMatch(Character::isDigit) && v.length() <= 4);
                if (!ok) {
                    throw new IllegalArgumentException(field + " entries must be "
                            + (argsList ? "a flag (-k, --conn) or a 0-based argument position" : "names")
                            + " of 1-128 characters, got: '"
                            + (v == null ? "null" : v.length() > 40 ? v.substring(0, 40) + "..." : v) + "'");
                }
            }
            return List.copyOf(values);
        }

        /** Whether the argument at {@code position} is marked secret whole. */
        public boolean position(int position) {
            return args.contains(Integer.toString(position));
        }

        /** Whether the value of this flag is marked secret. */
        public boolean flag(String flag) {
            return args.stream().anyMatch(a -> a.startsWith("-") && a.equalsIgnoreCase(flag));
        }

        boolean header(String name) {
            return headers.stream().anyMatch(h -> h.equalsIgnoreCase(name));
        }

        boolean envVar(String name) {
            return env.stream().anyMatch(e -> e.equalsIgnoreCase(name));
        }

        public boolean isEmpty() {
            return args.isEmpty() && headers.isEmpty() && env.isEmpty();
        }
    }

    /** A config with nothing marked secret beyond the rules. */
    public ServerConfig(
            String name,
            Transport transport,
            String command,
            List<String> args,
            Map<String, String> env,
            Path cwd,
            URI url,
            Map<String, String> headers,
            String apiKey,
            Duration timeout) {
        this(name, transport, command, args, env, cwd, url, headers, apiKey, timeout, SecretMarks.NONE);
    }

    public ServerConfig {
        if (secretMarks == null) {
            secretMarks = SecretMarks.NONE;
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("server name is required and must not be blank");
        }
        name = name.strip();
        if (name.length() > MAX_NAME) {
            throw new IllegalArgumentException("server name must be at most " + MAX_NAME + " characters, got "
                    + name.length() + ": '" + name + "'");
        }
        if (ToolNaming.serverPrefix(name).isEmpty()) {
            throw new IllegalArgumentException(
                    "server name must hold at least one letter or digit, got: '" + name + "'");
        }
        if (transport == null) {
            throw new IllegalArgumentException("server '" + name + "': transport is required (stdio, http or sse)");
        }
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        if (apiKey != null && apiKey.isBlank()) {
            apiKey = null;
        }
        if (transport == Transport.STDIO) {
            if (command == null || command.isBlank()) {
                throw new IllegalArgumentException("server '" + name + "': a stdio server needs a command");
            }
            if (url != null) {
                throw new IllegalArgumentException(
                        "server '" + name + "': a stdio server takes a command, not a url: " + SecretText.url(url));
            }
        } else {
            if (url == null) {
                throw new IllegalArgumentException(
                        "server '" + name + "': an " + transport.wire() + " server needs a url");
            }
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new IllegalArgumentException(
                        "server '" + name + "': url must be http:// or https://, got: " + SecretText.url(url));
            }
            if (url.getHost() == null) {
                throw new IllegalArgumentException(
                        "server '" + name + "': url must name a host, got: " + SecretText.url(url));
            }
            if (command != null) {
                throw new IllegalArgumentException("server '" + name + "': an " + transport.wire()
                        + " server takes a url, not a command: " + command);
            }
        }
        if (timeout == null) {
            timeout = DEFAULT_TIMEOUT;
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("server '" + name + "': timeout must be between 1 ms and "
                    + MAX_TIMEOUT.toMinutes() + " minutes, got: " + timeout);
        }
    }

    /** A stdio server. */
    public static ServerConfig stdio(String name, String command, List<String> args) {
        return new ServerConfig(name, Transport.STDIO, command, args, null, null, null, null, null, null);
    }

    /** A Streamable HTTP server (SSE fallback). */
    public static ServerConfig http(String name, URI url) {
        return new ServerConfig(name, Transport.HTTP, null, null, null, null, url, null, null, null);
    }

    public ServerConfig withEnv(Map<String, String> e) {
        return new ServerConfig(name, transport, command, args, e, cwd, url, headers, apiKey, timeout, secretMarks);
    }

    public ServerConfig withCwd(Path dir) {
        return new ServerConfig(name, transport, command, args, env, dir, url, headers, apiKey, timeout, secretMarks);
    }

    public ServerConfig withHeaders(Map<String, String> h) {
        return new ServerConfig(name, transport, command, args, env, cwd, url, h, apiKey, timeout, secretMarks);
    }

    public ServerConfig withApiKey(String key) {
        return new ServerConfig(name, transport, command, args, env, cwd, url, headers, key, timeout, secretMarks);
    }

    public ServerConfig withTimeout(Duration t) {
        return new ServerConfig(name, transport, command, args, env, cwd, url, headers, apiKey, t, secretMarks);
    }

    public ServerConfig withSecretMarks(SecretMarks m) {
        return new ServerConfig(name, transport, command, args, env, cwd, url, headers, apiKey, timeout, m);
    }

    /** The tool-name prefix of this server's tools. */
    public String prefix() {
        return ToolNaming.serverPrefix(name);
    }

    /**
     * Whether a header or environment variable with this name holds a secret (and is sealed and redacted) by
     * the rules every part of ToolScout shares ({@link SecretRules#isSecretName}).
     */
    public static boolean isSecretName(String key) {
        return SecretRules.isSecretName(key);
    }

    /** Whether this config's header {@code name} holds a secret: by the rules, or marked by the operator. */
    public boolean isSecretHeader(String name) {
        return isSecretName(name) || secretMarks.header(name);
    }

    /** Whether this config's environment variable {@code name} holds a secret: by the rules, or marked. */
    public boolean isSecretEnv(String name) {
        return isSecretName(name) || secretMarks.envVar(name);
    }

    /** The arguments with every secret replaced by {@code ***} (same length and order). */
    public List<String> shownArgs() {
        return SecretText.args(command, args, secretMarks);
    }

    /** This config with every secret value replaced by {@code ***}: what list commands and logs show. */
    public ServerConfig redacted() {
        return new ServerConfig(
                name,
                transport,
                command,
                shownArgs(),
                redact(env, this::isSecretEnv),
                cwd,
                url == null ? null : URI.create(SecretText.url(url)),
                redact(headers, this::isSecretHeader),
                apiKey == null ? null : REDACTED,
                timeout,
                secretMarks);
    }

    /** Where the server is: the command line or the URL, secrets redacted ({@link SecretText}). */
    public String endpoint() {
        return transport == Transport.STDIO ? String.join(" ", prefixWith(command, shownArgs())) : SecretText.url(url);
    }

    /** Whether the URL or the arguments hold a secret (which storage then seals). */
    public boolean endpointHasSecret() {
        return !shownArgs().equals(args) || (url != null && !SecretText.url(url).equals(url.toString()));
    }

    /**
     * Every secret value of this config: the API key, secret headers and environment variables, and the
     * secrets in the URL and the arguments.
     */
    public java.util.Set<String> secrets() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>(SecretText.secrets(url, command, args, secretMarks));
        if (apiKey != null) {
            out.add(apiKey);
        }
        env.forEach((k, v) -> {
            if (isSecretEnv(k)) {
                out.add(v);
            }
        });
        headers.forEach((k, v) -> {
            if (isSecretHeader(k)) {
                out.add(v);
                // "Bearer <token>": the token alone is a secret too
                int space = v.indexOf(' ');
                if (space > 0) {
                    out.add(v.substring(space + 1).strip());
                }
            }
        });
        return out;
    }

    /** {@code text} (an error message, a log line) with every secret of this config replaced by {@code ***}. */
    public String scrub(String text) {
        return SecretText.scrub(text, secrets());
    }

    private static List<String> prefixWith(String first, List<String> rest) {
        var all = new java.util.ArrayList<String>(rest.size() + 1);
        all.add(first);
        all.addAll(rest);
        return all;
    }

    private static Map<String, String> redact(Map<String, String> values, java.util.function.Predicate<String> secret) {
        Map<String, String> out = new TreeMap<>();
        values.forEach((k, v) -> out.put(k, secret.test(k) ? REDACTED : v));
        return out;
    }

    @Override
    public String toString() {
        ServerConfig r = redacted();
        return "ServerConfig[name=" + r.name + ", transport=" + r.transport.wire() + ", endpoint=" + r.endpoint()
                + ", env=" + r.env + ", headers=" + r.headers + ", apiKey=" + r.apiKey + ", timeout=" + r.timeout + "]";
    }
}
