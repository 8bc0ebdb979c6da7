package dev.toolscout.indexing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The text a tool is searched and embedded by. One place, so the index and the embedder agree. */
public final class ToolText {
    private ToolText() {}

    /**
     * Splits an identifier into lower-case words: {@code __}, {@code _}, {@code -}, {@code .}, {@code /},
     * spaces, camelCase and letter/digit boundaries ({@code getHTTPResponse2} becomes {@code get http response
     * 2}).
     */
    public static String splitIdentifier(String id) {
        StringBuilder out = new StringBuilder(id.length() + 8);
        int n = id.length();
        for (int i = 0; i < n; i++) {
            char c = id.charAt(i);
            if (!Character.isLetterOrDigit(c)) {
                if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
                    out.append(' ');
                }
                continue;
            }
            if (i > 0 && out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
                char p = id.charAt(i - 1);
                boolean boundary = (Character.isLowerCase(p) && Character.isUpperCase(c))
                        || (Character.isLetter(p) && Character.isDigit(c))
                        || (Character.isDigit(p) && Character.isLetter(c))
                        || (Character.isUpperCase(p)
                                && Character.isUpperCase(c)
                                && i + 1 < n
                                && Character.isLowerCase(id.charAt(i + 1)));
                if (boundary) {
                    out.append(' ');
                }
            }
            out.append(Character.toLowerCase(c));
        }
        int len = out.length();
        if (len > 0 && out.charAt(len - 1) == ' ') {
            out.setLength(len - 1);
        }
        return out.toString();
    }

    /**
     * The tool's name as words, then the words of its original name (the name at the source) that the name
     * does not already hold (a name with digits, such as {@code apigen_tool_17}, is no exception: skipping such
     * names helped one development set only, docs/FITTED_RULES.md). A sanitized
     * upstream name ({@code Update Contact ✓} behind {@code crm__Update_Contact}) adds nothing new. Last come
     * the spelled-out words of the abbreviations among them ({@link NameAbbreviations}: {@code div} adds
     * {@code divide}, {@code repo} adds {@code repository}), each once.
     */
    public static String nameWords(ToolSpec spec) {
        String words = splitIdentifier(spec.fullName());
        Set<String> have = new LinkedHashSet<>(List.of(words.split(" ")));
        StringBuilder b = new StringBuilder(words);
        String orig = spec.originalName() == null ? "" : splitIdentifier(spec.originalName());
        String[] origWords = orig.isEmpty() ? new String[0] : orig.split(" ");
        for (String w : origWords) {
            if (have.add(w)) {
                b.append(' ').append(w);
            }
        }
        for (String w : List.copyOf(have)) {
            String full = NameAbbreviations.expand(w);
            if (full != null && have.add(full)) {
                b.append(' ').append(full);
            }
        }
        return b.toString();
    }

    /** Parameter names (as words), descriptions and enum values, depth first. */
    public static String parameterText(ToolSpec spec) {
        List<String> parts = new ArrayList<>();
        collectParameters(spec.parameters().path("properties"), parts, 0);
        return String.join(" ", parts);
    }

    private static void collectParameters(JsonNode props, List<String> out, int depth) {
        if (depth > 4 || !props.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> e : props.properties()) {
            out.add(splitIdentifier(e.getKey()));
            JsonNode p = e.getValue();
            if (p.path("description").isTextual()) {
                out.add(p.get("description").asText());
            }
            for (JsonNode v : p.path("enum")) {
                if (v.isValueNode()) {
                    out.add(v.asText());
                }
            }
            collectParameters(p.path("properties"), out, depth + 1);
            collectParameters(p.path("items").path("properties"), out, depth + 1);
        }
    }

    /** Category, tags and source name, as words. */
    public static String labels(ToolSpec spec) {
        List<String> parts = new ArrayList<>();
        parts.add(splitIdentifier(spec.category()));
        for (String t : spec.tags()) {
            parts.add(splitIdentifier(t));
        }
        parts.add(splitIdentifier(spec.name().source()));
        return String.join(" ", parts).toLowerCase(Locale.ROOT);
    }

    /**
     * The description, then the examples (requests the tool serves), as BM25 searches them: {@code Search the web.
     * Examples: Find competitor websites; Research market trends.} The description alone for a tool without
     * examples.
     */
    public static String descriptionText(ToolSpec spec) {
        if (spec.examples().isEmpty()) {
            return spec.description();
        }
        StringBuilder b = new StringBuilder(spec.description());
        appendExamples(b, spec);
        return b.toString();
    }

    private static void appendExamples(StringBuilder b, ToolSpec spec) {
        if (spec.examples().isEmpty()) {
            return;
        }
        b.append(" Examples: ");
        for (int i = 0; i < spec.examples().size(); i++) {
            if (i > 0) {
                b.append("; ");
            }
            b.append(spec.examples().get(i));
        }
        b.append('.');
    }

    /**
     * The text the embedding model sees for a tool: name words, description, examples (when it has them), then
     * parameter names. Kept short because small embedders truncate at 512 tokens and weigh early words most. A
     * tool without examples has the text it had before examples existed, so its stored vector stays valid.
     */
    public static String embeddingText(ToolSpec spec) {
        StringBuilder b = new StringBuilder();
        b.append(nameWords(spec)).append(": ").append(spec.description());
        appendExamples(b, spec);
        List<String> params = spec.parameterNames();
        if (!params.isEmpty()) {
            b.append(" Parameters: ");
            for (int i = 0; i < params.size(); i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append(splitIdentifier(params.get(i)));
            }
            b.append('.');
        }
        return b.toString();
    }
}
