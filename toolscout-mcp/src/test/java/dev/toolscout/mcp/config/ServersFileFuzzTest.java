package dev.toolscout.mcp.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.mcp.upstream.SecretText;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerConfig.Transport;
import dev.toolscout.testing.LogCapture;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutates valid Claude Desktop-style servers files at random (characters deleted, inserted, flipped; spans
 * duplicated; invalid UTF-8 and other encodings; values of the wrong type; keys removed, renamed and repeated;
 * deep nesting; huge and odd Unicode strings; odd numbers, transport types and {@code ${VAR}} references) and
 * checks the loader's contract: it returns configs that keep {@link ServerConfig}'s rules, or throws a {@link
 * ServersFileException} whose message starts with the file; never any other exception or error. Also: a value
 * from the environment map never appears in an error message, and neither does a secret in the file (an {@code
 * apiKey}, a secret-named {@code env} or {@code headers} value) while the file is valid JSON with the secret only
 * there.
 *
 * <p>Prints its seed; rerun a failure with {@code -Dtests.seed=<seed>}.
 */
class ServersFileFuzzTest {
    private static final int ITERATIONS = 2_000;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    /** In every value of the environment map, which never appears in the file itself. */
    private static final String ENV_SECRET = "envsecret-7f3a";
    /** In the file's secret values. */
    private static final String FILE_SECRET = "filesecret-91c2";

    private static final Map<String, String> ENV = Map.of(
            "GITHUB_TOKEN", "ghp_" + ENV_SECRET,
            "TEAM", "core " + ENV_SECRET,
            "EMPTY", "",
            "DOLLAR", "$1 \\ ${TEAM} " + ENV_SECRET);
    private static final String DUP = "\u0001DUP\u0001";
    private static final SecretBox BOX = SecretBox.open(
            Path.of("unused"),
            Map.of(SecretBox.ENV_KEY, java.util.Base64.getEncoder().encodeToString(new byte[32])));
    private static final String DEEP = "\u0002DEEP\u0002";
    private static final Pattern DEEP_TEXT =
            Pattern.compile("\"\\\\u0002DEEP\\\\u0002(\\d+)([\\[{])\\\\u0002DEEP\\\\u0002\"");

    private enum Mutation {
        DELETE_CHARS,
        INSERT_CHARS,
        FLIP_CHARS,
        TRUNCATE,
        DUPLICATE_SPAN,
        RAW_BYTES,
        OTHER_ENCODING,
        SWAP_TYPE,
        REMOVE_KEY,
        RENAME_KEY,
        DUPLICATE_KEY,
        DEEP_NESTING,
        HUGE_STRING,
        ODD_STRING,
        ODD_FIELD,
        ODD_NUMBER,
        ODD_TYPE,
        ODD_REFERENCE
    }

    @TempDir
    Path dir;

    @Test
    void mutated_servers_files_load_valid_configs_or_fail_with_a_servers_file_exception_naming_the_file()
            throws IOException {
        long seed = Long.getLong("tests.seed", System.nanoTime());
        System.out.println("ServersFileFuzzTest seed: " + seed + " (rerun with -Dtests.seed=" + seed + ")");
        Random r = new Random(seed);
        String[] fileNames = {"servers.json", "claude_desktop_config.json", "my servers ü.json", "mcp.json5"};
        int loaded = 0;
        int rejected = 0;
        int secretChecks = 0;
        List<String> warnings;
        try (LogCapture log = LogCapture.of(ServersFile.class)) {
            for (int i = 0; i < ITERATIONS; i++) {
                ObjectNode doc = base(r);
                List<Mutation> applied = new ArrayList<>();
                boolean textual = false;
                int count = 1 + r.nextInt(3);
                for (int m = 0; m < count; m++) {
                    // the fields the loader reads get a larger share
                    Mutation mutation = r.nextInt(5) == 0
                            ? Mutation.ODD_FIELD
                            : Mutation.values()[r.nextInt(Mutation.values().length)];
                    if (mutation.ordinal() < Mutation.SWAP_TYPE.ordinal()) {
                        textual = true;
                    }
                    applied.add(mutation);
                }
                byte[] input = mutate(doc, applied, r);
                // without byte edits the file is valid JSON (duplicate keys aside) and its secrets are where they
                // belong
                boolean secretsInPlace = !textual && secretsOnlyInSecretPlaces(doc);
                Path file = dir.resolve(i % 7 + "-" + fileNames[r.nextInt(fileNames.length)]);
                Files.write(file, input);
                String context = "seed " + seed + ", iteration " + i + ", mutations " + applied;
                try {
                    List<ServerConfig> configs = ServersFile.load(file, ENV);
                    checkValid(configs, context);
                    if (secretsInPlace) {
                        checkSecretsNeverShown(configs, context);
                        secretChecks++;
                    }
                    loaded++;
                } catch (ServersFileException e) {
                    assertThat(e.getMessage()).as(context).startsWith("servers file " + file + ": ");
                    assertThat(e.file()).as(context).isEqualTo(file);
                    assertThat(e.getMessage())
                            .as(context + ": a value from the environment")
                            .doesNotContain(ENV_SECRET);
                    if (secretsInPlace) {
                        assertThat(e.getMessage())
                                .as(context + ": a secret from the file")
                                .doesNotContain(FILE_SECRET);
                        secretChecks++;
                    }
                    rejected++;
                } catch (RuntimeException | StackOverflowError e) {
                    throw new AssertionError(
                            context + ": expected configs or a ServersFileException, got " + e
                                    + "\ninput (first 2000 characters):\n" + preview(input),
                            e);
                }
            }
            warnings = log.warnings();
        }
        // what the loader skips it says, naming the file and the member, never a value from the environment
        assertThat(warnings)
                .as("seed " + seed)
                .isNotEmpty()
                .allSatisfy(w -> assertThat(w)
                        .startsWith("servers file " + dir)
                        .contains(": ignoring ")
                        .doesNotContain(ENV_SECRET));
        System.out.println("ServersFileFuzzTest: " + loaded + " loaded, " + rejected + " rejected (" + secretChecks
                + " checked for secrets)");
        // both outcomes occur, or the mutations are too weak (all loaded) or the bases broken (all rejected)
        assertThat(loaded).isGreaterThan(ITERATIONS / 20);
        assertThat(rejected).isGreaterThan(ITERATIONS / 4);
        assertThat(secretChecks).isPositive();
    }

    /** ServerConfig's rules, checked from outside, and by building each config again. */
    private static void checkValid(List<ServerConfig> configs, String context) {
        Set<String> prefixes = new HashSet<>();
        for (ServerConfig c : configs) {
            String what = context + ": loaded " + c;
            assertThat(new ServerConfig(
                            c.name(),
                            c.transport(),
                            c.command(),
                            c.args(),
                            c.env(),
                            c.cwd(),
                            c.url(),
                            c.headers(),
                            c.apiKey(),
                            c.timeout()))
                    .as(what)
                    .isEqualTo(c);
            assertThat(c.name())
                    .as(what)
                    .isNotBlank()
                    .isEqualTo(c.name().strip())
                    .hasSizeLessThanOrEqualTo(ServerConfig.MAX_NAME);
            assertThat(c.prefix()).as(what).isNotEmpty();
            assertThat(prefixes.add(c.prefix()))
                    .as(what + ": a second server with prefix " + c.prefix())
                    .isTrue();
            assertThat(c.timeout()).as(what).isPositive().isLessThanOrEqualTo(ServerConfig.MAX_TIMEOUT);
            assertThat(c.args()).as(what).doesNotContainNull();
            if (c.transport() == Transport.STDIO) {
                assertThat(c.command())
                        .as(what)
                        .isNotBlank()
                        .isEqualTo(c.command().strip());
                assertThat(c.url()).as(what).isNull();
                assertThat(c.headers()).as(what).isEmpty();
                assertThat(c.apiKey()).as(what).isNull();
                if (c.cwd() != null) {
                    assertThat(c.cwd()).as(what).isAbsolute();
                }
            } else {
                assertThat(c.command()).as(what).isNull();
                assertThat(c.url().getScheme().toLowerCase(Locale.ROOT))
                        .as(what)
                        .isIn("http", "https");
                assertThat(c.url().getHost()).as(what).isNotNull();
                assertThat(c.args()).as(what).isEmpty();
                assertThat(c.env()).as(what).isEmpty();
                assertThat(c.cwd()).as(what).isNull();
            }
        }
    }

    /**
     * Issue 14, item 5: a secret of the file (in a secret-named value, the URL's password or key, a token
     * argument) shows in no output of a loaded config and is sealed in its stored form. (Reading the stored
     * form back is not compared here: a secret holding an unpaired surrogate does not survive UTF-8 sealing.)
     */
    private static void checkSecretsNeverShown(List<ServerConfig> configs, String context) {
        for (ServerConfig c : configs) {
            String what = context + ": loaded " + c.name();
            assertThat(c.toString()).as(what).doesNotContain(FILE_SECRET);
            assertThat(c.endpoint()).as(what).doesNotContain(FILE_SECRET);
            String stored = ServerConfigJson.write(c, BOX);
            assertThat(stored).as(what).doesNotContain(FILE_SECRET);
        }
    }

    // --- valid files to start from ---

    private static ObjectNode base(Random r) {
        ObjectNode servers = F.objectNode();
        String[] names = {
            "filesystem",
            "github",
            "copilot",
            "legacy",
            "My Server",
            "café",
            "memory_2",
            "a",
            "n".repeat(48),
            " spaced ",
            "web-search",
            "Ünïcödé tools",
            "x😀y"
        };
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            String name = names[r.nextInt(names.length)] + (i == 0 ? "" : "-" + i);
            if (name.strip().length() > ServerConfig.MAX_NAME) {
                name = "s" + i;
            }
            servers.set(name, r.nextInt(3) == 0 ? http(r) : stdio(r));
        }
        if (servers.isEmpty() || r.nextInt(8) != 0) {
            ObjectNode root = F.objectNode();
            if (r.nextBoolean()) {
                root.put("globalShortcut", "");
            }
            root.set(ServersFile.SERVERS, servers);
            if (r.nextInt(4) == 0) {
                root.putObject("preferences").put("theme", "dark");
            }
            return root;
        }
        return servers; // the bare map of servers, also accepted
    }

    private static ObjectNode stdio(Random r) {
        ObjectNode s = F.objectNode();
        if (r.nextInt(5) == 0) {
            s.put("type", "stdio");
        }
        s.put("command", pick(r, "npx", "docker", "node", "/usr/local/bin/server", "uvx", "python3"));
        ArrayNode args = s.putArray("args");
        for (int i = r.nextInt(5); i > 0; i--) {
            args.add(pick(
                    r,
                    "-y",
                    "@modelcontextprotocol/server-filesystem",
                    "/tmp",
                    "run",
                    "-i",
                    "--rm",
                    "${TEAM}",
                    "é中😀",
                    "",
                    "--api-key=" + FILE_SECRET + "-flag",
                    "API_TOKEN=" + FILE_SECRET + "-assign"));
        }
        if (r.nextInt(4) == 0) {
            // a token as the argument after its flag (issue 14, item 5)
            args.add(pick(r, "--token", "--access-token", "-api-key"));
            args.add(FILE_SECRET + "-arg");
        }
        if (r.nextBoolean()) {
            ObjectNode env = s.putObject("env");
            env.put("GITHUB_PERSONAL_ACCESS_TOKEN", r.nextBoolean() ? "${GITHUB_TOKEN}" : FILE_SECRET + "-env");
            env.put("DEBUG", pick(r, "1", "${TEAM}", "${UNSET:-fallback}", "x-${EMPTY}-${DOLLAR}"));
            if (r.nextBoolean()) {
                env.put("API_KEY", FILE_SECRET + "-key");
            }
        }
        if (r.nextInt(4) == 0) {
            s.put("cwd", pick(r, "servers", "/opt/mcp", "../x/./y", "é"));
        }
        if (r.nextInt(4) == 0) {
            s.put("timeoutMs", 1 + r.nextInt(600_000));
        }
        if (r.nextInt(6) == 0) {
            s.put("disabled", r.nextBoolean());
        }
        if (r.nextInt(6) == 0) {
            s.putArray("alwaysAllow").add("read_file");
        }
        return s;
    }

    private static ObjectNode http(Random r) {
        ObjectNode s = F.objectNode();
        if (r.nextBoolean()) {
            s.put("type", pick(r, "http", "sse", "streamable-http", "streamableHttp", "SSE"));
        }
        s.put(
                "url",
                pick(
                        r,
                        "https://api.githubcopilot.com/mcp/",
                        "http://localhost:8931/sse",
                        "https://x.example/mcp",
                        "http://127.0.0.1:3000/mcp?x=1#f",
                        "https://user:" + FILE_SECRET + "-pw@x.example/mcp",
                        "https://x.example/mcp?api_key=" + FILE_SECRET + "-q&team=core",
                        "https://" + FILE_SECRET + "-tok@x.example/",
                        "http://h.example/sse?key=" + FILE_SECRET + "-k&token=" + FILE_SECRET + "-t"));
        if (r.nextBoolean()) {
            ObjectNode headers = s.putObject("headers");
            headers.put("Authorization", r.nextBoolean() ? "Bearer ${GITHUB_TOKEN}" : "Bearer " + FILE_SECRET + "-h");
            headers.put("X-Team", "${TEAM}");
        }
        if (r.nextBoolean()) {
            s.put("apiKey", r.nextBoolean() ? "${LEGACY_KEY:-" + FILE_SECRET + "-default}" : FILE_SECRET + "-apikey");
        }
        if (r.nextInt(3) == 0) {
            s.put("timeoutMs", 1 + r.nextInt(600_000));
        }
        return s;
    }

    // --- mutations ---

    private static byte[] mutate(ObjectNode doc, List<Mutation> mutations, Random r) throws IOException {
        // tree edits first, on the document; then the text edits, on its serialization
        for (Mutation m : mutations) {
            switch (m) {
                case SWAP_TYPE -> replaceRandomNode(doc, r, randomValue(r));
                case REMOVE_KEY -> {
                    ObjectNode o = randomObject(doc, r);
                    if (!o.isEmpty()) {
                        o.remove(randomKey(o, r));
                    }
                }
                case RENAME_KEY -> {
                    ObjectNode o = randomObject(doc, r);
                    if (!o.isEmpty()) {
                        String key = randomKey(o, r);
                        JsonNode value = o.remove(key);
                        o.set(
                                pick(
                                        r,
                                        "command",
                                        "url",
                                        "type",
                                        "args",
                                        "env",
                                        "cwd",
                                        "headers",
                                        "apiKey",
                                        "timeoutMs",
                                        "disabled",
                                        "mcpServers",
                                        "",
                                        " ",
                                        "API_TOKEN",
                                        "\u0000",
                                        "\ud800",
                                        "é😀",
                                        "x".repeat(60_000),
                                        " github ",
                                        "GitHub",
                                        "$" + "{TEAM}",
                                        key + "\u0301"),
                                value);
                    }
                }
                case DUPLICATE_KEY -> {
                    ObjectNode o = randomObject(doc, r);
                    if (!o.isEmpty()) {
                        String key = randomKey(o, r);
                        o.set(DUP + key, r.nextBoolean() ? o.get(key) : randomValue(r));
                    }
                }
                case DEEP_NESTING -> {
                    // a placeholder, expanded in the text: Jackson would refuse to write the tree
                    int depth = r.nextBoolean() ? 1 + r.nextInt(900) : 900 + r.nextInt(20_000);
                    replaceRandomNode(doc, r, F.textNode(DEEP + depth + (r.nextBoolean() ? "[" : "{") + DEEP));
                }
                case HUGE_STRING ->
                    replaceRandomNode(
                            doc,
                            r,
                            F.textNode(pick(r, "a", "é", "😀", "${TEAM}", "\\", " ")
                                    .repeat(r.nextInt(10) == 0 ? 1_000_000 : 70_000)));
                case ODD_STRING -> replaceRandomNode(doc, r, F.textNode(oddString(r)));
                case ODD_FIELD -> {
                    // a field the loader reads, set to an odd string or a value of another type
                    ObjectNode server = randomServer(doc, r);
                    if (server != null) {
                        String field = pick(
                                r,
                                "command",
                                "args",
                                "env",
                                "cwd",
                                "url",
                                "type",
                                "headers",
                                "apiKey",
                                "timeoutMs",
                                "disabled");
                        JsonNode value = switch (r.nextInt(3)) {
                            case 0 -> F.textNode(oddString(r));
                            case 1 -> F.textNode(oddFor(field, r));
                            default -> randomValue(r);
                        };
                        if ((field.equals("args") || field.equals("env") || field.equals("headers"))
                                && r.nextBoolean()) {
                            value = field.equals("args")
                                    ? F.arrayNode().add(oddString(r)).add(randomValue(r))
                                    : F.objectNode()
                                            .put(pick(r, "API_TOKEN", "X", "", " ", oddString(r)), oddString(r));
                        }
                        server.set(field, value);
                    }
                }
                case ODD_NUMBER -> {
                    JsonNode number = switch (r.nextInt(9)) {
                        case 0 -> F.numberNode(0);
                        case 1 -> F.numberNode(-1);
                        case 2 -> F.numberNode(600_001);
                        case 3 -> F.numberNode(1.5);
                        case 4 -> F.numberNode(new BigInteger("99999999999999999999999999"));
                        case 5 -> F.numberNode(Long.MIN_VALUE);
                        case 6 -> F.numberNode(1e300);
                        case 7 -> F.numberNode(600_000);
                        default -> F.textNode("60000");
                    };
                    ObjectNode server = randomServer(doc, r);
                    if (server != null && r.nextBoolean()) {
                        server.set("timeoutMs", number);
                    } else {
                        replaceRandomNode(doc, r, number);
                    }
                }
                case ODD_TYPE -> {
                    ObjectNode server = randomServer(doc, r);
                    if (server != null) {
                        server.put(
                                "type",
                                pick(
                                        r,
                                        "websocket",
                                        "",
                                        " http ",
                                        "STDIO",
                                        "Streamable-HTTP",
                                        "streamable_http",
                                        "ſse",
                                        "İTTP",
                                        "stdio\u0000"));
                    }
                }
                case ODD_REFERENCE -> {
                    ObjectNode server = randomServer(doc, r);
                    if (server != null) {
                        String value = pick(
                                r,
                                "${UNSET}",
                                "${A:-}",
                                "${UNSET:-x}y}",
                                "$${TEAM}",
                                "${",
                                "${1A}",
                                "${TEAM",
                                "${DOLLAR}",
                                "${UNSET:-$1\\}",
                                "${ TEAM }",
                                "${TEAM:-${UNSET}}",
                                "${API_TOKEN}");
                        switch (r.nextInt(3)) {
                            case 0 -> server.put("apiKey", value);
                            case 1 -> objectIn(server, "headers").put(pick(r, "Authorization", "X-Team"), value);
                            default -> objectIn(server, "env").put(pick(r, "API_TOKEN", "DEBUG"), value);
                        }
                    }
                }
                default -> {
                    // a text edit, below
                }
            }
        }
        ObjectWriter writer = r.nextBoolean() ? MAPPER.writerWithDefaultPrettyPrinter() : MAPPER.writer();
        if (r.nextInt(4) == 0) {
            // unicode escapes: the only way a lone surrogate or a control character reaches the parser
            writer = writer.with(JsonWriteFeature.ESCAPE_NON_ASCII);
        }
        String text = writer.writeValueAsString(doc);
        // a repeated key: the copy written under its own name, next to the original
        text = text.replaceAll("\"\\\\u0001DUP\\\\u0001", "\"");
        Matcher deep = DEEP_TEXT.matcher(text);
        StringBuilder nested = new StringBuilder();
        while (deep.find()) {
            int depth = Integer.parseInt(deep.group(1));
            boolean arrays = deep.group(2).equals("[");
            String value =
                    (arrays ? "[" : "{\"command\":").repeat(depth) + "\"core\"" + (arrays ? "]" : "}").repeat(depth);
            deep.appendReplacement(nested, Matcher.quoteReplacement(value));
        }
        text = deep.appendTail(nested).toString();
        byte[] bytes = text.getBytes(UTF_8);
        for (Mutation m : mutations) {
            bytes = switch (m) {
                case DELETE_CHARS ->
                    edit(
                            new String(bytes, UTF_8),
                            r,
                            (sb, at) -> sb.delete(at, Math.min(sb.length(), at + 1 + r.nextInt(3))));
                case INSERT_CHARS ->
                    edit(
                            new String(bytes, UTF_8),
                            r,
                            (sb, at) -> sb.insert(
                                    at,
                                    pick(
                                            r, "{", "}", "[", "]", "\"", ":", ",", "\\", "\\u", "0", "-", "e", "null",
                                            "true", " ", "\u0000", "\t", "\n", "é", "😀", "\ud800", "${", "/*", "//",
                                            "'")));
                case FLIP_CHARS ->
                    edit(new String(bytes, UTF_8), r, (sb, at) -> {
                        if (at < sb.length()) {
                            sb.setCharAt(at, (char) (r.nextBoolean() ? r.nextInt(128) : r.nextInt(0x10000)));
                        }
                    });
                case TRUNCATE -> java.util.Arrays.copyOf(bytes, r.nextInt(bytes.length + 1));
                case DUPLICATE_SPAN -> {
                    String t = new String(bytes, UTF_8);
                    int from = r.nextInt(t.length() + 1);
                    int to = Math.min(t.length(), from + r.nextInt(200));
                    int at = r.nextInt(t.length() + 1);
                    yield new StringBuilder(t)
                            .insert(at, t.substring(from, to))
                            .toString()
                            .getBytes(UTF_8);
                }
                case RAW_BYTES -> {
                    byte[] b = bytes.clone();
                    for (int k = 1 + r.nextInt(4); k > 0 && b.length > 0; k--) {
                        b[r.nextInt(b.length)] = (byte) (0x80 + r.nextInt(0x80));
                    }
                    yield b;
                }
                case OTHER_ENCODING -> {
                    String t = new String(bytes, UTF_8);
                    yield switch (r.nextInt(4)) {
                        case 0 -> t.getBytes(StandardCharsets.UTF_16BE);
                        case 1 -> t.getBytes(StandardCharsets.UTF_16); // with a byte order mark
                        case 2 -> ("\ufeff" + t).getBytes(UTF_8);
                        default -> t.getBytes(StandardCharsets.ISO_8859_1);
                    };
                }
                default -> bytes;
            };
        }
        return bytes;
    }

    private interface Edit {
        void apply(StringBuilder sb, int at);
    }

    private static byte[] edit(String text, Random r, Edit edit) {
        StringBuilder sb = new StringBuilder(text);
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            edit.apply(sb, r.nextInt(sb.length() + 1));
        }
        return sb.toString().getBytes(UTF_8);
    }

    private static JsonNode randomValue(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(r.nextBoolean());
            case 2 -> F.numberNode(r.nextInt());
            case 3 -> F.numberNode(r.nextDouble() * 1e6);
            case 4 -> F.textNode(oddString(r));
            case 5 -> F.arrayNode();
            case 6 -> F.arrayNode().add("x").add(1).addNull().add(F.objectNode());
            case 7 -> F.objectNode();
            case 8 -> F.objectNode().put("command", "npx");
            case 9 -> F.objectNode().put("url", "https://x.example");
            case 10 -> F.textNode("");
            default -> F.numberNode(new BigInteger("1" + "0".repeat(r.nextInt(40))));
        };
    }

    /** Values at the edge of what one field accepts. */
    private static String oddFor(String field, Random r) {
        return switch (field) {
            case "cwd" ->
                pick(r, "\u0000", "a\u0000b", "", " ", "..", "/", "~", "C:\\x", "é", "./" + "d/".repeat(2000));
            case "url" ->
                pick(
                        r,
                        "http://",
                        "https://[::1",
                        "http://exa mple.com",
                        "HTTP://X.EXAMPLE",
                        "http://ü.example",
                        "http://:80",
                        "https://@/",
                        "",
                        " https://x.example ",
                        "https://x.example:99999",
                        "ftp://x.example",
                        "https://x.example/%zz",
                        "http://[fe80::1%25eth0]/");
            case "command" -> pick(r, "", " ", "\u0000", "npx\u0000", "\t", "é", "${TEAM}");
            case "type" -> pick(r, "", "SSE", " stdio ", "Http", "streamable-HTTP", "stdio\u0000", "ſse");
            default -> oddString(r);
        };
    }

    private static String oddString(Random r) {
        String[] parts = {
            "",
            " ",
            "\u0000",
            "\u0007",
            "\t",
            "\n",
            "\r",
            "\\",
            "\"",
            "${TEAM}",
            "${UNSET}",
            "$",
            "\ud800",
            "\udc00",
            "😀",
            "\u202e",
            "e\u0301",
            "ﬀ",
            "İ",
            "ß",
            "http://",
            "https://x",
            "http://[::1",
            "https://exa mple.com",
            "file:///etc/passwd",
            "HTTP://X.EXAMPLE",
            "//x",
            "mailto:a@b",
            "../..",
            "/",
            "~",
            "\u3000",
            "\u2028",
            "a".repeat(300),
            "0",
            "-",
            "_",
            "__",
            "NUL"
        };
        StringBuilder sb = new StringBuilder();
        for (int i = 1 + r.nextInt(4); i > 0; i--) {
            sb.append(parts[r.nextInt(parts.length)]);
        }
        return sb.toString();
    }

    /** Replaces a random node below the root (a member or an element) with {@code value}. */
    private static void replaceRandomNode(ObjectNode root, Random r, JsonNode value) {
        List<JsonNode> containers = new ArrayList<>();
        collectContainers(root, containers);
        JsonNode c = containers.get(r.nextInt(containers.size()));
        if (c instanceof ObjectNode o && !o.isEmpty()) {
            o.set(randomKey(o, r), value);
        } else if (c instanceof ArrayNode a && !a.isEmpty()) {
            a.set(r.nextInt(a.size()), value);
        } else if (c instanceof ObjectNode o) {
            o.set(pick(r, "command", "url", "mcpServers", "x"), value);
        } else if (c instanceof ArrayNode a) {
            a.add(value);
        }
    }

    private static ObjectNode randomObject(ObjectNode root, Random r) {
        List<JsonNode> containers = new ArrayList<>();
        collectContainers(root, containers);
        List<ObjectNode> objects = new ArrayList<>();
        containers.forEach(c -> {
            if (c instanceof ObjectNode o) {
                objects.add(o);
            }
        });
        return objects.get(r.nextInt(objects.size()));
    }

    /** The object member {@code field} of {@code server}, put in place of whatever was there. */
    private static ObjectNode objectIn(ObjectNode server, String field) {
        return server.get(field) instanceof ObjectNode o ? o : server.putObject(field);
    }

    /** A server object of the document, or null when it has none. */
    private static ObjectNode randomServer(ObjectNode root, Random r) {
        JsonNode servers = root.has(ServersFile.SERVERS) ? root.get(ServersFile.SERVERS) : root;
        List<ObjectNode> found = new ArrayList<>();
        if (servers instanceof ObjectNode o) {
            o.properties().forEach(e -> {
                if (e.getValue() instanceof ObjectNode s) {
                    found.add(s);
                }
            });
        }
        return found.isEmpty() ? null : found.get(r.nextInt(found.size()));
    }

    private static void collectContainers(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode() && out.size() < 10_000) {
            out.add(node);
            node.forEach(child -> collectContainers(child, out));
        }
    }

    private static String randomKey(ObjectNode o, Random r) {
        List<String> keys = new ArrayList<>();
        o.fieldNames().forEachRemaining(keys::add);
        return keys.get(r.nextInt(keys.size()));
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... options) {
        return options[r.nextInt(options.length)];
    }

    /**
     * Whether the file's secret marker occurs only as an {@code apiKey} value or as the value of a secret-named
     * {@code env} or {@code headers} member of a server: the places whose values errors must not quote.
     */
    private static boolean secretsOnlyInSecretPlaces(ObjectNode root) {
        ObjectNode copy = root.deepCopy();
        JsonNode copiedServers = copy.has(ServersFile.SERVERS) ? copy.get(ServersFile.SERVERS) : copy;
        if (copiedServers instanceof ObjectNode o) {
            // blank out the allowed places, then look for the marker anywhere else
            o.properties().forEach(e -> {
                if (e.getValue() instanceof ObjectNode server) {
                    if (server.get("apiKey") != null && server.get("apiKey").isTextual()) {
                        server.put("apiKey", "");
                    }
                    if (server.get("url") != null && server.get("url").isTextual()) {
                        server.put("url", SecretText.urlText(server.get("url").textValue()));
                    }
                    if (server.get("args") instanceof ArrayNode args) {
                        List<String> values = new ArrayList<>();
                        args.forEach(a -> values.add(a.isTextual() ? a.textValue() : ""));
                        if (args.size() == values.size()) {
                            args.removeAll();
                            SecretText.args(values).forEach(args::add);
                        }
                    }
                    for (String map : List.of("env", "headers")) {
                        if (server.get(map) instanceof ObjectNode values) {
                            values.properties().forEach(v -> {
                                if (ServerConfig.isSecretName(v.getKey())
                                        && v.getValue().isTextual()) {
                                    v.setValue(F.textNode(""));
                                }
                            });
                        }
                    }
                }
            });
        }
        return !copy.toString().contains(FILE_SECRET) && !keysContain(copy, FILE_SECRET);
    }

    private static boolean keysContain(JsonNode node, String s) {
        if (node instanceof ObjectNode o) {
            for (var e : o.properties()) {
                if (e.getKey().contains(s) || keysContain(e.getValue(), s)) {
                    return true;
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (JsonNode child : a) {
                if (keysContain(child, s)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String preview(byte[] input) {
        return new String(input, 0, Math.min(input.length, 2000), UTF_8);
    }
}
