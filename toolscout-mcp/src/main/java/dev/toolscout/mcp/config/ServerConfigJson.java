package dev.toolscout.mcp.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.mcp.secret.SecretBox.UnsealException;
import dev.toolscout.mcp.upstream.SecretText;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerConfig.Transport;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored form of a {@link ServerConfig}: the JSON kept in the state store ({@code StoredServer.configJson}).
 *
 * <pre>{@code
 * {"format": 1, "name": "github", "transport": "http", "url": "https://api.example.com/mcp",
 *  "headers": {"Authorization": "enc:v1:...", "X-Team": "core"}, "apiKey": "enc:v1:...", "timeout": "PT30S"}
 * }</pre>
 *
 * <p>Secrets are sealed with a {@link SecretBox}: the {@code apiKey}, every header and environment
 * variable whose name {@link ServerConfig#isSecretName} marks, a {@code url} that holds a password or key
 * (whole) and each argument that holds a token ({@link SecretText}, whole); other values are plain, so they
 * can be read and diffed. A plain value that happens to start with {@value SecretBox#PREFIX} is sealed too, so that every
 * value that looks sealed is sealed and {@link #read} can unseal exactly those: a later change to {@code
 * isSecretName} never turns a stored value into garbage. A secret-named value stored plain (possible only
 * after {@code isSecretName} widened, or by hand) is read as it is, with a warning naming the field.
 * Absent optional fields are left out; maps are written in name order, so equal configs give equal JSON
 * apart from the random nonce in each sealed value.
 *
 * <p>Stateless and thread-safe.
 */
public final class ServerConfigJson {
    private static final Logger LOG = LoggerFactory.getLogger(ServerConfigJson.class);

    /** The format written; {@link #read} accepts only this one. */
    public static final int FORMAT = 1;

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private static final Set<String> KNOWN = Set.of(
            "format",
            "name",
            "transport",
            "command",
            "args",
            "env",
            "cwd",
            "url",
            "headers",
            "apiKey",
            "timeout",
            "secretArgs",
            "secretHeaders",
            "secretEnv");

    private ServerConfigJson() {}

    /** The stored JSON of {@code config}, its secrets sealed with {@code box}. */
    public static String write(ServerConfig config, SecretBox box) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(box, "box");
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("name", config.name());
        root.put("transport", config.transport().wire());
        if (config.command() != null) {
            root.put("command", config.command());
        }
        if (!config.args().isEmpty()) {
            ArrayNode args = root.putArray("args");
            List<String> shown = config.shownArgs();
            for (int i = 0; i < config.args().size(); i++) {
                String a = config.args().get(i);
                // an argument holding a secret (a token, "--api-key=...") is sealed whole
                args.add(!a.equals(shown.get(i)) || SecretBox.isSealed(a) ? box.seal(a) : a);
            }
        }
        if (!config.env().isEmpty()) {
            root.set("env", sealedMap(config.env(), config::isSecretEnv, box));
        }
        if (config.cwd() != null) {
            root.put("cwd", config.cwd().toString());
        }
        if (config.url() != null) {
            String url = config.url().toString();
            // a URL with a password or a key in it is sealed whole
            root.put("url", !url.equals(SecretText.url(config.url())) || SecretBox.isSealed(url) ? box.seal(url) : url);
        }
        if (!config.headers().isEmpty()) {
            root.set("headers", sealedMap(config.headers(), config::isSecretHeader, box));
        }
        if (config.apiKey() != null) {
            root.put("apiKey", box.seal(config.apiKey()));
        }
        root.put("timeout", config.timeout().toString());
        writeMarks(root, config.secretMarks());
        return root.toString();
    }

    /** {@code secretArgs} (flags as strings, positions as numbers), {@code secretHeaders}, {@code secretEnv}. */
    static void writeMarks(ObjectNode root, ServerConfig.SecretMarks marks) {
        if (!marks.args().isEmpty()) {
            ArrayNode a = root.putArray("secretArgs");
            marks.args().forEach(m -> {
                if (m.startsWith("-")) {
                    a.add(m);
                } else {
                    a.add(Integer.parseInt(m));
                }
            });
        }
        if (!marks.headers().isEmpty()) {
            marks.headers().forEach(root.putArray("secretHeaders")::add);
        }
        if (!marks.env().isEmpty()) {
            marks.env().forEach(root.putArray("secretEnv")::add);
        }
    }

    /**
     * What the operator marks secret in a server's entry {@code node} ({@code secretArgs}: flags as strings and
     * 0-based positions as numbers; {@code secretHeaders}, {@code secretEnv}: names).
     *
     * @throws IllegalArgumentException naming {@code where}, the field, the rule and the bad value
     */
    public static ServerConfig.SecretMarks readMarks(JsonNode node, String where) {
        List<List<String>> lists = new ArrayList<>();
        for (String field : List.of("secretArgs", "secretHeaders", "secretEnv")) {
            JsonNode n = node.get(field);
            List<String> out = new ArrayList<>();
            if (n != null && !n.isNull()) {
                if (!n.isArray()) {
                    throw new IllegalArgumentException(
                            where + ": " + field + " must be an array, got: " + ServersFile.describe(n));
                }
                for (int i = 0; i < n.size(); i++) {
                    JsonNode e = n.get(i);
                    if (e.isTextual()) {
                        out.add(e.textValue());
                    } else if (field.equals("secretArgs")
                            && e.isIntegralNumber()
                            && e.intValue() >= 0
                            && e.intValue() < 10_000) {
                        out.add(Integer.toString(e.intValue()));
                    } else {
                        throw new IllegalArgumentException(where + ": " + field + "[" + i + "] must be "
                                + (field.equals("secretArgs")
                                        ? "a flag (\"--conn\") or an argument position (0-9999)"
                                        : "a name")
                                + ", got: " + ServersFile.describe(e));
                    }
                }
            }
            lists.add(out);
        }
        try {
            return new ServerConfig.SecretMarks(lists.get(0), lists.get(1), lists.get(2));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * The config stored as {@code json}, its secrets unsealed with {@code box}.
     *
     * @throws IllegalArgumentException when {@code json} is not a stored server config of format {@value
     *     #FORMAT}; the message names the server (when known), the field, the rule and the bad value
     * @throws UnsealException when a secret was sealed with another key (or altered); the message names the
     *     server and the field, never the secret
     */
    public static ServerConfig read(String json, SecretBox box) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(box, "box");
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            String at = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new IllegalArgumentException(
                    "stored server config is not valid JSON" + at + ": " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("stored server config must be a JSON object, got: "
                    + (root == null || root.isMissingNode() ? "nothing" : ServersFile.describe(root)));
        }
        JsonNode format = root.get("format");
        if (format == null || !format.isIntegralNumber() || format.intValue() != FORMAT) {
            throw new IllegalArgumentException("stored server config" + nameFor(root) + " must have \"format\": "
                    + FORMAT + " (the only format this "
                    + "ToolScout reads; a larger one was written by a newer ToolScout), got: "
                    + (format == null ? "no format" : ServersFile.describe(format)));
        }
        String name = text(root, "name", "stored server config", true);
        String where = "stored server config '" + name + "'";
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            if (!KNOWN.contains(e.getKey())) {
                LOG.warn("{}: ignoring unknown field '{}'", where, e.getKey());
            }
        }
        String transportText = text(root, "transport", where, true);
        Transport transport;
        try {
            transport = Transport.valueOf(transportText.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    where + ": transport must be one of stdio, http, sse, got: '" + transportText + "'", e);
        }
        List<String> args = new ArrayList<>();
        JsonNode argsNode = root.get("args");
        if (argsNode != null) {
            if (!argsNode.isArray()) {
                throw new IllegalArgumentException(
                        where + ": args must be an array of strings, got: " + ServersFile.describe(argsNode));
            }
            for (int i = 0; i < argsNode.size(); i++) {
                if (!argsNode.get(i).isTextual()) {
                    throw new IllegalArgumentException(where + ": args[" + i + "] must be a string, got: "
                            + ServersFile.describe(argsNode.get(i)));
                }
                String a = argsNode.get(i).textValue();
                args.add(SecretBox.isSealed(a) ? unseal(a, where, "args[" + i + "]", box) : a);
            }
        }
        Map<String, String> env = unsealedMap(root, "env", where, box);
        Map<String, String> headers = unsealedMap(root, "headers", where, box);
        String cwdText = text(root, "cwd", where, false);
        String urlText = text(root, "url", where, false);
        boolean urlSealed = urlText != null && SecretBox.isSealed(urlText);
        if (urlSealed) {
            urlText = unseal(urlText, where, "url", box);
        }
        String sealedKey = text(root, "apiKey", where, false);
        String apiKey = sealedKey == null ? null : unseal(sealedKey, where, "apiKey", box);
        String timeoutText = text(root, "timeout", where, false);
        try {
            Path cwd = cwdText == null ? null : Path.of(cwdText);
            URI url = urlText == null ? null : new URI(urlText);
            Duration timeout = timeoutText == null ? null : Duration.parse(timeoutText);
            return new ServerConfig(
                    name,
                    transport,
                    text(root, "command", where, false),
                    args,
                    env,
                    cwd,
                    url,
                    headers,
                    apiKey,
                    timeout,
                    readMarks(root, where));
        } catch (URISyntaxException e) {
            // the reason, not the input: a sealed URL holds a secret
            throw new IllegalArgumentException(
                    where + ": url is not a valid URI: " + e.getReason()
                            + (urlSealed ? " (the url is sealed: not shown)" : ": " + urlText),
                    e);
        } catch (InvalidPathException | DateTimeParseException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " is invalid: " + e.getMessage(), e);
        }
    }

    private static ObjectNode sealedMap(
            Map<String, String> values, java.util.function.Predicate<String> secret, SecretBox box) {
        ObjectNode out = MAPPER.createObjectNode();
        new TreeMap<>(values).forEach((k, v) -> out.put(k, secret.test(k) || SecretBox.isSealed(v) ? box.seal(v) : v));
        return out;
    }

    private static Map<String, String> unsealedMap(JsonNode root, String field, String where, SecretBox box) {
        JsonNode node = root.get(field);
        if (node == null) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(where + ": " + field + " must be an object of names to strings, got: "
                    + ServersFile.describe(node));
        }
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String key = e.getKey();
            String path = field + "." + key;
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException(where + ": " + path + " must be a string, got: "
                        + e.getValue().getNodeType().name().toLowerCase(Locale.ROOT));
            }
            String value = e.getValue().textValue();
            if (SecretBox.isSealed(value)) {
                value = unseal(value, where, path, box);
            } else if (ServerConfig.isSecretName(key)) {
                LOG.warn("{}: {} holds a secret but is stored plain; save the server again to seal it", where, path);
            }
            out.put(key, value);
        }
        return out;
    }

    private static String unseal(String value, String where, String path, SecretBox box) {
        if (!SecretBox.isSealed(value)) {
            // write() always seals the api key
            throw new IllegalArgumentException(where + ": " + path + " holds a secret and must be stored sealed ('"
                    + SecretBox.PREFIX + "...'), got a plain value (not shown)");
        }
        try {
            return box.unseal(value);
        } catch (UnsealException e) {
            throw new UnsealException(where + ": " + path + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode root, String field, String where, boolean required) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw new IllegalArgumentException(where + ": " + field + " is required, got: none");
            }
            return null;
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException(
                    where + ": " + field + " must be a string, got: " + ServersFile.describe(node));
        }
        return node.textValue();
    }

    private static String nameFor(JsonNode root) {
        JsonNode name = root.get("name");
        return name != null && name.isTextual() ? " '" + name.textValue() + "'" : "";
    }
}
