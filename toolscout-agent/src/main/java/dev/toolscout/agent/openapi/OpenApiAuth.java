package dev.toolscout.agent.openapi;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The credential an imported API is called with. The secret itself is never here in the clear: either the name
 * of an environment variable read at each call ({@code secretEnv}), or the secret sealed with the data
 * directory's {@code SecretBox} ({@code sealedSecret}). Neither ever reaches a tool definition, a log line or
 * an error message.
 *
 * @param type how the secret is sent
 * @param header the header for {@link Type#HEADER} ({@code X-API-Key}), else {@code null}
 * @param username the user for {@link Type#BASIC}, else {@code null}
 * @param secretEnv the environment variable holding the secret, or {@code null}
 * @param sealedSecret the sealed secret ({@code enc:v1:...}), or {@code null}; exactly one of the two is given
 */
public record OpenApiAuth(Type type, String header, String username, String secretEnv, String sealedSecret) {
    private static final Pattern HEADER_NAME = Pattern.compile("^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$");
    /** Headers the HTTP client sets itself (the JDK's restricted ones) or the request's own handling does. */
    private static final java.util.Set<String> RESERVED_HEADERS =
            java.util.Set.of("host", "connection", "content-length", "expect", "upgrade", "content-type", "accept");

    private static final Pattern ENV_NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,127}$");

    /** How the secret is sent. */
    public enum Type {
        /** {@code Authorization: Bearer <secret>}. */
        BEARER,
        /** {@code <header>: <secret>} (an API key header). */
        HEADER,
        /** {@code Authorization: Basic base64(<username>:<secret>)}. */
        BASIC;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public OpenApiAuth {
        Objects.requireNonNull(type, "type");
        if (type == Type.HEADER
                && (header == null || !HEADER_NAME.matcher(header).matches())) {
            throw new IllegalArgumentException(
                    "an API key header needs a header name of letters, digits and -, got: '" + header + "'");
        }
        if (type == Type.HEADER && RESERVED_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("an API key header cannot be one the HTTP request sets itself "
                    + RESERVED_HEADERS.stream().sorted().toList() + ", got: '" + header + "'");
        }
        if (type != Type.HEADER) {
            header = null;
        }
        if (type == Type.BASIC
                && (username == null
                        || username.isEmpty()
                        || username.contains(":")
                        || username.chars().anyMatch(Character::isISOControl))) {
            throw new IllegalArgumentException("basic authentication needs a user name without ':' or control "
                    + "characters, got: '" + username + "'");
        }
        if (type != Type.BASIC) {
            username = null;
        }
        if ((secretEnv == null) == (sealedSecret == null)) {
            throw new IllegalArgumentException("a credential takes its secret from an environment variable or from the "
                    + "sealed store, exactly one of them");
        }
        if (secretEnv != null && !ENV_NAME.matcher(secretEnv).matches()) {
            throw new IllegalArgumentException(
                    "an environment variable name must match " + ENV_NAME.pattern() + ", got: '" + secretEnv + "'");
        }
    }

    /** The header the secret goes in ({@code Authorization} or the API key header). */
    public String headerName() {
        return type == Type.HEADER ? header : "Authorization";
    }

    /** What the credential is, without the secret: {@code bearer token from the environment variable X}. */
    public String describe() {
        String what = switch (type) {
            case BEARER -> "bearer token";
            case HEADER -> "API key in header " + header;
            case BASIC -> "basic authentication as " + username;
        };
        return what + (secretEnv != null ? " from the environment variable " + secretEnv : " (sealed in the store)");
    }

    /** Leaves the sealed secret out. */
    @Override
    public String toString() {
        return "OpenApiAuth[" + describe() + "]";
    }
}
