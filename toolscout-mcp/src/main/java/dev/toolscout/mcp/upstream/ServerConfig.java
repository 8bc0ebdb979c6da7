package dev.toolscout.mcp.upstream;

import dev.toolscout.model.ToolNaming;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

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
    Duration timeout) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);
  public static final int MAX_NAME = 48;
  private static final Pattern SECRET_NAME =
      Pattern.compile("(?i).*(authorization|api[-_]?key|token|secret|password|passwd|credential|cookie).*");
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

  public ServerConfig {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("server name is required and must not be blank");
    }
    name = name.strip();
    if (name.length() > MAX_NAME) {
      throw new IllegalArgumentException(
          "server name must be at most " + MAX_NAME + " characters, got " + name.length() + ": '" + name + "'");
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
        throw new IllegalArgumentException("server '" + name + "': an " + transport.wire() + " server needs a url");
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
        throw new IllegalArgumentException(
            "server '" + name + "': an " + transport.wire() + " server takes a url, not a command: " + command);
      }
    }
    if (timeout == null) {
      timeout = DEFAULT_TIMEOUT;
    }
    if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0) {
      throw new IllegalArgumentException(
          "server '" + name + "': timeout must be between 1 ms and " + MAX_TIMEOUT.toMinutes() + " minutes, got: "
              + timeout);
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
    return new ServerConfig(name, transport, command, args, e, cwd, url, headers, apiKey, timeout);
  }

  public ServerConfig withCwd(Path dir) {
    return new ServerConfig(name, transport, command, args, env, dir, url, headers, apiKey, timeout);
  }

  public ServerConfig withHeaders(Map<String, String> h) {
    return new ServerConfig(name, transport, command, args, env, cwd, url, h, apiKey, timeout);
  }

  public ServerConfig withApiKey(String key) {
    return new ServerConfig(name, transport, command, args, env, cwd, url, headers, key, timeout);
  }

  public ServerConfig withTimeout(Duration t) {
    return new ServerConfig(name, transport, command, args, env, cwd, url, headers, apiKey, t);
  }

  /** The tool-name prefix of this server's tools. */
  public String prefix() {
    return ToolNaming.serverPrefix(name);
  }

  /** Whether a header or environment variable with this name holds a secret (and is sealed and redacted). */
  public static boolean isSecretName(String key) {
    return SECRET_NAME.matcher(key).matches();
  }

  /** This config with every secret value replaced by {@code ***}: what list commands and logs show. */
  public ServerConfig redacted() {
    return new ServerConfig(
        name, transport, command, SecretText.args(args), redact(env), cwd,
        url == null ? null : URI.create(SecretText.url(url)), redact(headers), apiKey == null ? null : REDACTED,
        timeout);
  }

  /** Where the server is: the command line or the URL, secrets redacted ({@link SecretText}). */
  public String endpoint() {
    return transport == Transport.STDIO ? String.join(" ", prefixWith(command, SecretText.args(args)))
        : SecretText.url(url);
  }

  /** Whether the URL or the arguments hold a secret (which storage then seals). */
  public boolean endpointHasSecret() {
    return !SecretText.args(args).equals(args) || (url != null && !SecretText.url(url).equals(url.toString()));
  }

  /**
   * Every secret value of this config: the API key, secret headers and environment variables, and the
   * secrets in the URL and the arguments.
   */
  public java.util.Set<String> secrets() {
    java.util.Set<String> out = new java.util.LinkedHashSet<>(SecretText.secrets(url, args));
    if (apiKey != null) {
      out.add(apiKey);
    }
    env.forEach((k, v) -> {
      if (isSecretName(k)) {
        out.add(v);
      }
    });
    headers.forEach((k, v) -> {
      if (isSecretName(k)) {
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

  private static Map<String, String> redact(Map<String, String> values) {
    Map<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> out.put(k, isSecretName(k) ? REDACTED : v));
    return out;
  }

  @Override
  public String toString() {
    ServerConfig r = redacted();
    return "ServerConfig[name=" + r.name + ", transport=" + r.transport.wire() + ", endpoint=" + r.endpoint()
        + ", env=" + r.env + ", headers=" + r.headers + ", apiKey=" + r.apiKey + ", timeout=" + r.timeout + "]";
  }
}
