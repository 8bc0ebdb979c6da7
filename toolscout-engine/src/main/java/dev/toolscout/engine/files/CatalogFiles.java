package dev.toolscout.engine.files;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.InvalidSpecException;
import dev.toolscout.model.McpToolJson;
import dev.toolscout.model.ReservedSources;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolName;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.skills.InvalidSkillException;
import dev.toolscout.skills.Skill;
import dev.toolscout.skills.SkillJson;
import dev.toolscout.skills.Skills;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbManifestJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads catalog files (JSON or YAML, see {@code docs/CATALOG_FORMAT.md}) into {@link ToolSpec}s.
 *
 * <p>A file is an object with {@code tools} (complete tools) and/or {@code sources} (a source's
 * actions, named {@code <source>__<action>}, inheriting the source's category, tags, source kind,
 * AI access and side effect unless they set their own), or a bare array of tools. Tools come back
 * in file order.
 *
 * <p>Strict on meaning, lenient on spelling: every broken rule is a {@link CatalogFileException}
 * naming the file, the position, the tool, the field and the problem; a key this format does not
 * know inside a tool, action or source is skipped with a warning on the {@code
 * dev.toolscout.engine.files} logger. Unknown top-level keys are an error, since they usually
 * mean tools the author expected to load.
 *
 * <p>Stateless and thread-safe.
 */
public final class CatalogFiles {
    /** The largest catalog file read, in bytes (32 MiB). */
    public static final long MAX_FILE_BYTES = 32L * 1024 * 1024;

    /** The classpath resource {@link #demo()} reads. */
    public static final String DEMO_RESOURCE = "/dev/toolscout/engine/catalog/demo-catalog.json";

    private static final Logger LOG = LoggerFactory.getLogger("dev.toolscout.engine.files");

    private static final List<String> TOP_LEVEL_KEYS = List.of("tools", "sources", "skills");
    private static final Set<String> TOOL_KEYS = Set.of(
            "name",
            "description",
            "category",
            "tags",
            "parameters",
            "input_schema",
            "inputSchema",
            "ai_access",
            "side_effect",
            "source_kind",
            "depends_on",
            "original_name",
            "examples",
            "output_schema",
            "outputSchema");
    private static final Set<String> SOURCE_KEYS = Set.of(
            "name", "description", "kind", "source_kind", "category", "tags", "ai_access", "side_effect", "actions");

    /** Source fields an action inherits when it leaves them out. */
    private static final List<String> INHERITED =
            List.of("source_kind", "category", "tags", "ai_access", "side_effect");

    private static final int SHOWN = 80;

    /** The longest source name that leaves room for {@code __} and a one-character action. */
    private static final int MAX_SOURCE = 64 - ToolName.SEPARATOR.length() - 1;

    private static final List<String> SCHEMA_KEYS = List.of("parameters", "input_schema", "inputSchema");

    private CatalogFiles() {}

    /**
     * Loads one catalog file; the format follows the extension ({@code .json}, {@code .yaml}, {@code
     * .yml}).
     *
     * @throws CatalogFileException when the file is missing, unreadable, too large, malformed or
     *     breaks a rule
     */
    public static List<ToolSpec> load(Path file) {
        return loadAll(List.of(file));
    }

    /**
     * Loads several files in order. A tool name defined in two files is an error naming both files.
     *
     * @throws CatalogFileException for the first problem found
     */
    public static List<ToolSpec> loadAll(List<Path> files) {
        Loaded loaded = readAll(files);
        if (loaded.warning() != null) {
            LOG.warn("{}", loaded.warning());
        }
        return loaded.tools();
    }

    /**
     * Tools read from catalog files, and the tools whose parameter schema could not be read (they are loaded
     * with their name and description, and no parameters).
     *
     * @param unreadableSchemas one line per such tool: {@code file at where (name): parameters: why}
     */
    public record Loaded(List<ToolSpec> tools, List<String> unreadableSchemas) {
        /** The most unreadable schemas a warning names; the rest are counted. */
        public static final int NAMED = 10;

        public Loaded {
            tools = List.copyOf(tools);
            unreadableSchemas = List.copyOf(unreadableSchemas);
        }

        /** A warning that counts and names the tools whose schema could not be read, or {@code null} for none. */
        public String warning() {
            if (unreadableSchemas.isEmpty()) {
                return null;
            }
            int n = unreadableSchemas.size();
            StringBuilder b = new StringBuilder();
            b.append("warning: ")
                    .append(n)
                    .append(n == 1 ? " tool has" : " tools have")
                    .append(" a parameter schema that could not be read; loaded with name and description only:");
            for (String u : unreadableSchemas.subList(0, Math.min(NAMED, n))) {
                b.append("\n  ").append(u);
            }
            if (n > NAMED) {
                b.append("\n  ... and ").append(n - NAMED).append(" more");
            }
            return b.toString();
        }
    }

    /** Like {@link #loadAll}, and reports the tools whose parameter schema could not be read instead of logging. */
    public static Loaded readAll(List<Path> files) {
        Map<String, String> seen = new HashMap<>();
        List<ToolSpec> out = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (Path file : files) {
            for (Entry e : read(file)) {
                String name = e.spec().fullName();
                String here = file + " at " + e.where();
                String first = seen.putIfAbsent(name, here);
                if (first != null) {
                    throw new CatalogFileException(
                            file.toString(),
                            e.where() + " (" + name + "): duplicate tool name, already defined in " + first);
                }
                out.add(e.spec());
                if (e.schemaProblem() != null) {
                    unreadable.add(here + " (" + shown(name) + "): " + e.schemaProblem());
                }
            }
        }
        return new Loaded(out, unreadable);
    }

    /**
     * Loads saved MCP {@code tools/list} responses as the tools of one source: each file is the whole JSON-RPC
     * response ({@code {"jsonrpc": ..., "result": {"tools": [...]}}}), its {@code result}, or a bare array of MCP
     * tools. Names become {@code <source>__<name>} (sanitized as the MCP gateway does, the original kept for the
     * call); annotations and titles are mapped as for a live MCP server ({@link McpToolJson}: {@code
     * readOnlyHint} a read, {@code destructiveHint} a delete proposed for approval, a title the description of
     * a tool without one). Lenient per tool like a live server: a tool that cannot be understood is skipped
     * with a warning, the others kept. The tools are catalog tools: no server is started or called for them.
     *
     * @throws CatalogFileException when the source name is not a valid source, a file is missing, malformed or
     *     holds no tool list, or a tool name appears twice across the files
     */
    public static List<ToolSpec> loadToolsLists(List<Path> files, String source) {
        try {
            new ToolName(source, "a");
        } catch (InvalidSpecException e) {
            throw new CatalogFileException(
                    "--source",
                    "'" + shown(source) + "' is not a valid source name: " + detail(e)
                            + " (a source is the part of a tool name before __, e.g. gmail)",
                    e);
        }
        if (ReservedSources.isReserved(source)) {
            // an MCP server's tools under ToolScout's own source would stand in for ToolScout's tools
            throw new CatalogFileException(
                    "--source",
                    ReservedSources.message("source name", source, "tool prefix", source)
                            + "; choose another name, e.g. '" + source + "-server'");
        }
        List<JsonNode> all = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (Path file : files) {
            String label = file.toString();
            CatalogFormat format = format(file); // the name is checked before the file is read
            JsonNode root = tree(label, bytes(file), format);
            JsonNode list = root == null
                    ? null
                    : root.isArray()
                            ? root
                            : root.path("result").has("tools")
                                    ? root.path("result").get("tools")
                                    : root.get("tools");
            if (list == null || !list.isArray()) {
                throw new CatalogFileException(
                        label,
                        "expected an MCP tools/list response (an object with result.tools "
                                + "or tools, or an array of tools), got: " + (root == null ? "nothing" : kind(root)));
            }
            for (int i = 0; i < list.size(); i++) {
                JsonNode t = list.get(i);
                String where = (root.isArray() ? "" : root.has("result") ? "result.tools" : "tools") + "[" + i + "]";
                if (!t.isObject()) {
                    throw new CatalogFileException(label, where + ": must be a tool object, got: " + kind(t));
                }
                JsonNode name = t.get("name");
                if (name != null && !name.isNull() && !name.isValueNode()) {
                    throw new CatalogFileException(
                            label, where + ": not an MCP tool: name must be a string, got: " + kind(name));
                }
                String tool = name == null || name.isNull() ? null : name.asText();
                String first = tool == null ? null : seen.putIfAbsent(tool, label + " at " + where);
                if (first != null) {
                    throw new CatalogFileException(
                            label, where + " (" + shown(tool) + "): duplicate tool name, already defined in " + first);
                }
                all.add(t);
            }
        }
        List<ToolSpec> out = new ArrayList<>(all.size());
        for (McpToolJson.Mapped m : McpToolJson.map(source, source, all)) {
            // catalog tools, not a registered server's: MCP-kind tools are the upstream manager's, which drops those
            // of servers it does not know
            out.add(m.spec().toBuilder().sourceKind(SourceKind.INTEGRATION).build());
        }
        return List.copyOf(out);
    }

    /**
     * The skills of catalog files: each file's {@code skills}, an array of skills as {@code SkillJson} reads them
     * ({@code name}, {@code description}, {@code documentation}, {@code tools}), in file order.
     *
     * @throws CatalogFileException when a file cannot be read or its {@code skills} is not an array
     * @throws InvalidSkillException naming the file and the entry ({@code file at skills[i]}), the skill, the field,
     *     the rule and the value; or a skill named twice
     */
    public static List<Skill> loadSkills(List<Path> files) {
        Map<String, String> seen = new HashMap<>();
        List<Skill> out = new ArrayList<>();
        for (Path file : files) {
            String label = file.toString();
            CatalogFormat format = format(file); // the name is checked before the file is read
            JsonNode root = tree(label, bytes(file), format);
            JsonNode list = root == null || !root.isObject() ? null : root.get("skills");
            if (list == null || list.isNull()) {
                continue;
            }
            if (!list.isArray()) {
                throw new CatalogFileException(label, "skills must be an array of skills, got: " + kind(list));
            }
            if (list.size() > Skills.MAX_SKILLS) {
                throw new CatalogFileException(
                        label,
                        "skills holds " + list.size() + " skills, more than the " + Skills.MAX_SKILLS
                                + " ToolScout keeps");
            }
            for (int i = 0; i < list.size(); i++) {
                String where = label + " at skills[" + i + "]";
                Skill skill = SkillJson.fromJson(
                        list.get(i),
                        where,
                        new Skill.Source(
                                Skill.Source.Kind.CATALOG_FILE,
                                file.toAbsolutePath().normalize().toString()));
                String first = seen.putIfAbsent(skill.name(), where);
                if (first != null) {
                    throw new InvalidSkillException(
                            where, skill.name(), "name", "is taken: the skill is already defined at " + first);
                }
                out.add(skill);
            }
        }
        return List.copyOf(out);
    }

    /** The demo catalog bundled with the server: the core integrations of the product design. */
    public static List<ToolSpec> demo() {
        String label = "classpath:" + DEMO_RESOURCE;
        try (InputStream in = CatalogFiles.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new CatalogFileException(label, "resource is missing from the classpath");
            }
            return specs(parse(label, in.readAllBytes(), CatalogFormat.JSON));
        } catch (IOException e) {
            throw new CatalogFileException(label, "could not be read: " + e, e);
        }
    }

    /**
     * Reads verb manifests from files (JSON or YAML by extension, docs/VERBS.md): each a manifest, an array of them
     * or {@code {"verbs": [...]}}, at most {@value VerbManifestJson#MAX_MANIFESTS} per file. Every file is read and
     * checked before any is returned, so a bad one registers nothing.
     *
     * @throws CatalogFileException naming the file, the manifest's position, the verb, the field and the problem; for
     *     a verb given twice across the files, naming both
     */
    public static List<VerbManifest> readVerbs(List<Path> files) {
        List<VerbManifest> out = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (Path file : files) {
            String label = file.toString();
            CatalogFormat format = format(file); // the name is checked before the file is read
            JsonNode root = tree(label, bytes(file), format);
            List<VerbManifest> read;
            try {
                read = VerbManifestJson.readAll(root, "manifest");
            } catch (IllegalArgumentException e) {
                throw new CatalogFileException(label, e.getMessage(), e);
            }
            for (VerbManifest m : read) {
                String first = seen.putIfAbsent(m.verb(), label);
                if (first != null) {
                    throw new CatalogFileException(label, "verb '" + m.verb() + "' is also in " + first);
                }
                out.add(m);
            }
        }
        return List.copyOf(out);
    }

    /**
     * One tool read from a file and where it was (a JSON path such as {@code sources[0].actions[2]}).
     */
    record Entry(ToolSpec spec, String where, String schemaProblem) {}

    private static List<ToolSpec> specs(List<Entry> entries) {
        return entries.stream().map(Entry::spec).toList();
    }

    /**
     * Reads one JSON or YAML file (by its extension) into a tree, with the checks every catalog file gets: the
     * extension, the size limit ({@link #MAX_FILE_BYTES}), no YAML aliases, and a syntax error's line and column.
     * For documents other modules own (an OpenAPI document), which then apply their own rules.
     *
     * @throws CatalogFileException naming the file and the problem
     */
    public static JsonNode readTree(Path file) {
        CatalogFormat format = format(file);
        return tree(file.toString(), bytes(file), format);
    }

    private static List<Entry> read(Path file) {
        CatalogFormat format = format(file); // the name is checked before the file is read
        return parse(file.toString(), bytes(file), format);
    }

    /** The file's format by its extension, or an error naming the file and the extensions known. */
    private static CatalogFormat format(Path file) {
        CatalogFormat format = CatalogFormat.of(file);
        if (format == null) {
            throw new CatalogFileException(
                    file.toString(), "unsupported file type, expected a name ending in " + CatalogFormat.EXTENSIONS);
        }
        return format;
    }

    private static byte[] bytes(Path file) {
        String label = file.toString();
        try {
            if (Files.isDirectory(file)) {
                throw new CatalogFileException(label, "is a directory, expected a catalog file");
            }
            checkSize(label, Files.size(file));
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CatalogFileException(label, "file not found", e);
        } catch (AccessDeniedException e) {
            throw new CatalogFileException(label, "file is not readable (permission denied)", e);
        } catch (IOException e) {
            throw new CatalogFileException(label, "file could not be read: " + e, e);
        }
    }

    /** Parses a whole file's content; {@code label} names the file in messages. */
    static List<Entry> parse(String label, byte[] content, CatalogFormat format) {
        checkSize(label, content.length);
        JsonNode root = tree(label, content, format);
        try {
            return new FileReader(label).read(root);
        } catch (CatalogFileException e) {
            if (looksLikeToolsList(root)) {
                String problem = e.getMessage().substring(label.length() + 2);
                throw new CatalogFileException(
                        label,
                        problem + "; this looks like an MCP tools/list response: "
                                + "load it with `toolscout index --source NAME FILE`, which names its tools NAME__<tool>",
                        e);
            }
            throw e;
        }
    }

    /**
     * A JSON-RPC envelope, or tools named without a source that carry MCP's {@code inputSchema}: what a saved
     * {@code tools/list} response looks like (for a better error, never to guess a source name).
     */
    private static boolean looksLikeToolsList(JsonNode root) {
        if (root == null) {
            return false;
        }
        if (root.has("jsonrpc") || root.path("result").has("tools")) {
            return true;
        }
        JsonNode tools = root.isArray() ? root : root.get("tools");
        if (tools == null || !tools.isArray() || tools.isEmpty()) {
            return false;
        }
        JsonNode first = tools.get(0);
        return first.has("inputSchema")
                && first.path("name").isTextual()
                && !first.get("name").asText().contains(ToolName.SEPARATOR);
    }

    private static void checkSize(String label, long size) {
        if (size > MAX_FILE_BYTES) {
            throw new CatalogFileException(
                    label, "file is " + size + " bytes, more than the limit of " + MAX_FILE_BYTES + " bytes");
        }
    }

    private static JsonNode tree(String label, byte[] content, CatalogFormat format) {
        try {
            return format.read(content);
        } catch (JsonProcessingException e) {
            throw new CatalogFileException(label, syntaxError(format, e), e);
        } catch (IOException e) {
            throw new CatalogFileException(label, "could not be parsed as " + format.label + ": " + e, e);
        }
    }

    /** "malformed YAML at line 4, column 4: expected ..., but found ... (while parsing ...)". */
    private static String syntaxError(CatalogFormat format, JsonProcessingException e) {
        String prefix = "malformed " + format.label;
        // SnakeYAML's message spans lines with source excerpts; its parts read better on one line.
        if (e.getCause() instanceof MarkedYAMLException y && y.getProblemMark() != null) {
            Mark problem = y.getProblemMark();
            Mark context = y.getContextMark();
            String where = " at line " + (problem.getLine() + 1) + ", column " + (problem.getColumn() + 1);
            String text =
                    y.getProblem() == null ? "syntax error" : y.getProblem().strip();
            if (y.getContext() != null && context != null) {
                text += " ("
                        + y.getContext().strip()
                        + " that starts at line "
                        + (context.getLine() + 1)
                        + ", column "
                        + (context.getColumn() + 1)
                        + ")";
            }
            return prefix + where + ": " + text;
        }
        JsonLocation loc = e.getLocation();
        String where = "";
        if (loc != null && loc.getLineNr() > 0) {
            where = " at line " + loc.getLineNr() + (loc.getColumnNr() > 0 ? ", column " + loc.getColumnNr() : "");
        }
        String m = e.getOriginalMessage();
        if (m != null && m.startsWith("Trailing token")) {
            m = "a catalog file holds one document, found more content after it";
        }
        if (m == null || m.isBlank()) {
            m = e.getClass().getSimpleName();
        }
        int nl = m.strip().indexOf('\n');
        return prefix + where + ": "
                + (nl < 0 ? m.strip() : m.strip().substring(0, nl).strip());
    }

    /** The state of reading one file: its label and the positions of the names seen so far. */
    private static final class FileReader {
        private final String file;
        private final Map<String, String> seen = new HashMap<>();
        private final List<Entry> out = new ArrayList<>();

        FileReader(String file) {
            this.file = file;
        }

        List<Entry> read(JsonNode root) {
            if (root == null || root.isMissingNode() || root.isNull()) {
                throw new CatalogFileException(
                        file, "file is empty, expected an object with " + keys() + " or an array of tools");
            }
            if (root.isArray()) {
                tools(root, "");
            } else if (root.isObject()) {
                List<String> unknown = new ArrayList<>();
                root.fieldNames().forEachRemaining(k -> {
                    if (!TOP_LEVEL_KEYS.contains(k)) {
                        unknown.add("'" + shown(k) + "'");
                    }
                });
                if (!unknown.isEmpty()) {
                    throw new CatalogFileException(
                            file,
                            "unknown top-level key"
                                    + (unknown.size() > 1 ? "s " : " ")
                                    + String.join(", ", unknown)
                                    + " (allowed: "
                                    + keys()
                                    + ")");
                }
                // Document order, so a file that lists sources first loads them first.
                for (Map.Entry<String, JsonNode> e : root.properties()) {
                    if (e.getKey().equals("tools")) {
                        tools(e.getValue(), "tools");
                    } else if (e.getKey().equals("sources")) {
                        sources(e.getValue());
                    }
                    // skills: read by loadSkills
                }
            } else {
                throw new CatalogFileException(
                        file, "expected an object with " + keys() + " or an array of tools, got: " + kind(root));
            }
            return List.copyOf(out);
        }

        private void tools(JsonNode tools, String key) {
            if (tools.isNull()) {
                return;
            }
            if (!tools.isArray()) {
                throw new CatalogFileException(file, key + " must be an array of tools, got: " + kind(tools));
            }
            for (int i = 0; i < tools.size(); i++) {
                String where = key + "[" + i + "]";
                JsonNode tool = tools.get(i);
                if (!tool.isObject()) {
                    throw new CatalogFileException(file, where + ": must be a tool object, got: " + kind(tool));
                }
                String name = tool.path("name").isTextual() ? tool.get("name").asText() : null;
                add(where, name, tool, null);
            }
        }

        private void sources(JsonNode sources) {
            if (sources.isNull()) {
                return;
            }
            if (!sources.isArray()) {
                throw new CatalogFileException(file, "sources must be an array of sources, got: " + kind(sources));
            }
            for (int i = 0; i < sources.size(); i++) {
                source(sources.get(i), "sources[" + i + "]");
            }
        }

        private void source(JsonNode src, String where) {
            if (!src.isObject()) {
                throw new CatalogFileException(file, where + ": must be a source object, got: " + kind(src));
            }
            JsonNode nameNode = src.get("name");
            if (nameNode == null || !nameNode.isTextual()) {
                throw new CatalogFileException(
                        file,
                        where + ": name is required and must be a string (e.g. \"gmail\"), got: " + brief(nameNode));
            }
            String source = nameNode.asText();
            String label = where + " (" + shown(source) + ")";
            warnUnknown(src, SOURCE_KEYS, label);
            // "<source>__a" is the shortest tool the source can hold: if it is no valid name, none is.
            try {
                new ToolName(source, "a");
            } catch (InvalidSpecException e) {
                String detail = source.length() > MAX_SOURCE
                        ? "name must be at most "
                                + MAX_SOURCE
                                + " characters so that <source>__<action> fits in 64, got: "
                                + source.length()
                        : detail(e);
                throw new CatalogFileException(file, label + ": " + detail, e);
            }
            ObjectNode defaults = JsonNodeFactory.instance.objectNode();
            if (src.hasNonNull("kind") && src.hasNonNull("source_kind")) {
                throw new CatalogFileException(file, label + ": give either kind or source_kind, not both");
            }
            JsonNode kind = src.hasNonNull("kind") ? src.get("kind") : src.get("source_kind");
            if (kind != null) {
                defaults.set("source_kind", kind);
            }
            for (String k : INHERITED) {
                if (!k.equals("source_kind") && src.hasNonNull(k)) {
                    defaults.set(k, src.get(k));
                }
            }
            // Check the defaults once, against the source, rather than against whichever action meets
            // them first.
            ObjectNode probe = JsonNodeFactory.instance.objectNode();
            probe.put("name", source + "__a");
            probe.put("description", "probe");
            try {
                ToolSpecJson.fromJson(probe, defaults);
            } catch (InvalidSpecException e) {
                throw new CatalogFileException(file, label + ": " + detail(e), e);
            }
            JsonNode actions = src.get("actions");
            if (actions == null || !actions.isArray()) {
                throw new CatalogFileException(
                        file, label + ": actions is required and must be an array of actions, got: " + kind(actions));
            }
            for (int j = 0; j < actions.size(); j++) {
                JsonNode action = actions.get(j);
                String at = where + ".actions[" + j + "]";
                if (!action.isObject()) {
                    throw new CatalogFileException(file, at + ": must be an action object, got: " + kind(action));
                }
                JsonNode actionName = action.get("name");
                if (actionName == null || !actionName.isTextual()) {
                    throw new CatalogFileException(
                            file,
                            at
                                    + ": name is required and must be a string (e.g. \"send_email\"), got: "
                                    + brief(actionName));
                }
                String a = actionName.asText();
                if (a.startsWith(source + ToolName.SEPARATOR)) {
                    throw new CatalogFileException(
                            file,
                            at
                                    + " ("
                                    + shown(a)
                                    + "): name must be the action alone (the source adds its prefix), got: '"
                                    + shown(a)
                                    + "', expected: '"
                                    + shown(a.substring(source.length() + ToolName.SEPARATOR.length()))
                                    + "'");
                }
                ObjectNode tool = ((ObjectNode) action).deepCopy();
                String full = source + ToolName.SEPARATOR + a;
                tool.put("name", full);
                add(at, full, tool, defaults);
            }
        }

        private void add(String where, String name, JsonNode tool, JsonNode defaults) {
            String label = where + (name == null ? "" : " (" + shown(name) + ")");
            warnUnknown(tool, TOOL_KEYS, label);
            List<String> schemas = SCHEMA_KEYS.stream().filter(tool::has).toList();
            if (schemas.size() > 1) {
                throw new CatalogFileException(
                        file, label + ": give the input schema once, found both " + String.join(" and ", schemas));
            }
            ToolSpec spec;
            List<String> problems = new ArrayList<>();
            try {
                spec = ToolSpecJson.fromJson(tool, defaults, problems);
            } catch (InvalidSpecException e) {
                throw new CatalogFileException(file, label + ": " + detail(e), e);
            }
            if (spec.sourceKind() == SourceKind.VERB || spec.name().source().equals(VerbManifest.SOURCE)) {
                // verbs have their own manifest and registry; a catalog file holding one would drop it on `index
                // --replace`
                throw new CatalogFileException(
                        file,
                        label + ": the source '" + VerbManifest.SOURCE + "' and the kind 'verb'"
                                + " are reserved for verbs, registered with `toolscout verbs register FILE`");
            }
            String reserved = ReservedSources.catalogRefusal(spec);
            if (reserved != null) {
                throw new CatalogFileException(file, label + ": " + reserved);
            }
            String first = seen.putIfAbsent(spec.fullName(), where);
            if (first != null) {
                throw new CatalogFileException(file, label + ": duplicate tool name, already defined at " + first);
            }
            out.add(new Entry(spec, where, problems.isEmpty() ? null : String.join("; ", problems)));
        }

        private void warnUnknown(JsonNode node, Set<String> known, String label) {
            node.fieldNames().forEachRemaining(k -> {
                if (!known.contains(k)) {
                    LOG.warn("{}: {}: ignoring unknown key '{}'", file, label, shown(k));
                }
            });
        }
    }

    /** The message of an {@link InvalidSpecException} without its {@code tool 'x': } prefix. */
    private static String detail(InvalidSpecException e) {
        String m = e.getMessage();
        String prefix = "tool '" + e.tool() + "': ";
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    /** {@code 'tools', 'sources' and/or 'skills'}. */
    private static String keys() {
        List<String> q = TOP_LEVEL_KEYS.stream().map(k -> "'" + k + "'").toList();
        return String.join(", ", q.subList(0, q.size() - 1)) + " and/or " + q.get(q.size() - 1);
    }

    /**
     * A name or key as it may appear in a message or log line: control characters escaped (a key with
     * a line break must not forge a log line) and at most {@value #SHOWN} characters.
     */
    static String shown(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && i < SHOWN; i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c)) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return s.length() > SHOWN ? b + "... (" + s.length() + " characters)" : b.toString();
    }

    /** A value for a "got: " clause: short scalars as JSON, long ones and containers cut short. */
    private static String brief(JsonNode n) {
        if (n == null) {
            return "nothing";
        }
        return n.isContainerNode() ? kind(n) : shown(n.toString());
    }

    private static String kind(JsonNode n) {
        return n == null ? "nothing" : n.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
