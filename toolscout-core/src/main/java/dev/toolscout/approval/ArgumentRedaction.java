package dev.toolscout.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arguments of a call as an approval request keeps and shows them: secrets replaced by {@value #MASK},
 * object keys sorted, so that an identical call gives identical text (and hash). What is redacted: the value
 * of any field whose name says it is a secret ({@code api_key}, {@code token}, {@code password}, ...), the
 * password of a URL ({@code https://user:pw@host}), secret-named URL query parameters ({@code ?api_key=}),
 * secret-named command-line flags ({@code --token X}, {@code --api-key=X}) and {@code Bearer} credentials.
 * An approver sees what runs except the secrets, and an approval covers any secret value. Stateless.
 */
public final class ArgumentRedaction {
  public static final String MASK = "[redacted]";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Lower-cased with '_' and '-' removed, a field name containing one of these holds a secret. */
  private static final List<String> SECRET_WORDS = List.of(
      "apikey", "token", "secret", "password", "passwd", "pwd", "authorization", "credential", "privatekey",
      "accesskey", "cookie", "session");
  private static final Pattern URL_USERINFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^/@\\s]+@");
  private static final Pattern QUERY_PARAM = Pattern.compile("([?&;])([^=&#\\s]+)=([^&#\\s]*)");
  private static final Pattern FLAG = Pattern.compile("(--?)([A-Za-z0-9_-]+)(=|\\s+)(\\S+)");
  private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]+");

  private ArgumentRedaction() {}

  /** The redacted, key-sorted copy of {@code arguments} (any JSON-like value; null is an empty object). */
  public static JsonNode redact(Object arguments) {
    JsonNode n = arguments == null ? JsonNodeFactory.instance.objectNode() : JSON.valueToTree(arguments);
    return walk(n);
  }

  /** Whether a field of this name holds a secret. */
  public static boolean isSecretName(String name) {
    String n = name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    if (n.endsWith("tokens")) {
      return false; // a count (max_tokens), not a credential
    }
    for (String w : SECRET_WORDS) {
      if (n.contains(w)) {
        return true;
      }
    }
    return n.equals("key") || n.endsWith("key") && n.length() <= 8; // "key", "apikey" above, "authkey"
  }

  /** {@code text} with URL passwords, secret query parameters and flags, and bearer credentials masked. */
  public static String redactText(String text) {
    String s = URL_USERINFO.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK + "@"));
    s = QUERY_PARAM.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
        isSecretName(m.group(2)) ? m.group(1) + m.group(2) + "=" + MASK : m.group()));
    s = FLAG.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
        isSecretName(m.group(2)) ? m.group(1) + m.group(2) + m.group(3) + MASK : m.group()));
    return BEARER.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " " + MASK));
  }

  private static JsonNode walk(JsonNode n) {
    if (n.isObject()) {
      List<String> names = new ArrayList<>();
      n.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (String name : names) {
        JsonNode v = n.get(name);
        out.set(name, isSecretName(name) && !v.isNull() ? JsonNodeFactory.instance.textNode(MASK)
            : walk(v));
      }
      return out;
    }
    if (n.isArray()) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode();
      n.forEach(e -> out.add(walk(e)));
      return out;
    }
    if (n.isTextual()) {
      return JsonNodeFactory.instance.textNode(redactText(n.asText()));
    }
    return n;
  }
}
