package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.engine.CatalogChange;
import dev.toolscout.engine.FindResult;
import dev.toolscout.engine.NoSuchToolException;
import dev.toolscout.engine.ToolPage;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.ServerRegistry;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.InvalidSpecException;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.server.DiscoveryJson;
import dev.toolscout.verbs.VerbManifest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The catalog: search ({@code tool_discovery__find}), list ({@code list_all}, paged), describe, and the admin's
 * writes. Reads show only what the caller's principal may see, and a tool it may not see is answered exactly
 * like a missing one. Writes are acknowledged once durable in the store (the library's {@code upsert} and
 * {@code remove} return then), and the next selection ranks them.
 */
final class ToolRoutes implements RouteGroup {
    /** The fields of a tool (docs/CATALOG_FORMAT.md, "Tool fields"); the API refuses any other. */
    static final Set<String> TOOL_FIELDS = Set.of(
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
    /**
     * What GET answers beside a tool's fields, read-only: a PUT takes a GET's answer back, so it accepts and ignores
     * it.
     */
    static final String AVAILABLE_IN_GROUPS = "available_in_groups";

    private static final Set<String> PUT_FIELDS = union(TOOL_FIELDS, AVAILABLE_IN_GROUPS);

    private static Set<String> union(Set<String> a, String b) {
        Set<String> out = new HashSet<>(a);
        out.add(b);
        return Set.copyOf(out);
    }

    /** What {@code POST /v1/tools/search} answers: its own JSON, or Claude's {@code tool_reference} blocks. */
    private static final List<String> SEARCH_FORMATS = List.of("json", "tool_reference");

    /** The most tools one page lists; the library's own cap. */
    static final int MAX_PAGE = 1000;

    static final int DEFAULT_PAGE = 100;
    /** The most upserts, and the most deletes, in one batch. */
    static final int MAX_BATCH = 1000;

    @Override
    public List<Endpoint> routes() {
        JsonNode name = OpenApi.schema("{\"type\": \"string\", \"minLength\": 1, \"maxLength\": 256}");
        return List.of(
                Endpoint.post("/v1/tools/search", "searchTools")
                        .summary("Search the tools the caller may see (tool_discovery__find)")
                        .description("With format tool_reference, the answer is the content of the tool_result a "
                                + "client gives Claude for its search tool's call: a tool_reference block per match, "
                                + "naming tools as select's format anthropic-deferred sends them.")
                        .request("SearchRequest")
                        .response(200, "Matches, best first", "application/json", OpenApi.schema("""
            {"anyOf": [{"$ref": "#/components/schemas/SearchResult"},
                       {"$ref": "#/components/schemas/ToolReferences"}]}"""))
                        .handle(this::search),
                Endpoint.get("/v1/tools", "listTools")
                        .summary(
                                "List the tools the caller may see, by name, a page at a time (tool_discovery__list_all)")
                        .query("category", "Only this category (case-insensitive)", name)
                        .query(
                                "offset",
                                "Where the page starts (default 0)",
                                OpenApi.schema("{\"type\": \"integer\", \"minimum\": 0}"))
                        .query(
                                "limit",
                                "Tools per page, 1-1000 (default 100)",
                                OpenApi.schema("{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 1000}"))
                        .response(200, "One page", "ToolPage")
                        .handle(this::list),
                Endpoint.get("/v1/tools/{name}", "describeTool")
                        .summary("One tool's definition (tool_discovery__describe), in the catalog format")
                        .description("A tool the caller may not see gets the same 404 as one that does not exist.")
                        .pathParam("name", "The tool's name, e.g. gmail__send_email", name)
                        .response(200, "The tool, as docs/CATALOG_FORMAT.md writes it", "Tool")
                        .problem(404, "No such tool, or not one the caller may see")
                        .handle(this::describe),
                Endpoint.put("/v1/tools/{name}", "putTool")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Add or replace one tool")
                        .description(
                                "The body is a tool in the catalog format (docs/CATALOG_FORMAT.md); its name may be left "
                                        + "out, and must equal the path's when given. Answered once the tool is durable in the store.")
                        .pathParam("name", "The tool's name", name)
                        .request("Tool")
                        .response(200, "Replaced (or unchanged)", "ToolWritten")
                        .response(201, "Added", "ToolWritten")
                        .problem(409, "The name belongs to an upstream MCP server's tools")
                        .handle(this::put),
                Endpoint.post("/v1/tools:batch", "batchTools")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Add, replace and remove tools in one request")
                        .description(
                                "Checked as a whole before anything is written: a bad tool or a name that is not in the "
                                        + "catalog changes nothing. Then the removals and the upserts are written, each durable before the "
                                        + "answer.")
                        .request("BatchRequest")
                        .response(200, "What changed", "CatalogChange")
                        .problem(404, "A tool to delete is not in the catalog; nothing was changed")
                        .problem(409, "A name belongs to an upstream MCP server's tools; nothing was changed")
                        .handle(this::batch),
                Endpoint.delete("/v1/tools/{name}", "deleteTool")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Remove one tool")
                        .pathParam("name", "The tool's name", name)
                        .response(200, "Removed; durable in the store", "CatalogChange")
                        .problem(404, "No such tool")
                        .problem(409, "The tool is an upstream MCP server's (remove the server instead)")
                        .handle(this::delete));
    }

    private Reply search(Call c) {
        Fields f = Fields.of(c.json(), "", Set.of("query", "limit", "format"));
        String query = f.text("query", true, InputLimits.MAX_MESSAGE_CHARS);
        Integer limit = f.integer("limit", 1, DiscoveryTools.MAX_LIMIT);
        String format = f.oneOf("format", SEARCH_FORMATS, "json");
        FindResult found = c.backend().scout().find(c.principal(), query, limit);
        return Reply.json(format.equals("tool_reference") ? found.toolReferences() : DiscoveryJson.find(found));
    }

    private Reply list(Call c) {
        String category = c.query("category");
        if (category != null && category.length() > InputLimits.MAX_NAME_CHARS) {
            throw ApiProblem.invalid(
                    "category", "at most 256 characters", category, InputLimits.nameTooLong("category", category));
        }
        int offset = c.queryInt("offset", 0, Integer.MAX_VALUE, 0);
        int limit = c.queryInt("limit", 1, MAX_PAGE, DEFAULT_PAGE);
        ToolPage page = c.backend()
                .scout()
                .list(c.principal(), category == null || category.isBlank() ? null : category, offset, limit);
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        if (category != null && !category.isBlank()) {
            out.put("category", category.strip().toLowerCase(Locale.ROOT));
        }
        out.put("total", page.total());
        out.put("offset", page.offset());
        out.put("limit", limit);
        ArrayNode tools = out.putArray("tools");
        for (ToolPage.ToolSummary t : page.tools()) {
            tools.addObject()
                    .put("name", t.name())
                    .put("description", t.description())
                    .put("category", t.category());
        }
        ObjectNode cats = out.putObject("categories");
        page.categories().forEach(cats::put);
        return Reply.json(out);
    }

    private Reply describe(Call c) {
        String name = c.path("name");
        checkName(name);
        Optional<ToolSpec> spec = c.backend().scout().describe(c.principal(), name.strip());
        ObjectNode out = ToolSpecJson.toJson(spec.orElseThrow(() -> notFound(name)));
        // asked only once the tool is known to be visible: a denied tool's 404 above says nothing of the policy
        ArrayNode groups = out.putArray(AVAILABLE_IN_GROUPS);
        c.backend()
                .scout()
                .availableInGroups(c.principal(), name.strip())
                .orElse(List.of())
                .forEach(groups::add);
        return Reply.json(out);
    }

    private Reply put(Call c) {
        String name = c.path("name");
        checkName(name);
        JsonNode body = c.json();
        Fields.of(body, "", PUT_FIELDS);
        JsonNode given = body.get("name");
        if (given != null
                && !given.isNull()
                && !(given.isTextual() && given.textValue().equals(name))) {
            throw ApiProblem.invalid(
                    "name",
                    "equal to the path's name '" + Fields.shown(name) + "'",
                    given,
                    "name in the body must equal the name in the path ('" + Fields.shown(name) + "'), got: "
                            + Fields.shown(given));
        }
        ObjectNode tool = ((ObjectNode) body).deepCopy();
        tool.put("name", name);
        tool.remove(AVAILABLE_IN_GROUPS);
        ToolSpec spec = read(tool, "");
        checkNotUpstream(c.backend().servers(), List.of(spec.fullName()), "");
        ToolScout scout = c.backend().scout();
        CatalogChange change = scout.upsert(List.of(spec));
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("tool", ToolSpecJson.toJson(spec));
        out.set("change", changeJson(change));
        return Reply.json(change.added() > 0 ? 201 : 200, out);
    }

    private Reply batch(Call c) {
        Fields f = Fields.of(c.json(), "", Set.of("upserts", "deletes"));
        List<JsonNode> upserts = f.array("upserts", MAX_BATCH);
        List<JsonNode> deletes = f.array("deletes", MAX_BATCH);
        List<ToolSpec> specs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < upserts.size(); i++) {
            String at = "upserts[" + i + "]";
            Fields.of(upserts.get(i), at, TOOL_FIELDS);
            ToolSpec s = read(upserts.get(i), at);
            if (!names.add(s.fullName())) {
                throw ApiProblem.invalid(
                        at + ".name",
                        "distinct names",
                        s.fullName(),
                        at + ".name repeats '" + s.fullName() + "', given earlier in upserts; nothing was changed");
            }
            specs.add(s);
        }
        Set<String> removals = new LinkedHashSet<>();
        for (int i = 0; i < deletes.size(); i++) {
            String at = "deletes[" + i + "]";
            JsonNode d = deletes.get(i);
            if (!d.isTextual() || d.textValue().isBlank() || d.textValue().length() > InputLimits.MAX_NAME_CHARS) {
                throw ApiProblem.invalid(
                        at,
                        "a tool name (1-256 characters)",
                        d,
                        at + " must be a tool name (a string of 1-256 characters), got: " + Fields.shown(d));
            }
            if (names.contains(d.textValue())) {
                throw ApiProblem.invalid(
                        at,
                        "not also in upserts",
                        d,
                        at + " '" + Fields.shown(d.textValue())
                                + "' is also in upserts: a tool is either written or removed; nothing was changed");
            }
            removals.add(d.textValue());
        }
        checkNotUpstream(
                c.backend().servers(), specs.stream().map(ToolSpec::fullName).toList(), "upserts");
        ToolScout scout = c.backend().scout();
        // removals first: they fail as a whole (a name not in the catalog) before anything is written
        CatalogChange removed = removals.isEmpty() ? null : remove(scout, removals);
        CatalogChange written = specs.isEmpty() ? null : scout.upsert(specs);
        CatalogChange last = written != null ? written : removed;
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("version", last == null ? 0 : last.version());
        out.put("added", written == null ? 0 : written.added());
        out.put("updated", written == null ? 0 : written.updated());
        out.put("removed", removed == null ? 0 : removed.removed());
        return Reply.json(out);
    }

    private Reply delete(Call c) {
        String name = c.path("name");
        checkName(name);
        return Reply.json(changeJson(remove(c.backend().scout(), List.of(name))));
    }

    private static CatalogChange remove(ToolScout scout, java.util.Collection<String> names) {
        try {
            return scout.remove(names);
        } catch (NoSuchToolException e) {
            throw ApiProblem.notFound("Tool not found: "
                    + String.join(", ", e.names().stream().map(Fields::shown).toList()) + "; nothing was removed");
        } catch (IllegalArgumentException e) {
            // an MCP server's tool: its server would list it again
            throw ApiProblem.conflict(e.getMessage());
        }
    }

    /** Reads one tool of the catalog format; its problems name the field at {@code at}. */
    private static ToolSpec read(JsonNode tool, String at) {
        List<String> problems = new ArrayList<>();
        ToolSpec s;
        try {
            s = ToolSpecJson.fromJson(tool, null, problems);
        } catch (InvalidSpecException e) {
            throw ApiProblem.invalid(
                    Fields.path(at, e.field()),
                    "docs/CATALOG_FORMAT.md, Tool fields",
                    tool.get(e.field().split("\\.")[0]),
                    (at.isEmpty() ? "" : at + ": ") + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid(
                    Fields.path(at, "name"), "<source>__<action>, at most 64 characters of " + "A-Z a-z 0-9 _ -",
                    tool.get("name"), (at.isEmpty() ? "" : at + ": ") + e.getMessage());
        }
        if (!problems.isEmpty()) {
            // a file is loaded with a warning; a write over the API is refused, since nobody reads a server's warnings
            String field = problems.get(0).startsWith("output_schema") ? "output_schema" : "parameters";
            throw ApiProblem.invalid(
                    Fields.path(at, field),
                    "a JSON Schema object",
                    tool.get(field),
                    (at.isEmpty() ? "" : at + ": ") + "tool '" + s.fullName() + "': " + problems.get(0));
        }
        if (s.sourceKind() == SourceKind.VERB || s.name().source().equals(VerbManifest.SOURCE)) {
            boolean kind = s.sourceKind() == SourceKind.VERB;
            throw ApiProblem.invalid(
                    Fields.path(at, kind ? "source_kind" : "name"),
                    kind ? "integration, skill or openapi" : "a source other than verbs",
                    kind ? "verb" : s.fullName(),
                    (at.isEmpty() ? "" : at + ": ") + "tool '"
                            + s.fullName()
                            + "': the source 'verbs' and the kind 'verb' are reserved for verbs, registered with POST "
                            + "/v1/verbs/register");
        }
        String reserved = dev.toolscout.model.ReservedSources.catalogRefusal(s);
        if (reserved != null) {
            throw ApiProblem.invalid(
                    Fields.path(at, "name"),
                    "a source other than ToolScout's own ("
                            + String.join(", ", dev.toolscout.model.ReservedSources.NAMES)
                            + "; memory and tool_discovery as "
                            + "integration tools only)",
                    s.fullName(),
                    (at.isEmpty() ? "" : at + ": ") + reserved);
        }
        if (s.sourceKind() == SourceKind.MCP) {
            throw ApiProblem.invalid(
                    Fields.path(at, "source_kind"),
                    "integration, skill or openapi",
                    "mcp",
                    (at.isEmpty() ? "" : at + ": ") + "source_kind mcp is for the tools of upstream MCP servers, which "
                            + "come from the servers themselves (POST /v1/servers)");
        }
        return s;
    }

    /** Refuses names in an upstream server's prefix: the server's listing owns them. */
    private static void checkNotUpstream(ServerRegistry servers, List<String> names, String at) {
        if (servers == null) {
            return;
        }
        Set<String> prefixes = new HashSet<>();
        for (ServerStatus s : servers.servers()) { // a disabled server's prefix stays its own
            prefixes.add(s.prefix());
        }
        for (String n : names) {
            int sep = n.indexOf("__");
            if (sep > 0 && prefixes.contains(n.substring(0, sep))) {
                throw ApiProblem.conflict(
                        (at.isEmpty() ? "" : at + ": ") + "'" + n + "' is in the prefix of the upstream "
                                + "MCP server '" + n.substring(0, sep)
                                + "', whose tools come from the server itself; choose another "
                                + "source name; nothing was changed");
            }
        }
    }

    private static void checkName(String name) {
        if (name.length() > InputLimits.MAX_NAME_CHARS) {
            throw ApiProblem.invalid("name", "at most 256 characters", name, InputLimits.nameTooLong("name", name));
        }
    }

    private static ApiProblem notFound(String name) {
        return ApiProblem.notFound("Tool not found: " + Fields.shown(name));
    }

    private static ObjectNode changeJson(CatalogChange c) {
        return JsonNodeFactory.instance
                .objectNode()
                .put("version", c.version())
                .put("added", c.added())
                .put("updated", c.updated())
                .put("removed", c.removed());
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "SearchRequest", OpenApi.schema("""
            {"type": "object", "required": ["query"], "additionalProperties": false,
             "properties": {"query": {"type": "string", "minLength": 1, "maxLength": 16384,
                                      "description": "What the tool should do, e.g. send an email"},
                            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                            "format": {"type": "string", "enum": ["json", "tool_reference"], "default": "json",
                                       "description": "tool_reference: Claude's tool_reference blocks (ToolReferences)"}}}"""),
                "ToolReferences", OpenApi.schema("""
            {"type": "array", "minItems": 1, "maxItems": 50,
             "description": "The content of the tool_result for Claude's tool search: a tool_reference block per match, best first; one text block when nothing matched",
             "items": {"oneOf": [
              {"type": "object", "required": ["type", "tool_name"], "additionalProperties": false,
               "properties": {"type": {"const": "tool_reference"},
                              "tool_name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"}}},
              {"type": "object", "required": ["type", "text"], "additionalProperties": false,
               "properties": {"type": {"const": "text"}, "text": {"type": "string"}}}]}}"""),
                "SearchResult", OpenApi.schema("""
            {"type": "object", "required": ["query", "count", "tools"], "additionalProperties": false,
             "properties": {"query": {"type": "string"}, "count": {"type": "integer"},
              "tools": {"type": "array", "items": {"type": "object", "additionalProperties": false,
                "required": ["name", "description", "category", "ai_access", "score"],
                "properties": {"name": {"type": "string"}, "description": {"type": "string"},
                               "category": {"type": "string"},
                               "ai_access": {"type": "string", "enum": ["execute", "propose", "blocked"]},
                               "score": {"type": "number", "description": "Fused relevance, 0-1"}}}},
              "skills": {"type": "array", "description": "Skills the caller may see that match (docs/SKILLS.md)",
                "items": {"type": "object", "additionalProperties": false,
                  "required": ["name", "kind", "description", "tools", "score"],
                  "properties": {"name": {"type": "string"}, "kind": {"const": "skill"},
                                 "description": {"type": "string"},
                                 "tools": {"type": "array", "items": {"type": "string"}},
                                 "score": {"type": "number", "description": "Reciprocal-rank score among the skills, 0-1"}}}}}}"""),
                "ToolPage", OpenApi.schema("""
            {"type": "object", "required": ["total", "offset", "limit", "tools", "categories"],
             "additionalProperties": false,
             "properties": {"category": {"type": "string"},
              "total": {"type": "integer", "description": "Tools matching, in all pages"},
              "offset": {"type": "integer"}, "limit": {"type": "integer"},
              "tools": {"type": "array", "items": {"type": "object", "additionalProperties": false,
                "required": ["name", "description", "category"],
                "properties": {"name": {"type": "string"}, "description": {"type": "string"},
                               "category": {"type": "string"}}}},
              "categories": {"type": "object", "additionalProperties": {"type": "integer"},
                             "description": "Every category the caller may see, with its number of tools"}}}"""),
                "Tool", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "description": "A tool in the catalog format (docs/CATALOG_FORMAT.md). In a PUT the name may be left out.",
             "properties": {
              "name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
              "description": {"type": "string", "minLength": 1, "maxLength": 16384},
              "available_in_groups": {"type": "array", "items": {"type": "string"}, "readOnly": true,
                                      "description": "Only in a GET: the access policy's groups whose members may use the tool (a PUT ignores it)"},
              "category": {"type": "string"},
              "tags": {"type": "array", "items": {"type": "string"}},
              "parameters": {"type": ["object", "array"], "description": "A JSON Schema object (or a shape of docs/CATALOG_FORMAT.md)"},
              "input_schema": {"type": ["object", "array"]},
              "inputSchema": {"type": ["object", "array"]},
              "ai_access": {"type": "string", "description": "execute, propose or blocked (any case)"},
              "side_effect": {"type": "string", "description": "read, write or delete (any case)"},
              "source_kind": {"type": "string", "description": "integration, skill or openapi (any case); mcp and verb in answers only"},
              "depends_on": {"type": "array"},
              "original_name": {"type": "string"},
              "examples": {"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 512}},
              "output_schema": {"type": ["object", "array"], "description": "What the tool returns: a JSON Schema object (or a shape of docs/CATALOG_FORMAT.md)"},
              "outputSchema": {"type": ["object", "array"]}}}"""),
                "ToolWritten", OpenApi.schema("""
            {"type": "object", "required": ["tool", "change"], "additionalProperties": false,
             "properties": {"tool": {"$ref": "#/components/schemas/Tool"},
                            "change": {"$ref": "#/components/schemas/CatalogChange"}}}"""),
                "BatchRequest", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "properties": {"upserts": {"type": "array", "maxItems": 1000, "items": {"$ref": "#/components/schemas/Tool"}},
                            "deletes": {"type": "array", "maxItems": 1000,
                                        "items": {"type": "string", "minLength": 1, "maxLength": 256}}}}"""),
                "CatalogChange", OpenApi.schema("""
            {"type": "object", "required": ["version", "added", "updated", "removed"], "additionalProperties": false,
             "properties": {"version": {"type": "integer", "description": "The catalog's version after the write"},
                            "added": {"type": "integer"}, "updated": {"type": "integer"},
                            "removed": {"type": "integer"}}}"""));
    }
}
