package dev.toolscout.eval.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.InvalidSpecException;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolName;
import dev.toolscout.model.ToolSchemas;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A tool-retrieval dataset in the normalized layout of {@code datasets/README.md}: a folder with
 * {@code tools.jsonl}, {@code queries.jsonl} and one or more {@code qrels*.tsv}.
 *
 * <p>Lenient about what a tool says, strict about structure. A line that is not a JSON object, an id that is
 * missing or repeated, a query without text, or a qrels line naming an unknown query or tool is a {@link
 * DatasetException} naming the file and line. Odd tool content is accepted and recorded in {@link
 * #warnings()}:
 *
 * <ul>
 *   <li>The wire name is {@value #SOURCE}{@code __<action>}, the action being the tool's {@code name} (or its
 *       {@code id}) with every run of characters outside {@code [A-Za-z0-9_-]} replaced by {@code _}, cut to
 *       fit 64 characters. Names equal ignoring case get {@code _2}, {@code _3}, ... in file order. The
 *       dataset id is kept as {@link ToolSpec#originalName()}.
 *   <li>Parameters come from {@code parameters}, or else {@code documentation.parameters}: a JSON Schema
 *       object is kept; a map of parameter name to parameter object, or a list of {@code {name, type |
 *       schema.type, description, required}} objects, is converted to an object schema. Python type names
 *       ({@code str}, {@code int}, ...) become JSON Schema types. Entries that cannot be understood are
 *       dropped with a warning.
 *   <li>The description is {@code description}; a {@code text} field (a source's flattened tool text) is
 *       used instead when it contains the description, else appended. A tool without {@code text} whose
 *       {@code documentation} is an object (ToolRet's layout) takes that object's other fields as its text:
 *       every field but {@code name}, {@code description} and {@code parameters}, one line each, its strings
 *       flattened (ToolRet indexes the whole documentation as the tool; gorilla's {@code domain} and
 *       {@code functionality}, toolink's signature, API-Bank's {@code responses}). With neither, the name is
 *       used.
 *       Descriptions longer than {@link ToolSpec#MAX_DESCRIPTION} are cut.
 *   <li>{@code depends_on} (a list of tool ids or names, or of objects with a {@code name}) becomes the
 *       spec's declared dependencies, mapped to wire names (ids first, then names); unknown names are
 *       dropped with a warning.
 * </ul>
 *
 * Immutable once read.
 */
public final class NormalizedDataset {
    /** The source part of every tool's wire name. */
    public static final String SOURCE = "t";

    public static final String TOOLS_FILE = "tools.jsonl";
    public static final String QUERIES_FILE = "queries.jsonl";

    private static final int MAX_NAME = 64;
    /** Ends the warning of a tool whose whole schema could not be read ({@link #unreadableSchemas()}). */
    static final String UNREADABLE = "parameters dropped, the tool keeps its name and description";

    private static final Set<String> DOCUMENTATION_READ_ELSEWHERE = Set.of("name", "description", "parameters");
    private static final Map<String, String> PYTHON_TYPES = Map.of(
            "str", "string",
            "int", "integer",
            "float", "number",
            "bool", "boolean",
            "list", "array",
            "tuple", "array",
            "dict", "object");

    private final Path dir;
    private final List<DatasetTool> tools;
    private final Map<String, DatasetTool> toolsById;
    private final Map<String, String> queries;
    private final List<String> warnings;

    private NormalizedDataset(Path dir, List<DatasetTool> tools, Map<String, String> queries, List<String> warnings) {
        this.dir = dir;
        this.tools = List.copyOf(tools);
        Map<String, DatasetTool> byId = new LinkedHashMap<>();
        for (DatasetTool t : tools) {
            byId.put(t.id(), t);
        }
        this.toolsById = Collections.unmodifiableMap(byId);
        this.queries = Collections.unmodifiableMap(new LinkedHashMap<>(queries));
        this.warnings = List.copyOf(warnings);
    }

    /** Reads {@code tools.jsonl} and {@code queries.jsonl} from {@code dir}; qrels are read on demand. */
    public static NormalizedDataset read(Path dir) {
        List<String> warnings = new ArrayList<>();
        List<DatasetTool> tools = readTools(dir.resolve(TOOLS_FILE), warnings);
        Map<String, String> queries = readQueries(dir.resolve(QUERIES_FILE));
        return new NormalizedDataset(dir, tools, queries, warnings);
    }

    public Path dir() {
        return dir;
    }

    /** Every tool, in file order. */
    public List<DatasetTool> tools() {
        return tools;
    }

    /** The tool with this dataset id. */
    public Optional<DatasetTool> tool(String id) {
        return Optional.ofNullable(toolsById.get(id));
    }

    /** Query id to text, in file order. */
    public Map<String, String> queries() {
        return queries;
    }

    /** What was accepted with a change (a dropped parameter, a cut description), one line each. */
    public List<String> warnings() {
        return warnings;
    }

    /** The warnings of tools whose whole parameter schema could not be read, one line each. */
    public List<String> unreadableSchemas() {
        return warnings.stream().filter(w -> w.endsWith(UNREADABLE)).toList();
    }

    /** The qrels files in the folder ({@code qrels.tsv}, {@code qrels.test.tsv}, ...), sorted by name. */
    public List<String> qrelsFiles() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("qrels") && n.endsWith(".tsv"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new DatasetException(dir, 0, "cannot list the folder: " + e, e);
        }
    }

    /**
     * The queries that have at least one gold tool (score > 0) in {@code qrelsFile}, in the order of {@code
     * queries.jsonl}. The file's header is {@code query-id, tool-id, score}, optionally followed by {@code step}:
     * then a query's gold tools with the same step value are equivalent (any one of them serves that step, as
     * in {@code scripts/anyof-qrels.py}'s output); without it each gold tool is a step of its own. Two steps with
     * the same tools are one step (a ranking holds a tool once).
     *
     * @param qrelsFile a file name in this folder, e.g. {@code qrels.test.tsv}
     * @throws DatasetException when the file is missing, its header or a line is malformed, or a line names
     *     a query or tool the dataset does not have
     */
    public List<ScoredQuery> scoredQueries(String qrelsFile) {
        Path file = dir.resolve(qrelsFile);
        Map<String, Map<String, Set<String>>> gold = new LinkedHashMap<>();
        List<String> lines = readLines(file);
        int columns = lines.isEmpty() ? 0 : headerColumns(lines.get(0));
        if (columns == 0) {
            throw new DatasetException(
                    file,
                    1,
                    "expected the header 'query-id<TAB>tool-id<TAB>score' (optionally '<TAB>step'), got: '"
                            + (lines.isEmpty() ? "" : abbreviate(lines.get(0)))
                            + "'");
        }
        String names = columns == 3 ? "query-id, tool-id, score" : "query-id, tool-id, score, step";
        for (int i = 1; i < lines.size(); i++) {
            int lineNo = i + 1;
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String[] cols = line.split("\t", -1);
            if (cols.length != columns) {
                throw new DatasetException(
                        file,
                        lineNo,
                        "expected " + columns + " tab-separated columns (" + names + "), got "
                                + cols.length
                                + ": '"
                                + abbreviate(line)
                                + "'");
            }
            String queryId = cols[0].strip();
            String toolId = cols[1].strip();
            double score;
            try {
                score = Double.parseDouble(cols[2].strip());
            } catch (NumberFormatException e) {
                throw new DatasetException(file, lineNo, "score must be a number, got: '" + cols[2] + "'");
            }
            if (!queries.containsKey(queryId)) {
                throw new DatasetException(file, lineNo, "query '" + queryId + "' is not in " + QUERIES_FILE);
            }
            if (!toolsById.containsKey(toolId)) {
                throw new DatasetException(file, lineNo, "tool '" + toolId + "' is not in " + TOOLS_FILE);
            }
            String step = columns == 3 ? toolId : cols[3].strip();
            if (step.isEmpty()) {
                throw new DatasetException(file, lineNo, "step must not be empty, got: '" + abbreviate(line) + "'");
            }
            if (score > 0) {
                gold.computeIfAbsent(queryId, k -> new LinkedHashMap<>())
                        .computeIfAbsent(step, k -> new LinkedHashSet<>())
                        .add(toolId);
            }
        }
        List<ScoredQuery> out = new ArrayList<>(gold.size());
        for (Map.Entry<String, String> q : queries.entrySet()) {
            Map<String, Set<String>> g = gold.get(q.getKey());
            if (g != null) {
                List<Set<String>> steps = new ArrayList<>(new LinkedHashSet<>(g.values()));
                Set<String> all = new LinkedHashSet<>();
                steps.forEach(all::addAll);
                out.add(new ScoredQuery(q.getKey(), q.getValue(), all, steps));
            }
        }
        return List.copyOf(out);
    }

    /** 3 or 4 for a valid qrels header (with the optional {@code step} column), else 0. */
    private static int headerColumns(String line) {
        String[] cols = line.strip().split("\t");
        boolean base = cols.length >= 3
                && cols[0].strip().equalsIgnoreCase("query-id")
                && cols[1].strip().equalsIgnoreCase("tool-id")
                && cols[2].strip().equalsIgnoreCase("score");
        if (base && cols.length == 3) {
            return 3;
        }
        return base && cols.length == 4 && cols[3].strip().equalsIgnoreCase("step") ? 4 : 0;
    }

    /** One non-blank line of a JSONL file: its number, its object and its required id. */
    private interface ObjectLine {
        void accept(int lineNo, JsonNode node, String id);
    }

    /** Reads a JSONL file line by line: blank lines skipped, every other line an object with an id. */
    private static void forEachObject(Path file, ObjectLine action) {
        List<String> lines = readLines(file);
        for (int i = 0; i < lines.size(); i++) {
            int lineNo = i + 1;
            if (lines.get(i).isBlank()) {
                continue;
            }
            JsonNode n = parseObject(file, lineNo, lines.get(i));
            action.accept(lineNo, n, requireId(file, lineNo, n));
        }
    }

    private static Map<String, String> readQueries(Path file) {
        Map<String, String> out = new LinkedHashMap<>();
        forEachObject(file, (lineNo, n, id) -> {
            JsonNode text = n.get("text");
            if (text == null || !text.isTextual() || text.asText().isBlank()) {
                throw new DatasetException(
                        file, lineNo, "query '" + id + "' needs a non-blank string \"text\", got: " + text);
            }
            if (out.putIfAbsent(id, text.asText()) != null) {
                throw new DatasetException(file, lineNo, "query id '" + id + "' appears twice");
            }
        });
        return out;
    }

    private static List<DatasetTool> readTools(Path file, List<String> warnings) {
        List<DatasetTool> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Set<String> takenNames = new HashSet<>();
        Map<Integer, List<String>> declared = new LinkedHashMap<>();
        Map<Integer, String> depWhere = new HashMap<>();
        forEachObject(file, (lineNo, n, id) -> {
            if (!ids.add(id)) {
                throw new DatasetException(file, lineNo, "tool id '" + id + "' appears twice");
            }
            String where = file.getFileName() + ":" + lineNo + ": tool '" + id + "': ";
            String name = text(n, "name");
            ToolName wireName = uniqueName(name.isBlank() ? id : name, id, takenNames);
            String description = description(n, name.isBlank() ? id : name, where, warnings);
            ObjectNode schema = schema(n, where, warnings);
            try {
                ToolSpec spec = ToolSpec.builder(wireName, description)
                        .sourceKind(SourceKind.INTEGRATION)
                        .parameters(schema)
                        .originalName(id)
                        .build();
                out.add(new DatasetTool(id, name, spec));
            } catch (InvalidSpecException e) {
                throw new DatasetException(file, lineNo, "tool '" + id + "' is not a valid tool: " + e.getMessage(), e);
            }
            List<String> deps = dependencyNames(n.get("depends_on"), where, warnings);
            if (!deps.isEmpty()) {
                declared.put(out.size() - 1, deps);
                depWhere.put(out.size() - 1, where);
            }
        });
        return resolveDependencies(out, declared, depWhere, warnings);
    }

    /**
     * {@code depends_on}: a list of tool names or ids, or of objects with a {@code name} (or {@code id}).
     * Entries of another shape are dropped with a warning.
     */
    private static List<String> dependencyNames(JsonNode deps, String where, List<String> warnings) {
        if (deps == null || deps.isNull()) {
            return List.of();
        }
        if (!deps.isArray()) {
            warnings.add(where + "depends_on is not a list (" + deps.getNodeType() + "); dropped");
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (JsonNode d : deps) {
            JsonNode ref = d.isObject() ? (d.hasNonNull("name") ? d.get("name") : d.get("id")) : d;
            if (ref != null
                    && (ref.isTextual() || ref.isIntegralNumber())
                    && !ref.asText().isBlank()) {
                out.add(ref.asText().strip());
            } else {
                warnings.add(where + "depends_on entry " + d + " is neither a name nor an object with a name; dropped");
            }
        }
        return out;
    }

    /**
     * Maps each declared dependency to the wire name of the tool it names: by dataset id first, then by the
     * dataset name (the first tool of that name). Unknown names and a tool naming itself are dropped with a
     * warning.
     */
    private static List<DatasetTool> resolveDependencies(
            List<DatasetTool> tools,
            Map<Integer, List<String>> declared,
            Map<Integer, String> where,
            List<String> warnings) {
        if (declared.isEmpty()) {
            return tools;
        }
        Map<String, String> byId = new HashMap<>();
        Map<String, String> byName = new HashMap<>();
        for (DatasetTool t : tools) {
            byId.put(t.id(), t.spec().fullName());
            byName.putIfAbsent(t.displayName(), t.spec().fullName());
        }
        List<DatasetTool> out = new ArrayList<>(tools);
        declared.forEach((i, deps) -> {
            DatasetTool t = tools.get(i);
            List<String> wire = new ArrayList<>();
            for (String d : deps) {
                String w = byId.containsKey(d) ? byId.get(d) : byName.get(d);
                if (w == null) {
                    warnings.add(where.get(i) + "depends_on names an unknown tool '" + d + "'; dropped");
                } else if (w.equals(t.spec().fullName())) {
                    warnings.add(where.get(i) + "depends_on names the tool itself; dropped");
                } else {
                    wire.add(w);
                }
            }
            if (!wire.isEmpty()) {
                out.set(
                        i,
                        new DatasetTool(
                                t.id(),
                                t.displayName(),
                                t.spec().toBuilder().dependsOn(wire).build()));
            }
        });
        return out;
    }

    private static String description(JsonNode n, String name, String where, List<String> warnings) {
        String description = text(n, "description").strip();
        String text = text(n, "text").strip();
        if (text.isEmpty() && n.path("documentation").isObject()) {
            text = documentationText((ObjectNode) n.get("documentation"));
        }
        if (!text.isEmpty()) {
            description = description.isEmpty() || text.contains(description) ? text : description + "\n" + text;
        }
        if (description.isEmpty()) {
            warnings.add(where + "no description or text; using the name");
            description = name;
        }
        if (description.length() > ToolSpec.MAX_DESCRIPTION) {
            warnings.add(where + "description cut from " + description.length() + " to " + ToolSpec.MAX_DESCRIPTION
                    + " chars");
            description = description.substring(0, ToolSpec.MAX_DESCRIPTION);
        }
        return description;
    }

    /**
     * The tool text of a source's {@code documentation} object beyond what is read elsewhere: one line per field
     * other than {@code name}, {@code description} and {@code parameters}, holding that field's strings in order
     * (lists and objects flattened; a key inside the field is kept before a list or object it names, so
     * {@code "responses": {"token": {...}}} reads {@code token ...}; blanks and {@code N/A} skipped).
     */
    private static String documentationText(ObjectNode doc) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : doc.properties()) {
            if (DOCUMENTATION_READ_ELSEWHERE.contains(e.getKey())) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            flatten(e.getValue(), parts);
            if (!parts.isEmpty()) {
                lines.add(String.join(" ", parts));
            }
        }
        return String.join("\n", lines);
    }

    private static void flatten(JsonNode v, List<String> out) {
        if (v.isTextual()) {
            String t = v.asText().strip();
            if (!t.isEmpty() && !t.equalsIgnoreCase("N/A")) {
                out.add(t);
            }
        } else if (v.isArray()) {
            v.forEach(x -> flatten(x, out));
        } else if (v.isObject()) {
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                int before = out.size();
                flatten(e.getValue(), out);
                if (out.size() > before && !e.getValue().isTextual()) {
                    out.add(before, e.getKey());
                }
            }
        }
    }

    /** The wire name for {@code base}: sanitized, at most 64 characters, unique ignoring case. */
    static ToolName uniqueName(String base, String id, Set<String> taken) {
        String action = sanitize(base);
        if (action.isEmpty()) {
            action = sanitize(id);
        }
        if (action.isEmpty()) {
            action = "tool";
        }
        int room = MAX_NAME - SOURCE.length() - ToolName.SEPARATOR.length();
        String candidate = cut(action, room);
        for (int suffix = 2; !taken.add(candidate.toLowerCase(Locale.ROOT)); suffix++) {
            String tail = "_" + suffix;
            candidate = cut(action, room - tail.length()) + tail;
        }
        return new ToolName(SOURCE, candidate);
    }

    private static String sanitize(String s) {
        String out = s.replaceAll("[^A-Za-z0-9_-]+", "_").replaceAll("_{2,}", "_");
        return out.replaceAll("^[_-]+|[_-]+$", "");
    }

    private static String cut(String s, int max) {
        String out = s.length() <= max ? s : s.substring(0, max);
        return out.replaceAll("[_-]+$", "");
    }

    private static ObjectNode schema(JsonNode n, String where, List<String> warnings) {
        JsonNode params = n.get("parameters");
        String field = "parameters";
        if ((params == null || params.isNull()) && n.path("documentation").isObject()) {
            params = n.get("documentation").get("parameters");
            field = "documentation.parameters";
        }
        if (params == null || params.isNull()) {
            return null;
        }
        if (params.isArray()) {
            return fromList((ArrayNode) params, where + field, warnings);
        }
        if (params.isObject()) {
            boolean isSchema =
                    params.path("properties").isObject() || params.path("type").isTextual();
            return isSchema
                    ? cleanSchema((ObjectNode) params, where + field, warnings)
                    : fromMap((ObjectNode) params, where + field, warnings);
        }
        warnings.add(
                where + field + " is neither a schema, a map nor a list (" + params.getNodeType() + "); " + UNREADABLE);
        return null;
    }

    private static ObjectNode cleanSchema(ObjectNode in, String where, List<String> warnings) {
        JsonNode type = in.get("type");
        // "dict" and the like are object types too (ToolSchemas.jsonType): reading only "object" lost every
        // parameter of such tools
        if (type != null && !(type.isTextual() && "object".equals(ToolSchemas.jsonType(type.asText())))) {
            warnings.add(where + " has type " + type + ", not an object type; " + UNREADABLE);
            return null;
        }
        ObjectNode schema = in.deepCopy();
        if (type != null) {
            schema.put("type", "object");
        }
        JsonNode props = schema.get("properties");
        if (props != null && !props.isObject()) {
            warnings.add(where + ".properties is not an object; dropped");
            schema.remove("properties");
            schema.remove("required");
            return schema;
        }
        ObjectNode properties = JsonNodeFactory.instance.objectNode();
        if (props != null) {
            for (Map.Entry<String, JsonNode> e : props.properties()) {
                if (e.getKey().isBlank() || !e.getValue().isObject()) {
                    warnings.add(where + ".properties." + e.getKey() + " is not a schema object; dropped");
                    continue;
                }
                properties.set(e.getKey(), normalizeType((ObjectNode) e.getValue()));
            }
        }
        schema.set("properties", properties);
        JsonNode required = schema.get("required");
        if (required != null) {
            ArrayNode kept = JsonNodeFactory.instance.arrayNode();
            if (required.isArray()) {
                for (JsonNode r : required) {
                    if (r.isTextual() && properties.has(r.asText())) {
                        kept.add(r.asText());
                    } else {
                        warnings.add(where + ".required names no parameter: " + r + "; dropped");
                    }
                }
            } else {
                warnings.add(where + ".required is not a list; dropped");
            }
            schema.set("required", kept);
        }
        return schema;
    }

    private static ObjectNode fromMap(ObjectNode map, String where, List<String> warnings) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        for (Map.Entry<String, JsonNode> e : map.properties()) {
            if (e.getKey().isBlank() || !e.getValue().isObject()) {
                warnings.add(where + "." + e.getKey() + " is not a parameter object; dropped");
                continue;
            }
            properties.set(e.getKey(), normalizeType(((ObjectNode) e.getValue()).deepCopy()));
        }
        return schema;
    }

    private static ObjectNode fromList(ArrayNode list, String where, List<String> warnings) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < list.size(); i++) {
            JsonNode p = list.get(i);
            String name = p.path("name").isTextual() ? p.get("name").asText().strip() : "";
            if (name.isEmpty()) {
                warnings.add(where + "[" + i + "] has no \"name\"; dropped");
                continue;
            }
            ObjectNode prop = properties.putObject(name);
            JsonNode type = p.path("type").isTextual()
                    ? p.get("type")
                    : p.path("schema").path("type");
            if (type.isTextual()) {
                prop.put("type", type.asText());
            }
            if (p.path("description").isTextual()
                    && !p.get("description").asText().isBlank()) {
                prop.put("description", p.get("description").asText());
            }
            normalizeType(prop);
            if (p.path("required").asBoolean(false)) {
                required.add(name);
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        return schema;
    }

    private static ObjectNode normalizeType(ObjectNode prop) {
        JsonNode type = prop.get("type");
        if (type != null && type.isTextual()) {
            String t = type.asText().strip().toLowerCase(Locale.ROOT);
            String mapped = PYTHON_TYPES.get(t);
            if (mapped != null) {
                prop.put("type", mapped);
            } else if (!t.equals(type.asText())) {
                prop.put("type", t); // e.g. RapidAPI's "STRING"
            }
        }
        return prop;
    }

    private static String requireId(Path file, int lineNo, JsonNode n) {
        JsonNode id = n.get("id");
        if (id == null
                || !(id.isTextual() || id.isIntegralNumber())
                || id.asText().isBlank()) {
            throw new DatasetException(file, lineNo, "needs a non-blank \"id\" (string or integer), got: " + id);
        }
        return id.asText();
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }

    private static JsonNode parseObject(Path file, int lineNo, String line) {
        JsonNode n;
        try {
            n = ToolSpecJson.MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            throw new DatasetException(file, lineNo, "malformed JSON: " + e.getOriginalMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new DatasetException(
                    file, lineNo, "expected a JSON object, got: " + (n == null ? "nothing" : n.getNodeType()));
        }
        return n;
    }

    private static List<String> readLines(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return r.lines().toList();
        } catch (NoSuchFileException e) {
            throw new DatasetException(
                    file, 0, "missing (a normalized dataset has tools.jsonl, queries.jsonl and qrels*.tsv)", e);
        } catch (IOException | UncheckedIOException e) {
            throw new DatasetException(file, 0, "cannot be read: " + e, e);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
