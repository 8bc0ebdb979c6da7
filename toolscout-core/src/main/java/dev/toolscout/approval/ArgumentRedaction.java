package dev.toolscout.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.secret.SecretRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arguments of a call as an approval request keeps and shows them: object keys sorted, and each secret
 * replaced by its {@link SecretRules#mask mask} ({@code [redacted …ions sha256:1a2b3c4d]}), which never holds
 * the value but tells two values apart. What is a secret ({@link SecretRules}): the value of any field whose
 * name says it is one ({@code api_key}, {@code token}, {@code password}, ...), the user-info of a URL of any
 * scheme ({@code postgres://user:pw@host}: the password, or the whole user-info when it has none),
 * secret-named URL query parameters ({@code ?api_key=}), secret-named command-line flags ({@code --token X},
 * {@code --api-key=X}), the password flag of known tools ({@code mysql -pX}) and {@code Bearer} credentials.
 *
 * <p>The masked form is for people. Which call an approval covers is decided on {@link #canonical}, the
 * unredacted arguments: an approval of one secret value never covers another. Stateless.
 */
public final class ArgumentRedaction {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern QUERY_PARAM = Pattern.compile("([?&;])([^=&#\\s]+)=([^&#\\s]*)");
    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])(--?)([A-Za-z0-9_-]+)(=|\\s+)([^\\s\"']+)");
    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+([A-Za-z0-9._~+/=-]+)");

    private ArgumentRedaction() {}

    /** The redacted, key-sorted copy of {@code arguments} (any JSON-like value; null is an empty object). */
    public static JsonNode redact(Object arguments) {
        return walk(tree(arguments), true);
    }

    /**
     * The unredacted, key-sorted copy of {@code arguments} (null is an empty object): two calls with the same
     * arguments give the same text, whatever order their keys came in.
     */
    public static JsonNode canonical(Object arguments) {
        return walk(tree(arguments), false);
    }

    /** Whether a field of this name holds a secret ({@link SecretRules#isSecretName}). */
    public static boolean isSecretName(String name) {
        return SecretRules.isSecretName(name);
    }

    /**
     * {@code text} with URL user-info, secret query parameters and flags, known tools' password flags and bearer
     * credentials masked.
     */
    public static String redactText(String text) {
        String s = SecretRules.USERINFO
                .matcher(text)
                .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + userinfo(m.group(2)) + "@"));
        s = QUERY_PARAM
                .matcher(s)
                .replaceAll(m -> Matcher.quoteReplacement(
                        isSecretName(m.group(2)) && !masked(m.group(3))
                                ? m.group(1) + m.group(2) + "=" + SecretRules.mask(m.group(3))
                                : m.group()));
        s = FLAG.matcher(s)
                .replaceAll(m -> Matcher.quoteReplacement(
                        isSecretName(m.group(2)) && !masked(m.group(4))
                                ? m.group(1) + m.group(2) + m.group(3) + SecretRules.mask(m.group(4))
                                : m.group()));
        s = passwordFlag(s);
        return BEARER.matcher(s)
                .replaceAll(m -> Matcher.quoteReplacement(
                        masked(m.group(2)) ? m.group() : m.group(1) + " " + SecretRules.mask(m.group(2))));
    }

    /** {@code user:pw} as {@code user:MASK}; a user-info without a password (a token as user name) whole. */
    private static String userinfo(String info) {
        int colon = info.indexOf(':');
        return colon >= 0
                ? info.substring(0, colon + 1) + SecretRules.mask(info.substring(colon + 1))
                : SecretRules.mask(info);
    }

    /** A command line of a tool known to take a password after a short flag ({@code mysql -pPW}), that masked. */
    private static String passwordFlag(String s) {
        String[] words = s.strip().split("\\s+");
        if (words.length < 2) {
            return s;
        }
        String flag = SecretRules.passwordFlag(words[0], Arrays.asList(words).subList(1, words.length));
        if (flag == null) {
            return s;
        }
        Pattern p = Pattern.compile("(?<=^|\\s)" + Pattern.quote(flag) + "(\\s+|)([^\\s-][^\\s]*)");
        return p.matcher(s)
                .replaceAll(m -> Matcher.quoteReplacement(
                        masked(m.group(2)) ? m.group() : flag + m.group(1) + SecretRules.mask(m.group(2))));
    }

    private static boolean masked(String value) {
        return value.startsWith("[redacted");
    }

    private static JsonNode tree(Object arguments) {
        return arguments == null ? JsonNodeFactory.instance.objectNode() : JSON.valueToTree(arguments);
    }

    private static JsonNode walk(JsonNode n, boolean redact) {
        if (n.isObject()) {
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (String name : names) {
                JsonNode v = n.get(name);
                out.set(
                        name,
                        redact && isSecretName(name) && !v.isNull()
                                ? JsonNodeFactory.instance.textNode(
                                        SecretRules.mask(v.isTextual() ? v.asText() : v.toString()))
                                : walk(v, redact));
            }
            return out;
        }
        if (n.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            n.forEach(e -> out.add(walk(e, redact)));
            return out;
        }
        if (redact && n.isTextual()) {
            return JsonNodeFactory.instance.textNode(redactText(n.asText()));
        }
        return n;
    }
}
