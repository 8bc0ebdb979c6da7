package dev.toolscout.mcp.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.toolscout.mcp.upstream.SecretText;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerConfig.Transport;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads upstream MCP servers from a JSON file shaped like Claude Desktop's {@code claude_desktop_config.json},
 * so users can point ToolScout at the file they already have:
 *
 * <pre>{@code
 * {"mcpServers": {
 *   "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
 *                  "env": {"DEBUG": "1"}, "cwd": "servers"},
 *   "github":     {"type": "http", "url": "https://api.githubcopilot.com/mcp/",
 *                  "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}, "timeoutMs": 60000},
 *   "legacy":     {"type": "sse", "url": "http://localhost:8080/sse", "apiKey": "${LEGACY_KEY}"},
 *   "old":        {"command": "old-server", "disabled": true}}}
 * }</pre>
 *
 * <p>Per server: {@code command} makes a stdio server ({@code args}, {@code env}, {@code cwd} optional; a
 * relative {@code cwd} is resolved against the file's directory); {@code url} makes a Streamable HTTP server,
 * or an SSE-only one when {@code type} is {@code "sse"} ({@code type} may also be {@code "http"}, {@code
 * "streamable-http"}, {@code "streamableHttp"} or {@code "stdio"}, and must agree with command/url). ToolScout
 * adds {@code apiKey} (sent later as {@code Authorization: Bearer <key>}), {@code timeoutMs} and honours
 * Claude Desktop's {@code "disabled": true} by skipping the server without validating it further, and lets the
 * operator mark secrets the rules would not find ({@code "secretArgs": ["--conn", 2]}: the value of a flag, or
 * the argument at a 0-based position; {@code "secretHeaders"}, {@code "secretEnv"}: names), which are then
 * sealed at rest and shown as {@code ***} ({@link ServerConfig.SecretMarks}).
 *
 * <p>{@code ${VAR}} (and {@code ${VAR:-default}}) in {@code env} values, {@code headers} values and {@code
 * apiKey} is replaced from the environment map; a variable that is not set (and has no default) is an error.
 * Nothing else is expanded.
 *
 * <p>The top-level object must have {@code "mcpServers"}; other top-level members (Claude Desktop keeps its
 * own settings there) are ignored. A top-level object without {@code "mcpServers"} is read as the map of
 * servers itself only when it is unambiguous: non-empty, and every member an object with {@code command} or
 * {@code url}. Anything else is rejected.
 *
 * <p>Lenient on the wire: an unknown member of a server is ignored with a warning that names it; a member
 * that does not fit the server's transport ({@code headers} on a stdio server, {@code args} on an HTTP one)
 * likewise. Everything that is understood but wrong is a {@link ServersFileException} naming the file, the
 * JSON path, the rule and the bad value (secret values are never quoted). Duplicate keys are errors, as are
 * two servers whose names give the same tool prefix. Stateless and thread-safe.
 */
public final class ServersFile {
    private static final Logger LOG = LoggerFactory.getLogger(ServersFile.class);

    /** The member that holds the servers, as in Claude Desktop's file. */
    public static final String SERVERS = "mcpServers";

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private static final Set<String> STDIO_ONLY = Set.of("args", "env", "cwd", "secretArgs", "secretEnv");
    private static final Set<String> HTTP_ONLY = Set.of("headers", "apiKey", "secretHeaders");
    private static final Set<String> KNOWN = Set.of(
            "command",
            "args",
            "env",
            "cwd",
            "url",
            "type",
            "headers",
            "apiKey",
            "timeoutMs",
            "disabled",
            "secretArgs",
            "secretHeaders",
            "secretEnv");
    private static final Map<String, Transport> TYPES = Map.of(
            "stdio", Transport.STDIO,
            "http", Transport.HTTP,
            "streamable-http", Transport.HTTP,
            "streamablehttp", Transport.HTTP,
            "sse", Transport.SSE);
    private static final String TYPE_NAMES = "stdio, http, streamable-http, streamableHttp, sse";

    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    private static final int MAX_QUOTED = 80;

    private ServersFile() {}

    /** {@link #load(Path, Map)} with the process environment. */
    public static List<ServerConfig> load(Path file) {
        return load(file, System.getenv());
    }

    /**
     * The enabled servers of {@code file}, in the order the file lists them.
     *
     * @param env where {@code ${VAR}} references are looked up
     * @throws ServersFileException when the file is missing, unreadable, not JSON, or holds an invalid server
     */
    public static List<ServerConfig> load(Path file, Map<String, String> env) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(env, "env");
        JsonNode root = parse(file);
        return new Reader(file, env).servers(root);
    }

    private static JsonNode parse(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ServersFileException(
                    file, "", "does not exist (expected a JSON file with \"" + SERVERS + "\")", e);
        } catch (IOException e) {
            throw new ServersFileException(file, "", "cannot be read: " + e, e);
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new ServersFileException(file, "", "is not valid JSON" + where + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ServersFileException(file, "", "cannot be read: " + e, e);
        }
        if (root == null || root.isMissingNode()) {
            throw new ServersFileException(file, "", "is empty, expected a JSON object with \"" + SERVERS + "\"");
        }
        if (!root.isObject()) {
            throw new ServersFileException(
                    file, "", "the top level must be a JSON object with \"" + SERVERS + "\", got: " + describe(root));
        }
        return root;
    }

    /** Reads one file; holds the file and environment so that every error can name them. */
    private record Reader(Path file, Map<String, String> env) {

        List<ServerConfig> servers(JsonNode root) {
            JsonNode servers = root.get(SERVERS);
            String base = SERVERS;
            if (servers == null) {
                if (!looksLikeServerMap(root)) {
                    throw new ServersFileException(
                            file,
                            "",
                            "expected an object with \"" + SERVERS + "\" mapping server names to servers (as in "
                                    + "claude_desktop_config.json), got the members " + quoteNames(root));
                }
                servers = root;
                base = "";
            } else if (!servers.isObject()) {
                throw fail(SERVERS, "must be an object mapping server names to servers, got: " + describe(servers));
            }
            List<ServerConfig> out = new ArrayList<>();
            Map<String, String> namesByPrefix = new HashMap<>();
            for (Map.Entry<String, JsonNode> e : servers.properties()) {
                String path = join(base, e.getKey());
                ServerConfig config = server(e.getKey(), path, e.getValue());
                if (config == null) {
                    continue;
                }
                String earlier = namesByPrefix.putIfAbsent(config.prefix(), config.name());
                if (earlier != null) {
                    throw fail(
                            path,
                            earlier.equals(config.name())
                                    ? "server name '" + config.name()
                                            + "' is used twice (names are compared without leading "
                                            + "and trailing spaces)"
                                    : "server names '" + earlier + "' and '" + config.name()
                                            + "' both give the tool prefix '" + config.prefix()
                                            + "'; rename one of them");
                }
                out.add(config);
            }
            return List.copyOf(out);
        }

        /** A server, or null when it is disabled. */
        private ServerConfig server(String name, String path, JsonNode node) {
            if (!node.isObject()) {
                throw fail(path, "must be an object with \"command\" or \"url\", got: " + describe(node));
            }
            JsonNode disabled = node.get("disabled");
            if (disabled != null && !disabled.isNull()) {
                if (!disabled.isBoolean()) {
                    throw fail(path + ".disabled", "must be true or false, got: " + describe(disabled));
                }
                if (disabled.booleanValue()) {
                    LOG.info("servers file {}: skipping {}: it is disabled", file, path);
                    return null;
                }
            }
            String command = optionalText(node, path, "command", false);
            String url = optionalText(node, path, "url", false);
            String type = optionalText(node, path, "type", false);
            Transport transport = transport(path, command, url, type);
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                String key = member.getKey();
                if (!KNOWN.contains(key)) {
                    LOG.warn("servers file {}: ignoring unknown member {}.{}", file, path, key);
                } else if (transport == Transport.STDIO ? HTTP_ONLY.contains(key) : STDIO_ONLY.contains(key)) {
                    LOG.warn(
                            "servers file {}: ignoring {}.{}: it does not apply to a {} server",
                            file,
                            path,
                            key,
                            transport.wire());
                }
            }
            if (command != null && command.isBlank()) {
                throw fail(path + ".command", "must not be empty, got: " + quote(command));
            }
            URI uri = url == null ? null : url(path + ".url", url);
            List<String> args = List.of();
            Map<String, String> envVars = Map.of();
            Path cwd = null;
            Map<String, String> headers = Map.of();
            String apiKey = null;
            if (transport == Transport.STDIO) {
                args = args(node.get("args"), path + ".args");
                envVars = stringMap(node.get("env"), path + ".env");
                String dir = optionalText(node, path, "cwd", false);
                cwd = dir == null ? null : cwd(path + ".cwd", dir);
            } else {
                headers = stringMap(node.get("headers"), path + ".headers");
                apiKey = optionalText(node, path, "apiKey", true);
                if (apiKey != null) {
                    apiKey = expand(apiKey, path + ".apiKey");
                }
            }
            Duration timeout = timeout(node.get("timeoutMs"), path + ".timeoutMs");
            ServerConfig.SecretMarks marks;
            try {
                marks = ServerConfigJson.readMarks(node, path);
            } catch (IllegalArgumentException e) {
                throw new ServersFileException(file, path, e.getMessage().substring(path.length() + 2), e);
            }
            try {
                return new ServerConfig(
                        name,
                        transport,
                        command == null ? null : command.strip(),
                        args,
                        envVars,
                        cwd,
                        uri,
                        headers,
                        apiKey,
                        timeout,
                        marks);
            } catch (IllegalArgumentException e) {
                throw new ServersFileException(file, path, e.getMessage(), e);
            }
        }

        private Transport transport(String path, String command, String url, String type) {
            if (command != null && url != null) {
                throw fail(
                        path,
                        "a server takes either \"command\" (stdio) or \"url\" (http, sse), got both: command "
                                + quote(command) + " and url " + quote(SecretText.urlText(url)));
            }
            if (command == null && url == null) {
                throw fail(path, "a server needs \"command\" (stdio) or \"url\" (http, sse), got neither");
            }
            Transport byShape = command != null ? Transport.STDIO : Transport.HTTP;
            if (type == null) {
                return byShape;
            }
            Transport declared = TYPES.get(type.strip().toLowerCase(Locale.ROOT));
            if (declared == null) {
                throw fail(path + ".type", "must be one of " + TYPE_NAMES + ", got: " + quote(type));
            }
            if ((declared == Transport.STDIO) != (byShape == Transport.STDIO)) {
                throw fail(
                        path + ".type",
                        quote(type) + " does not fit a server with " + (command != null ? "\"command\"" : "\"url\"")
                                + (declared == Transport.STDIO
                                        ? " (a stdio server needs \"command\")"
                                        : " (an " + declared.wire() + " server needs \"url\")"));
            }
            return declared;
        }

        private URI url(String path, String text) {
            URI uri;
            try {
                uri = new URI(text.strip());
            } catch (URISyntaxException e) {
                throw fail(
                        path,
                        "must be an absolute http:// or https:// URL, got: " + quote(SecretText.urlText(text)) + " ("
                                + e.getReason() + " at index " + e.getIndex() + ")");
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw fail(
                        path,
                        "must be an absolute http:// or https:// URL with a host, got: "
                                + quote(SecretText.urlText(text)));
            }
            return uri;
        }

        private Path cwd(String path, String dir) {
            if (dir.isBlank()) {
                throw fail(path, "must not be empty, got: " + quote(dir));
            }
            try {
                Path base = file.toAbsolutePath().getParent();
                return base.resolve(dir).normalize();
            } catch (InvalidPathException e) {
                throw fail(path, "must be a valid directory path, got: " + quote(dir) + " (" + e.getReason() + ")");
            }
        }

        private List<String> args(JsonNode node, String path) {
            if (node == null || node.isNull()) {
                return List.of();
            }
            if (!node.isArray()) {
                throw fail(path, "must be an array of strings, got: " + describe(node));
            }
            List<String> out = new ArrayList<>(node.size());
            for (int i = 0; i < node.size(); i++) {
                JsonNode arg = node.get(i);
                if (!arg.isTextual()) {
                    throw fail(path + "[" + i + "]", "must be a string, got: " + describe(arg));
                }
                out.add(arg.textValue());
            }
            return out;
        }

        /** env or headers: names to string values, {@code ${VAR}} expanded. */
        private Map<String, String> stringMap(JsonNode node, String path) {
            if (node == null || node.isNull()) {
                return Map.of();
            }
            if (!node.isObject()) {
                throw fail(path, "must be an object of names to string values, got: " + describe(node));
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String key = e.getKey();
                String at = path + "." + key;
                if (key.isBlank()) {
                    throw fail(at, "names must not be blank, got: " + quote(key));
                }
                JsonNode value = e.getValue();
                if (!value.isTextual()) {
                    boolean secret = ServerConfig.isSecretName(key);
                    throw fail(
                            at,
                            "must be a string, got: "
                                    + (secret
                                            ? value.getNodeType().name().toLowerCase(Locale.ROOT)
                                                    + " (value not shown: the name marks a secret)"
                                            : describe(value)));
                }
                out.put(key, expand(value.textValue(), at));
            }
            return out;
        }

        private Duration timeout(JsonNode node, String path) {
            if (node == null || node.isNull()) {
                return null;
            }
            if (!node.isIntegralNumber() || !node.canConvertToLong()) {
                throw fail(path, "must be a whole number of milliseconds, got: " + describe(node));
            }
            long ms = node.longValue();
            if (ms <= 0 || ms > ServerConfig.MAX_TIMEOUT.toMillis()) {
                throw fail(
                        path,
                        "must be between 1 and " + ServerConfig.MAX_TIMEOUT.toMillis() + " milliseconds, got: " + ms);
            }
            return Duration.ofMillis(ms);
        }

        /** Replaces {@code ${VAR}} and {@code ${VAR:-default}} from the environment map. */
        private String expand(String value, String path) {
            Matcher m = VAR.matcher(value);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String name = m.group(1);
                String replacement = env.get(name);
                if (replacement == null) {
                    replacement = m.group(2);
                }
                if (replacement == null) {
                    throw fail(
                            path,
                            "refers to the environment variable ${" + name + "}, which is not set (set it, or write ${"
                                    + name + ":-default})");
                }
                m.appendReplacement(out, Matcher.quoteReplacement(replacement));
            }
            m.appendTail(out);
            return out.toString();
        }

        private String optionalText(JsonNode node, String path, String field, boolean secret) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isTextual()) {
                throw fail(
                        path + "." + field,
                        "must be a string, got: "
                                + (secret
                                        ? value.getNodeType().name().toLowerCase(Locale.ROOT)
                                                + " (value not shown: it is a secret)"
                                        : describe(value)));
            }
            return value.textValue();
        }

        private ServersFileException fail(String path, String problem) {
            return new ServersFileException(file, path, problem);
        }
    }

    /** Whether an object without "mcpServers" is unambiguously itself the map of servers. */
    private static boolean looksLikeServerMap(JsonNode root) {
        if (root.isEmpty()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            JsonNode v = e.getValue();
            if (!v.isObject() || !(v.has("command") || v.has("url"))) {
                return false;
            }
        }
        return true;
    }

    private static String quoteNames(JsonNode root) {
        List<String> names = new ArrayList<>();
        root.properties().forEach(e -> names.add(quote(e.getKey())));
        return names.isEmpty() ? "(none: the object is empty)" : String.join(", ", names);
    }

    private static String join(String base, String key) {
        // keys that are not plain identifiers are quoted, so the path stays unambiguous
        String part = key.matches("[A-Za-z0-9_-]+") ? key : "\"" + key.replace("\"", "\\\"") + "\"";
        return base.isEmpty() ? part : base + "." + part;
    }

    /** A JSON value for a message: its type and (shortened) text. */
    static String describe(JsonNode node) {
        String type = node.getNodeType().name().toLowerCase(Locale.ROOT);
        String text = node.toString();
        if (text.length() > MAX_QUOTED) {
            text = text.substring(0, MAX_QUOTED) + "...";
        }
        return node.isNull() ? "null" : type + " " + text;
    }

    static String quote(String s) {
        String text = s.length() > MAX_QUOTED ? s.substring(0, MAX_QUOTED) + "..." : s;
        return "'" + text + "'";
    }
}
