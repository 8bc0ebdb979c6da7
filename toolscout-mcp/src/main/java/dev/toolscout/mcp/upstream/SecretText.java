package dev.toolscout.mcp.upstream;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the secrets people put where they do not belong (a password in a server URL, a token on a stdio
 * command line) and redacts them, so that every output can show a server's endpoint: {@code
 * https://user:***@host/mcp?api_key=***}, {@code server --token *** --api-key=***}. The rules:
 *
 * <ul>
 *   <li>URL: the password of the user-info part (the whole user-info when it has no password: a token used
 *       as a user name, as GitHub allows), and the value of every query parameter whose name {@link
 *       ServerConfig#isSecretName} marks or that is {@code key}, {@code sig}, {@code signature}, {@code auth},
 *       {@code pass} or {@code pwd}.
 *   <li>Argument: the value of {@code --name=value} and the argument after a flag {@code --name} when the
 *       name is a secret's as in a query ({@code --token}, {@code --api-key}, {@code --key}, {@code --password});
 *       the value of {@code NAME=value} when the name is a secret's ({@code API_TOKEN=...}); the value of {@code Name: value} (a header given on the
 *       command line, {@code Authorization: Bearer ...}); a URL, as above; and an argument that looks like a
 *       key by itself: a known token prefix ({@code sk-}, {@code ghp_}, {@code xoxb-}, {@code AKIA}, ...), 32 or
 *       more hex digits, or 32 or more letters and digits mixing upper case, lower case and digits.
 * </ul>
 *
 * Stateless and thread-safe.
 */
public final class SecretText {
  /** What stands in for a secret in every output. */
  public static final String REDACTED = "***";

  private static final Set<String> SECRET_PARAMS = Set.of("key", "sig", "signature", "auth", "pass", "pwd");
  private static final Pattern FLAG_VALUE = Pattern.compile("^(--?[A-Za-z0-9][A-Za-z0-9_.-]*)=(.*)$", Pattern.DOTALL);
  private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Za-z_][A-Za-z0-9_.-]*)=(.+)$", Pattern.DOTALL);
  private static final Pattern HEADER = Pattern.compile("^([A-Za-z][A-Za-z0-9-]*)\\s*:\\s*(.+)$", Pattern.DOTALL);
  private static final Pattern FLAG = Pattern.compile("^--?[A-Za-z0-9][A-Za-z0-9_.-]*$");
  private static final Pattern KNOWN_TOKEN = Pattern.compile(
      "^(sk-|sk_live_|sk_test_|rk_live_|pk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA"
          + "|AIza|hf_|npm_|ya29\\.|eyJ)[A-Za-z0-9._\\-]{8,}$");
  private static final Pattern HEX = Pattern.compile("^[0-9a-fA-F]{32,}$");
  private static final Pattern MIXED = Pattern.compile("^[A-Za-z0-9_\\-+=]{32,}$");

  private SecretText() {}

  /** Whether a URL query parameter of this name holds a secret. */
  static boolean isSecretParam(String name) {
    return ServerConfig.isSecretName(name) || SECRET_PARAMS.contains(name.toLowerCase(Locale.ROOT));
  }

  /** Whether an argument, taken alone, looks like a key or token. */
  static boolean looksLikeKey(String arg) {
    if (KNOWN_TOKEN.matcher(arg).matches() || HEX.matcher(arg).matches()) {
      return true;
    }
    return MIXED.matcher(arg).matches() && arg.chars().anyMatch(Character::isUpperCase)
        && arg.chars().anyMatch(Character::isLowerCase) && arg.chars().anyMatch(Character::isDigit);
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
      sb.append(colon >= 0 ? info.substring(0, colon + 1) + REDACTED : REDACTED).append('@');
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
    List<String> out = new ArrayList<>(args.size());
    boolean nextIsSecret = false;
    for (String a : args) {
      // after "--token" comes its value, unless the flag stood alone and another flag follows
      out.add(nextIsSecret && !FLAG.matcher(a).matches() ? REDACTED : arg(a));
      nextIsSecret = FLAG.matcher(a).matches() && isSecretParam(a.replaceFirst("^-+", ""));
    }
    return out;
  }

  private static String arg(String a) {
    Matcher m = FLAG_VALUE.matcher(a);
    if (m.matches()) {
      String value = m.group(2);
      return isSecretParam(m.group(1).replaceFirst("^-+", "")) ? m.group(1) + "=" + REDACTED
          : m.group(1) + "=" + arg(value);
    }
    if (a.startsWith("http://") || a.startsWith("https://")) {
      try {
        return url(URI.create(a));
      } catch (IllegalArgumentException notAUri) {
        return looksLikeKey(a) ? REDACTED : a;
      }
    }
    m = ASSIGNMENT.matcher(a);
    if (m.matches() && ServerConfig.isSecretName(m.group(1))) {
      return m.group(1) + "=" + REDACTED;
    }
    m = HEADER.matcher(a);
    if (m.matches() && ServerConfig.isSecretName(m.group(1))) {
      return m.group(1) + ": " + REDACTED;
    }
    return looksLikeKey(a) ? REDACTED : a;
  }

  /**
   * The secret strings in a URL and an argument list: what {@link #scrub} takes out of free text such as an
   * error message that quotes the URL or the command line.
   */
  static Set<String> secrets(URI url, List<String> args) {
    Set<String> out = new LinkedHashSet<>();
    if (url != null) {
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
    boolean nextIsSecret = false;
    for (String a : args) {
      if (nextIsSecret && !FLAG.matcher(a).matches()) {
        out.add(a);
      } else {
        argSecrets(a, out);
      }
      nextIsSecret = FLAG.matcher(a).matches() && isSecretParam(a.replaceFirst("^-+", ""));
    }
    out.removeIf(s -> s.isBlank() || s.equals(REDACTED));
    return out;
  }

  private static void argSecrets(String a, Set<String> out) {
    Matcher m = FLAG_VALUE.matcher(a);
    if (m.matches()) {
      if (isSecretParam(m.group(1).replaceFirst("^-+", ""))) {
        out.add(m.group(2));
      } else {
        argSecrets(m.group(2), out);
      }
      return;
    }
    if (a.startsWith("http://") || a.startsWith("https://")) {
      try {
        out.addAll(secrets(URI.create(a), List.of()));
        return;
      } catch (IllegalArgumentException notAUri) {
        // judged as a plain argument below
      }
    }
    for (Pattern p : List.of(ASSIGNMENT, HEADER)) {
      m = p.matcher(a);
      if (m.matches() && ServerConfig.isSecretName(m.group(1))) {
        out.add(m.group(2));
        return;
      }
    }
    if (looksLikeKey(a)) {
      out.add(a);
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
