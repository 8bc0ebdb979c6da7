package dev.toolscout.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tool sources whose tools ToolScout defines and runs itself: the one list every way in checks (MCP server
 * names, OpenAPI imports, MCP {@code tools/list} files loaded under a source, catalog files and catalog writes over
 * HTTP). An upstream or an import holding one of them would replace the definition the model sees of
 * ToolScout's own tool (and receive its calls, other users' arguments included), so none may take one.
 *
 * <p>Catalog files, which the operator writes, may still describe the discovery and memory tools (the demo catalog
 * does: its entry is the definition offered, so an operator can tune a description or its access) as long as
 * they are plain integration tools; the other three sources belong to ToolScout alone ({@link
 * #catalogRefusal}). Compared in any case.
 *
 * <p>Immutable and thread-safe.
 */
public final class ReservedSources {
    private static final Map<String, String> HOLDERS = holders();

    /** The reserved sources, in a fixed order (for messages). */
    public static final List<String> NAMES = List.copyOf(HOLDERS.keySet());

    /** The sources a catalog file may describe (as {@code integration} tools): the engine's discovery and memory. */
    private static final Set<String> CATALOG_DESCRIBED = Set.of("tool_discovery", "memory");

    private ReservedSources() {}

    private static Map<String, String> holders() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("mcp", "the MCP gateway's tools");
        m.put("tool_discovery", "the discovery meta-tools");
        m.put("skills", "skills__activate");
        m.put("memory", "the memory tools");
        m.put("verbs", "the registered verbs");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Whether {@code source} is one of ToolScout's own, in any case: {@code Skills__activate} beside {@code
     * skills__activate} would read to a model as the same tool.
     */
    public static boolean isReserved(String source) {
        return holder(source).isPresent();
    }

    /** What holds {@code source} (in any case), if it is reserved. */
    public static Optional<String> holder(String source) {
        return source == null ? Optional.empty() : Optional.ofNullable(HOLDERS.get(key(source)));
    }

    private static String key(String source) {
        return source.toLowerCase(Locale.ROOT);
    }

    /**
     * Refuses a reserved source. The message names the input, its value, the rule and the list, e.g. {@code server
     * name 'Skills' gives tool prefix 'skills', which is reserved for ToolScout's own tools (skills__*:
     * skills__activate; reserved: mcp, tool_discovery, skills, memory, verbs); choose another name, e.g.
     * 'skills-server'}.
     *
     * @param input what the caller gave ({@code server name}, {@code --source})
     * @param value the value given, as given
     * @param what what that value becomes ({@code tool prefix}, {@code source})
     * @param source the source it gives
     * @param example a suffix for the suggested other name ({@code server}, {@code api})
     * @throws IllegalArgumentException when {@code source} is reserved
     */
    public static void check(String input, String value, String what, String source, String example) {
        if (isReserved(source)) {
            throw new IllegalArgumentException(message(input, value, what, source) + "; choose another name, e.g. '"
                    + source + "-" + example + "'");
        }
    }

    /**
     * Why a catalog file (or a catalog write over HTTP) may not hold {@code tool}, or {@code null} when it may: a tool
     * of {@code mcp}, {@code skills} or {@code verbs}, or a tool of {@code tool_discovery} or {@code memory} that is
     * not a plain {@code integration} tool (an MCP server's or an API's tool there would stand in for ToolScout's).
     */
    public static String catalogRefusal(ToolSpec tool) {
        String source = tool.name().source();
        if (!isReserved(source)) {
            return null;
        }
        String why = message("tool", tool.fullName(), "source", source);
        if (!CATALOG_DESCRIBED.contains(key(source))) {
            return why + "; a catalog may describe only memory and tool_discovery tools";
        }
        return tool.sourceKind() == SourceKind.INTEGRATION
                ? null
                : why + "; a catalog may describe " + source + " tools only as source_kind integration, got: "
                        + tool.sourceKind().name().toLowerCase(Locale.ROOT);
    }

    /** The refusal's text without its suggestion; see {@link #check}. */
    public static String message(String input, String value, String what, String source) {
        return input + " '" + value + "' gives " + what + " '" + source
                + "', which is reserved for ToolScout's own tools" + " (" + source + "__*: " + HOLDERS.get(key(source))
                + "; reserved: " + String.join(", ", NAMES) + ")";
    }
}
