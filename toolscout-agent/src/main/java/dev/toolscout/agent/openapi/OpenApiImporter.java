package dev.toolscout.agent.openapi;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.agent.openapi.OpenApiOperation.In;
import dev.toolscout.agent.openapi.OpenApiOperation.Param;
import dev.toolscout.engine.files.CatalogFiles;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InvalidSpecException;
import dev.toolscout.model.ReservedSources;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolNaming;
import dev.toolscout.model.ToolSpec;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns an OpenAPI 3.0 or 3.1 document (JSON or YAML) into tools: one per operation, named {@code
 * <source>__<operationId>} (or {@code <source>__<method>_<path>} without an operation id), sanitized to the wire
 * rule by {@link ToolNaming#wireNames}. A tool's parameters are one JSON Schema object: the operation's path,
 * query and header parameters by name, and its JSON request body as {@code body}; every {@code $ref} inside the
 * document is resolved (a recursive one is cut where it repeats).
 *
 * <p>What the HTTP method says about the tool: {@code GET}, {@code HEAD}, {@code OPTIONS} and {@code TRACE}
 * read ({@code read}, run directly); {@code DELETE} deletes ({@code delete}, proposed for approval, as an MCP
 * tool marked {@code destructiveHint}); {@code POST}, {@code PUT} and {@code PATCH} write ({@code write}, run
 * directly, as an MCP tool without hints). The access policy can block or restrict any of them.
 *
 * <p>Lenient where the document is odd, strict on limits. An operation that cannot be called as the document
 * describes it (a required cookie or non-JSON body, a reference to another file) is left out with a warning
 * that names it; the others are imported. A document over a limit is refused whole: at most {@value
 * #MAX_OPERATIONS} operations, schemas nested at most {@value #MAX_SCHEMA_DEPTH} levels deep, at most {@value
 * #MAX_SCHEMA_NODES} schema nodes per tool once references are expanded (references can multiply a small
 * document's size), and the file at most {@link CatalogFiles#MAX_FILE_BYTES} bytes. Stateless and thread-safe.
 */
public final class OpenApiImporter {
    /** The most operations one document may hold. */
    public static final int MAX_OPERATIONS = 2_000;

    /** The deepest a schema may nest (objects in objects, arrays, references followed). */
    public static final int MAX_SCHEMA_DEPTH = 32;

    /** The most JSON nodes one tool's parameter schema may hold once every reference is expanded. */
    public static final int MAX_SCHEMA_NODES = 20_000;

    /** The longest source name: the rest of the 64 characters of a tool name is the operation's. */
    public static final int MAX_SOURCE_CHARS = 32;

    /** Follows at most this many references from one reference to the next before giving up. */
    private static final int MAX_REF_CHAIN = 16;

    private static final Pattern SOURCE = Pattern.compile("^[a-z0-9-]+(_[a-z0-9-]+)*$");
    private static final Pattern TEMPLATE_VAR = Pattern.compile("\\{([^{}/]+)}");
    private static final Pattern NOT_ARGUMENT = Pattern.compile("[^a-zA-Z0-9_.-]");
    private static final Pattern VERSION = Pattern.compile("^3\\.[01](\\.\\d+)?(-.*)?$");

    /** OpenAPI says these header parameters are ignored: the request's own handling sets them. */
    private static final Set<String> IGNORED_HEADERS = Set.of("accept", "content-type", "authorization");

    /** Schema keywords that only document (an XML mapping, examples): dropped, they cost the model tokens. */
    private static final Set<String> DROPPED_KEYWORDS =
            Set.of("xml", "externalDocs", "example", "examples", "discriminator", "$schema", "$id");

    private static final Set<String> SCHEMA_MAPS =
            Set.of("properties", "patternProperties", "$defs", "definitions", "dependentSchemas");
    private static final Set<String> SCHEMA_VALUES = Set.of(
            "items",
            "additionalProperties",
            "not",
            "if",
            "then",
            "else",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
            "additionalItems");
    private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf", "prefixItems");

    private OpenApiImporter() {}

    /**
     * What a document gave.
     *
     * @param tools one tool per imported operation, in document order
     * @param source the base URL, the credential and each tool's operation, to be stored with the catalog
     * @param warnings one line per operation or parameter left out, naming the file, where and why
     */
    public record Imported(List<ToolSpec> tools, OpenApiSource source, List<String> warnings) {
        public Imported {
            tools = List.copyOf(tools);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Reads {@code file} (JSON or YAML by its extension).
     *
     * @param source the source name for the tools: {@code [a-z0-9-]} in runs joined by single {@code _}, at most
     *     {@value #MAX_SOURCE_CHARS} characters, not a reserved one ({@link ReservedSources})
     * @param baseUrl the base URL, or {@code null} to take the document's first {@code servers} entry
     * @param auth the credential, or {@code null}
     * @throws IllegalArgumentException ({@link OpenApiImportException}, or the catalog reader's for an unreadable
     *     file) naming the file, where, the rule and the bad value; nothing is imported
     */
    public static Imported read(Path file, String source, String baseUrl, OpenApiAuth auth) {
        checkSource(source);
        JsonNode root = CatalogFiles.readTree(file);
        return new Reader(file.toString(), root, source, auth).read(baseUrl);
    }

    /** Parses a document already read; {@code label} names it in messages. See {@link #read}. */
    public static Imported parse(String label, JsonNode root, String source, String baseUrl, OpenApiAuth auth) {
        checkSource(source);
        return new Reader(label, root, source, auth).read(baseUrl);
    }

    /** Checks a source name; the message names the rule and the value. */
    public static void checkSource(String source) {
        if (source == null
                || source.length() > MAX_SOURCE_CHARS
                || !SOURCE.matcher(source).matches()) {
            throw new IllegalArgumentException(
                    "source must be 1-" + MAX_SOURCE_CHARS + " characters of a-z, 0-9 and -, "
                            + "in runs joined by single _ (e.g. petstore), got: '" + source + "'");
        }
        ReservedSources.check("--source", source, "source", source, "api");
    }

    /** An operation that cannot be imported as the document describes it: left out, with this warning. */
    private static final class Skip extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Skip(String message) {
            super(message, null, false, false);
        }
    }

    private static final class Reader {
        private final String file;
        private final JsonNode root;
        private final String source;
        private final OpenApiAuth auth;
        private final List<String> warnings = new ArrayList<>();
        private final Set<String> securityHeaders = new HashSet<>();

        Reader(String file, JsonNode root, String source, OpenApiAuth auth) {
            this.file = file;
            this.root = root;
            this.source = source;
            this.auth = auth;
        }

        private OpenApiImportException fail(String where, String problem) {
            return new OpenApiImportException(file, (where.isEmpty() ? "" : where + ": ") + problem);
        }

        Imported read(String baseUrlOverride) {
            if (root == null || !root.isObject()) {
                throw fail(
                        "",
                        "must be an OpenAPI 3 document (a JSON or YAML object), got: "
                                + (root == null
                                        ? "nothing"
                                        : root.getNodeType().toString().toLowerCase(Locale.ROOT)));
            }
            JsonNode version = root.get("openapi");
            if (version == null) {
                throw root.has("swagger")
                        ? fail(
                                "swagger",
                                "Swagger 2.0 documents are not supported: convert it to OpenAPI 3 first (for "
                                        + "example with swagger2openapi), got: swagger " + root.get("swagger"))
                        : fail("openapi", "is required: an OpenAPI 3.0 or 3.1 document starts with openapi: 3.x.y");
            }
            if (!version.isTextual() || !VERSION.matcher(version.asText()).matches()) {
                throw fail("openapi", "must be a 3.0.x or 3.1.x version, got: " + version);
            }
            URI base = baseUrl(baseUrlOverride);
            for (Map.Entry<String, JsonNode> e :
                    root.path("components").path("securitySchemes").properties()) {
                JsonNode s = e.getValue();
                if ("apiKey".equals(s.path("type").asText())
                        && "header".equals(s.path("in").asText())) {
                    securityHeaders.add(s.path("name").asText().toLowerCase(Locale.ROOT));
                }
            }
            JsonNode paths = root.get("paths");
            if (paths == null || !paths.isObject()) {
                throw fail(
                        "paths",
                        "is required and must be an object of path templates, got: "
                                + (paths == null
                                        ? "nothing"
                                        : paths.getNodeType().toString().toLowerCase(Locale.ROOT)));
            }

            record Found(String path, String method, JsonNode pathItem, JsonNode op, String where) {}
            List<Found> found = new ArrayList<>();
            int count = 0;
            for (Map.Entry<String, JsonNode> p : paths.properties()) {
                String where = "paths." + p.getKey();
                if (!p.getKey().startsWith("/")) {
                    warnings.add(file + ": " + where + ": left out: a path must start with '/'");
                    continue;
                }
                String path;
                try {
                    // the document's own '.' and '..' are resolved here, as a server would, and never climb out of the
                    // base URL
                    path = BaseUrls.removeDotSegments(p.getKey());
                } catch (IllegalArgumentException e) {
                    warnings.add(file + ": " + where + ": left out: " + e.getMessage());
                    continue;
                }
                if (!path.equals(p.getKey())) {
                    warnings.add(file + ": " + where + ": dot segments resolved, called as " + path);
                }
                JsonNode item;
                try {
                    item = deref(p.getValue(), where);
                } catch (Skip s) {
                    warnings.add(file + ": " + where + ": left out: " + s.getMessage());
                    continue;
                }
                for (String m : OpenApiOperation.METHODS) {
                    JsonNode op = item.get(m);
                    if (op != null && op.isObject()) {
                        count++;
                        found.add(new Found(path, m, item, op, where + "." + m));
                    }
                }
            }
            if (count > MAX_OPERATIONS) {
                throw fail(
                        "paths",
                        String.format(
                                Locale.ROOT,
                                "holds %,d operations, more than the limit of %,d",
                                count,
                                MAX_OPERATIONS));
            }

            // the name each operation is known by: its operationId, else method_path; made unique in document order
            List<String> originals = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (Found f : found) {
                JsonNode id = f.op().get("operationId");
                String name = id != null && id.isTextual() && !id.asText().isBlank()
                        ? id.asText().strip()
                        : f.method() + "_" + slug(f.path());
                String unique = name;
                for (int n = 2; !seen.add(unique); n++) {
                    unique = name + "_" + n;
                }
                if (!unique.equals(name)) {
                    warnings.add(file + ": " + f.where() + ": operationId '" + name
                            + "' is taken by an earlier operation; " + "this one is named '" + unique + "'");
                }
                originals.add(unique);
            }
            Map<String, String> wire = ToolNaming.wireNames(source, originals);

            List<ToolSpec> tools = new ArrayList<>();
            Map<String, OpenApiOperation> operations = new LinkedHashMap<>();
            for (int i = 0; i < found.size(); i++) {
                Found f = found.get(i);
                try {
                    Built b = build(
                            f.path(),
                            f.method(),
                            f.pathItem(),
                            f.op(),
                            wire.get(originals.get(i)),
                            originals.get(i),
                            f.where());
                    tools.add(b.spec());
                    operations.put(b.spec().fullName(), b.operation());
                } catch (Skip s) {
                    warnings.add(file + ": " + f.where() + ": left out: " + s.getMessage());
                }
            }
            if (tools.isEmpty()) {
                throw fail(
                        "paths",
                        "holds no operation that can be imported"
                                + (warnings.isEmpty()
                                        ? ""
                                        : " (" + warnings.size() + " left out; the first: " + warnings.get(0) + ")"));
            }
            return new Imported(tools, new OpenApiSource(source, file, base, auth, operations), warnings);
        }

        private URI baseUrl(String override) {
            if (override != null) {
                try {
                    return BaseUrls.parse(override);
                } catch (IllegalArgumentException e) {
                    throw fail("--base-url", e.getMessage());
                }
            }
            JsonNode servers = root.get("servers");
            JsonNode server = servers != null && servers.isArray() && !servers.isEmpty() ? servers.get(0) : null;
            String url = server == null ? null : server.path("url").asText(null);
            if (url == null || url.isBlank()) {
                throw fail(
                        "servers",
                        "the document names no server URL: give the base URL (--base-url "
                                + "https://api.example.com/v1)");
            }
            Matcher m = TEMPLATE_VAR.matcher(url);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                JsonNode def = server.path("variables").path(m.group(1)).get("default");
                if (def == null || !def.isValueNode()) {
                    throw fail(
                            "servers[0].url",
                            "variable {" + m.group(1) + "} has no default in servers[0].variables: give "
                                    + "the base URL (--base-url), got: '" + url + "'");
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(def.asText()));
            }
            m.appendTail(sb);
            String resolved = sb.toString();
            if (!resolved.contains("://")) {
                throw fail(
                        "servers[0].url",
                        "is relative, and an imported file has no address to resolve it against: "
                                + "give the base URL (--base-url https://api.example.com" + resolved + "), got: '"
                                + resolved + "'");
            }
            try {
                return BaseUrls.parse(resolved);
            } catch (IllegalArgumentException e) {
                throw fail("servers[0].url", e.getMessage());
            }
        }

        private record Built(ToolSpec spec, OpenApiOperation operation) {}

        private Built build(
                String path,
                String method,
                JsonNode pathItem,
                JsonNode op,
                String wireName,
                String original,
                String where) {
            Map<String, JsonNode> declared = new LinkedHashMap<>();
            Map<String, String> declaredWhere = new LinkedHashMap<>();
            for (JsonNode owner : List.of(pathItem, op)) {
                JsonNode list = owner.get("parameters");
                if (list == null) {
                    continue;
                }
                String at = (owner == op ? where : where.substring(0, where.lastIndexOf('.'))) + ".parameters";
                if (!list.isArray()) {
                    throw new Skip(at + " must be an array");
                }
                for (int i = 0; i < list.size(); i++) {
                    JsonNode p = deref(list.get(i), at + "[" + i + "]");
                    String name = p.path("name").asText(null);
                    String in = p.path("in").asText(null);
                    if (name == null || name.isEmpty() || in == null) {
                        throw new Skip(at + "[" + i + "]: a parameter needs a name and an 'in'");
                    }
                    declared.put(
                            in + "\n" + name, p); // the operation's own replaces the path's of the same name and place
                    declaredWhere.put(in + "\n" + name, at + "[" + i + "]");
                }
            }
            Set<String> templateVars = new LinkedHashSet<>();
            Matcher vm = TEMPLATE_VAR.matcher(path);
            while (vm.find()) {
                templateVars.add(vm.group(1));
            }

            Budget budget = new Budget(where);
            ObjectNode schema = JsonNodeFactory.instance.objectNode();
            schema.put("type", "object");
            ObjectNode props = schema.putObject("properties");
            ArrayNode required = JsonNodeFactory.instance.arrayNode();
            Set<String> args = new HashSet<>();
            List<Param> params = new ArrayList<>();
            Set<String> pathDeclared = new HashSet<>();
            for (Map.Entry<String, JsonNode> e : declared.entrySet()) {
                JsonNode p = e.getValue();
                String at = declaredWhere.get(e.getKey());
                String name = p.get("name").asText();
                String in = p.get("in").asText();
                boolean req = p.path("required").asBoolean(false);
                switch (in) {
                    case "cookie" -> {
                        if (req) {
                            throw new Skip(
                                    "cookie parameter '" + name + "' is required, and cookies are not supported");
                        }
                        warnings.add(file + ": " + at + ": cookie parameter '" + name
                                + "' left out (cookies are not supported)");
                        continue;
                    }
                    case "header" -> {
                        String lower = name.toLowerCase(Locale.ROOT);
                        if (IGNORED_HEADERS.contains(lower)
                                || securityHeaders.contains(lower)
                                || (auth != null && auth.headerName().equalsIgnoreCase(name))) {
                            continue; // set by the request itself or by the configured credential, never by the model
                        }
                    }
                    case "path" -> {
                        if (!templateVars.contains(name)) {
                            warnings.add(file + ": " + at + ": path parameter '" + name + "' is not in the path " + path
                                    + "; left out");
                            continue;
                        }
                        req = true;
                        pathDeclared.add(name);
                    }
                    case "query" -> {
                        // taken as it is
                    }
                    default ->
                        throw new Skip("parameter '" + name + "' is in '" + in + "', which is not one of path, query, "
                                + "header, cookie");
                }
                String arg = argument(name, in, args);
                ObjectNode ps = paramSchema(p, at, budget);
                props.set(arg, ps);
                if (req) {
                    required.add(arg);
                }
                String style = p.path("style").asText("form");
                boolean explode = p.has("explode") ? p.get("explode").asBoolean() : style.equals("form");
                params.add(new Param(arg, name, In.of(in), explode, style.equals("deepObject")));
            }
            for (String v : templateVars) {
                if (!pathDeclared.contains(v)) {
                    warnings.add(file + ": " + where + ": path variable {" + v
                            + "} has no declared parameter; taken as a " + "required string");
                    String arg = argument(v, "path", args);
                    props.putObject(arg).put("type", "string");
                    required.add(arg);
                    params.add(new Param(arg, v, In.PATH, false, false));
                }
            }

            String bodyArg = null;
            JsonNode rb = op.get("requestBody");
            if (rb != null) {
                rb = deref(rb, where + ".requestBody");
                JsonNode content = rb.path("content");
                String mediaType = null;
                for (Map.Entry<String, JsonNode> c : content.properties()) {
                    String t = c.getKey().toLowerCase(Locale.ROOT);
                    if (isJson(t) && (mediaType == null || t.startsWith("application/json"))) {
                        mediaType = c.getKey();
                    }
                }
                if (mediaType != null) {
                    bodyArg = argument("body", "request", args);
                    JsonNode s = content.get(mediaType).get("schema");
                    ObjectNode bs = s == null
                            ? JsonNodeFactory.instance.objectNode()
                            : asObject(schema(s, where + ".requestBody.content." + mediaType + ".schema", budget, 1));
                    String d = rb.path("description").asText("");
                    if (!d.isBlank() && !bs.has("description")) {
                        bs.put("description", d.strip());
                    }
                    props.set(bodyArg, bs);
                    if (rb.path("required").asBoolean(false)) {
                        required.add(bodyArg);
                    }
                } else {
                    List<String> types = new ArrayList<>();
                    content.fieldNames().forEachRemaining(types::add);
                    if (rb.path("required").asBoolean(false)) {
                        throw new Skip(
                                "its request body is required and is " + types + ": only JSON bodies are supported");
                    }
                    warnings.add(file + ": " + where + ".requestBody: " + types
                            + " left out (only JSON bodies are supported); "
                            + "the operation is called without a body");
                }
            }
            if (!required.isEmpty()) {
                schema.set("required", required);
            }

            OpenApiOperation operation = new OpenApiOperation(method, path, params, bodyArg);
            SideEffect effect = operation.reads() || method.equals("trace")
                    ? SideEffect.READ
                    : method.equals("delete") ? SideEffect.DELETE : SideEffect.WRITE;
            AiAccess access = effect == SideEffect.DELETE ? AiAccess.PROPOSE : AiAccess.EXECUTE;
            List<String> tags = new ArrayList<>();
            tags.add(source);
            for (JsonNode t : op.path("tags")) {
                String tag = t.asText("").strip().toLowerCase(Locale.ROOT);
                if (!tag.isEmpty() && tag.length() <= ToolSpec.MAX_LABEL && tags.size() < ToolSpec.MAX_TAGS) {
                    tags.add(tag);
                }
            }
            try {
                ToolSpec spec = ToolSpec.builder(wireName, description(op, operation))
                        .sourceKind(SourceKind.OPENAPI)
                        .category("openapi")
                        .tags(tags)
                        .parameters(schema)
                        .aiAccess(access)
                        .sideEffect(effect)
                        .originalName(original)
                        .build();
                return new Built(spec, operation);
            } catch (InvalidSpecException e) {
                throw new Skip(e.getMessage());
            }
        }

        private static boolean isJson(String mediaType) {
            String t = mediaType.split(";", 2)[0].strip();
            return t.equals("application/json") || (t.startsWith("application/") && t.endsWith("+json"));
        }

        private String description(JsonNode op, OpenApiOperation operation) {
            String summary = op.path("summary").asText("").strip();
            String text = op.path("description").asText("").strip();
            String d;
            if (summary.isEmpty()) {
                d = text.isEmpty() ? operation.label() : text;
            } else {
                d = text.isEmpty() || text.startsWith(summary)
                        ? (text.isEmpty() ? summary : text)
                        : summary + "\n\n" + text;
            }
            if (op.path("deprecated").asBoolean(false)) {
                d = "(Deprecated) " + d;
            }
            return d.length() > ToolSpec.MAX_DESCRIPTION ? d.substring(0, ToolSpec.MAX_DESCRIPTION) : d;
        }

        /** A parameter's schema ({@code schema}, else the one of its {@code content}), with its description. */
        private ObjectNode paramSchema(JsonNode p, String at, Budget budget) {
            JsonNode s = p.get("schema");
            String sAt = at + ".schema";
            if (s == null && p.path("content").isObject() && !p.get("content").isEmpty()) {
                Map.Entry<String, JsonNode> first =
                        p.get("content").properties().iterator().next();
                s = first.getValue().get("schema");
                sAt = at + ".content." + first.getKey() + ".schema";
            }
            ObjectNode out = s == null
                    ? JsonNodeFactory.instance.objectNode().put("type", "string")
                    : asObject(schema(s, sAt, budget, 1));
            String d = p.path("description").asText("");
            if (!d.isBlank() && !out.has("description")) {
                out.put("description", d.strip());
            }
            if (p.path("deprecated").asBoolean(false)) {
                out.put("deprecated", true);
            }
            return out;
        }

        private static ObjectNode asObject(JsonNode n) {
            if (n instanceof ObjectNode o) {
                return o;
            }
            // a boolean schema: true takes anything, false nothing
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            if (n.isBoolean() && !n.asBoolean()) {
                o.putObject("not");
            }
            return o;
        }

        /**
         * A schema with every reference expanded, documentation-only keywords dropped, a reference that repeats
         * inside itself cut, within the depth and size limits.
         */
        private JsonNode schema(JsonNode n, String at, Budget b, int depth) {
            return schema(n, at, b, depth, new ArrayDeque<>());
        }

        private JsonNode schema(JsonNode n, String at, Budget b, int depth, Deque<String> stack) {
            if (depth > MAX_SCHEMA_DEPTH) {
                throw fail(at, "schema nests more than " + MAX_SCHEMA_DEPTH + " levels deep (the limit)");
            }
            b.add(1);
            if (!n.isObject()) {
                return n.isBoolean() ? n : asObject(n); // odd input (a string): taken as "anything"
            }
            JsonNode ref = n.get("$ref");
            if (ref != null) {
                String r = ref.asText();
                if (stack.contains(r)) {
                    ObjectNode cut = JsonNodeFactory.instance.objectNode();
                    cut.put(
                            "description",
                            "a " + r.substring(r.lastIndexOf('/') + 1) + " (recursive: not expanded further)");
                    return cut;
                }
                JsonNode target = pointer(r, at);
                stack.push(r);
                JsonNode resolved = schema(target, at, b, depth + 1, stack);
                stack.pop();
                if (n.size() == 1) {
                    return resolved;
                }
                // OpenAPI 3.1 (JSON Schema 2020-12) allows keywords beside $ref: they apply too
                ObjectNode out = asObject(resolved).deepCopy();
                for (Map.Entry<String, JsonNode> e : n.properties()) {
                    if (!e.getKey().equals("$ref") && !DROPPED_KEYWORDS.contains(e.getKey())) {
                        out.set(e.getKey(), keyword(e.getKey(), e.getValue(), at, b, depth, stack));
                    }
                }
                return out;
            }
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if (!DROPPED_KEYWORDS.contains(e.getKey())) {
                    out.set(e.getKey(), keyword(e.getKey(), e.getValue(), at, b, depth, stack));
                }
            }
            return out;
        }

        private JsonNode keyword(String k, JsonNode v, String at, Budget b, int depth, Deque<String> stack) {
            if (SCHEMA_MAPS.contains(k) && v.isObject()) {
                ObjectNode out = JsonNodeFactory.instance.objectNode();
                for (Map.Entry<String, JsonNode> e : v.properties()) {
                    JsonNode s = schema(e.getValue(), at + "." + k + "." + e.getKey(), b, depth + 1, stack);
                    out.set(e.getKey(), k.equals("properties") ? asObject(s) : s);
                }
                return out;
            }
            if (SCHEMA_VALUES.contains(k) && (v.isObject() || v.isBoolean())) {
                return schema(v, at + "." + k, b, depth + 1, stack);
            }
            if ((SCHEMA_LISTS.contains(k) || k.equals("items")) && v.isArray()) {
                ArrayNode out = JsonNodeFactory.instance.arrayNode();
                for (int i = 0; i < v.size(); i++) {
                    out.add(schema(v.get(i), at + "." + k + "[" + i + "]", b, depth + 1, stack));
                }
                return out;
            }
            b.add(nodes(v));
            return v.deepCopy();
        }

        private static int nodes(JsonNode n) {
            int c = 1;
            for (JsonNode child : n) {
                c += nodes(child);
            }
            return c;
        }

        /** Follows a non-schema object's references (a parameter, a request body, a path item) to the object. */
        private JsonNode deref(JsonNode n, String at) {
            JsonNode cur = n;
            for (int i = 0; cur != null && cur.isObject() && cur.has("$ref"); i++) {
                if (i == MAX_REF_CHAIN) {
                    throw new Skip(at + ": more than " + MAX_REF_CHAIN + " references lead from one to the next");
                }
                cur = pointer(cur.get("$ref").asText(), at);
            }
            if (cur == null || !cur.isObject()) {
                throw new Skip(at + " must be an object");
            }
            return cur;
        }

        /** The node a local reference ({@code #/components/schemas/Pet}) points to. */
        private JsonNode pointer(String ref, String at) {
            if (!ref.startsWith("#/") && !ref.equals("#")) {
                throw new Skip(at + ": only references within the document (#/...) are supported, got: '" + ref + "'");
            }
            JsonNode target;
            try {
                target = root.at(JsonPointer.compile(percentDecode(ref.substring(1))));
            } catch (IllegalArgumentException e) {
                throw new Skip(at + ": reference '" + ref + "' is not a valid JSON pointer");
            }
            if (target.isMissingNode()) {
                throw new Skip(at + ": reference '" + ref + "' points to nothing in the document");
            }
            return target;
        }

        /** Percent-decoding of a URI fragment (not form decoding: '+' stays '+'). */
        private static String percentDecode(String s) {
            if (s.indexOf('%') < 0) {
                return s;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                int hex = c == '%' && i + 2 < s.length() ? hex(s.substring(i + 1, i + 3)) : -1;
                if (hex >= 0) {
                    out.write(hex);
                    i += 2;
                } else {
                    out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        }

        private static int hex(String two) {
            int hi = Character.digit(two.charAt(0), 16);
            int lo = Character.digit(two.charAt(1), 16);
            return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
        }

        /** Counts schema nodes for one tool; over the limit, the import fails. */
        private final class Budget {
            private final String where;
            private int used;

            Budget(String where) {
                this.where = where;
            }

            void add(int n) {
                used += n;
                if (used > MAX_SCHEMA_NODES) {
                    throw fail(
                            where,
                            String.format(
                                    Locale.ROOT,
                                    "the parameter schemas hold more than %,d nodes once "
                                            + "references are expanded (the limit)",
                                    MAX_SCHEMA_NODES));
                }
            }
        }
    }

    /** The argument name for a parameter: its name sanitized, or {@code <in>_<name>} when that is taken. */
    private static String argument(String name, String in, Set<String> taken) {
        String base = NOT_ARGUMENT.matcher(name).replaceAll("_");
        if (base.length() > 56) {
            base = base.substring(0, 56);
        }
        String a = base;
        if (!taken.add(a)) {
            a = in + "_" + base;
            for (int n = 2; !taken.add(a); n++) {
                a = in + "_" + base + "_" + n;
            }
        }
        return a;
    }

    /** {@code /pets/{petId}/toys} to {@code pets_petId_toys}. */
    private static String slug(String path) {
        String s = path.replaceAll("[{}]", "").replaceAll("[^A-Za-z0-9]+", "_").replaceAll("^_+|_+$", "");
        return s.isEmpty() ? "root" : s;
    }
}
