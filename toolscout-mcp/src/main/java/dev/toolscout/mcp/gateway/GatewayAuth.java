package dev.toolscout.mcp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;

/**
 * Who an HTTP client is. With no API keys configured every client is the local single-user default (the
 * gateway binds to 127.0.0.1 unless told otherwise). With keys, each request must carry one, as {@code
 * Authorization: Bearer <key>} or {@code X-API-Key: <key>}, and runs as the principal the key maps to; a
 * request without a known key gets 401 and reaches nothing.
 *
 * <p>Keys file: {@code {"keys": [{"key": "...", "user": "alice", "group": "eng", "space": "team-a",
 * "role": "user"}]}}. {@code role} is {@code reader}, {@code user} or {@code admin} (see docs/SECURITY.md); an
 * entry without one is a {@code user}, never an admin. Keys are compared in constant time and never logged.
 */
public final class GatewayAuth implements Filter {
    public static final String PRINCIPAL_ATTRIBUTE = "toolscout.principal";
    /** The request attribute holding the {@link Caller}. */
    public static final String CALLER_ATTRIBUTE = "toolscout.caller";

    public static final int MIN_KEY_LENGTH = 16;

    private final Map<String, Caller> byKey;
    private final Caller local;

    private GatewayAuth(Map<String, Caller> byKey, Caller local) {
        this.byKey = Map.copyOf(byKey);
        this.local = local;
    }

    /** No keys: every client is {@code local}, with the user role. */
    public static GatewayAuth local(Principal local) {
        return new GatewayAuth(Map.of(), Caller.local(local, true));
    }

    /** Keys with the default role ({@link Role#DEFAULT}). */
    public static GatewayAuth of(Map<String, Principal> keys) {
        Map<String, Key> withRoles = new HashMap<>();
        keys.forEach((k, p) -> withRoles.put(k, new Key(p, Role.DEFAULT)));
        return withRoles(withRoles);
    }

    /** What one API key maps to. */
    public record Key(Principal principal, Role role) {}

    public static GatewayAuth withRoles(Map<String, Key> keys) {
        Map<String, Caller> out = new HashMap<>();
        keys.forEach((k, v) -> {
            checkKey(k);
            out.put(k, caller(k, v.principal(), v.role()));
        });
        return new GatewayAuth(out, null);
    }

    /** A key's caller; its id names the user, or a prefix of the key's hash when the entry names none. */
    private static Caller caller(String key, Principal p, Role role) {
        String id = p.user() != null
                ? "key:" + p.user()
                : "key:" + Hashing.sha256Hex(key).substring(0, 12);
        return new Caller(id, p, role, true);
    }

    /** Reads a keys file; errors name the file, the entry and the rule. */
    public static GatewayAuth load(Path file) throws IOException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("API keys file not found: " + file);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("API keys file " + file + " is not UTF-8 text");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // not the parser's message: it quotes the token it could not read, which may be a key
            com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
            throw new IllegalArgumentException("API keys file " + file + " is not JSON"
                    + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()));
        }
        JsonNode keys = root == null ? null : root.get("keys");
        if (keys == null || !keys.isArray() || keys.isEmpty()) {
            throw new IllegalArgumentException("API keys file " + file + ": \"keys\" must be a non-empty array of "
                    + "{\"key\", \"user\", \"group\", \"space\"} objects");
        }
        Map<String, Caller> out = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            JsonNode k = keys.get(i);
            String key = k.path("key").asText("");
            try {
                checkKey(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("API keys file " + file + ": keys[" + i + "]: " + e.getMessage());
            }
            Role role;
            try {
                role = k.hasNonNull("role") ? Role.parse(k.get("role").asText()) : Role.DEFAULT;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("API keys file " + file + ": keys[" + i + "]: " + e.getMessage());
            }
            Principal p = new Principal(text(k, "user"), text(k, "group"), text(k, "space"));
            if (out.put(key, caller(key, p, role)) != null) {
                throw new IllegalArgumentException(
                        "API keys file " + file + ": keys[" + i + "] repeats an earlier key");
            }
        }
        return new GatewayAuth(out, null);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static void checkKey(String key) {
        if (key == null || key.length() < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "key must be at least " + MIN_KEY_LENGTH + " characters, got: " + (key == null ? 0 : key.length()));
        }
    }

    /** The principals the keys map to (none without keys): the users, groups and spaces known to exist. */
    public java.util.List<Principal> keyPrincipals() {
        return byKey.values().stream().map(Caller::principal).toList();
    }

    /** Whether clients must present a key. */
    public boolean requiresKey() {
        return local == null;
    }

    /** The principal for a presented key (or the local default when no keys are configured), else null. */
    public Principal principal(String presentedKey) {
        Caller c = caller(presentedKey);
        return c == null ? null : c.principal();
    }

    /** The caller for a presented key (or the local one when no keys are configured), else null. */
    public Caller caller(String presentedKey) {
        if (local != null) {
            return local;
        }
        if (presentedKey == null) {
            return null;
        }
        byte[] given = presentedKey.getBytes(StandardCharsets.UTF_8);
        Caller found = null;
        for (Map.Entry<String, Caller> e : byKey.entrySet()) {
            if (MessageDigest.isEqual(given, e.getKey().getBytes(StandardCharsets.UTF_8))) {
                found = e.getValue();
            }
        }
        return found;
    }

    /** The key a request presents, as {@code X-API-Key: <key>} or {@code Authorization: Bearer <key>}, or null. */
    public static String presentedKey(HttpServletRequest req) {
        String key = req.getHeader("X-API-Key");
        String auth = req.getHeader("Authorization");
        if (key == null && auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            key = auth.substring(7).strip();
        }
        return key;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        String key = presentedKey(req);
        Caller c = caller(key);
        if (c == null) {
            HttpServletResponse resp = (HttpServletResponse) response;
            resp.setStatus(401);
            resp.setHeader("WWW-Authenticate", "Bearer");
            resp.setContentType("application/json");
            resp.getWriter()
                    .write("{\"error\":\""
                            + (key == null
                                    ? "an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>"
                                    : "unknown API key")
                            + "\"}");
            return;
        }
        req.setAttribute(PRINCIPAL_ATTRIBUTE, c.principal());
        req.setAttribute(CALLER_ATTRIBUTE, c);
        chain.doFilter(request, response);
    }
}
