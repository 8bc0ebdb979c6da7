package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.FindResult;
import dev.toolscout.engine.ToolPage;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.skills.Skill;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the web console needs besides the other groups: its page at {@code /} and its files at {@code
 * /console/{asset}} (public: they hold no data, every datum comes from {@code /v1} with the caller's key), who the
 * caller is ({@code GET /v1/whoami}), the catalog with its facets ({@code GET /v1/catalog}), and the access
 * policy made visible for admins: which known principals see a tool ({@code GET /v1/tools/{name}/access}) and
 * which principals are known ({@code GET /v1/principals}). An admin may look at the catalog as another principal
 * ({@code user}, {@code group}, {@code space}); anyone else asking for that gets 403. Thread-safe.
 */
final class ConsoleRoutes implements RouteGroup {
    /** The console's files, by name: what {@code /console/{asset}} serves, nothing else. */
    private static final Map<String, String> ASSETS = Map.of(
            "app.js", "text/javascript; charset=utf-8",
            "api.js", "text/javascript; charset=utf-8",
            "catalog.js", "text/javascript; charset=utf-8",
            "try.js", "text/javascript; charset=utf-8",
            "servers.js", "text/javascript; charset=utf-8",
            "approvals.js", "text/javascript; charset=utf-8",
            "usage.js", "text/javascript; charset=utf-8",
            "ui.js", "text/javascript; charset=utf-8",
            "console.css", "text/css; charset=utf-8",
            "favicon.svg", "image/svg+xml");

    private static final String RESOURCES = "/dev/toolscout/server/console/";
    /** The most items one catalog page holds. */
    static final int MAX_LIMIT = 500;

    private static final List<String> KINDS = List.of("tool", "skill");

    private final HttpApi api;
    private final Map<String, byte[]> files = new HashMap<>();
    private final byte[] page;

    ConsoleRoutes(HttpApi api) {
        this.api = api;
        for (String name : ASSETS.keySet()) {
            files.put(name, resource(name));
        }
        this.page = resource("index.html");
    }

    private static byte[] resource(String name) {
        try (InputStream in = ConsoleRoutes.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the console's file " + name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the console's file " + name, e);
        }
    }

    @Override
    public List<Endpoint> routes() {
        JsonNode text = OpenApi.schema("{\"type\": \"string\"}");
        JsonNode name = OpenApi.schema("{\"type\": \"string\", \"minLength\": 1, \"maxLength\": 256}");
        return List.of(
                Endpoint.get("/", "console")
                        .tag("console")
                        .access(Endpoint.Access.PUBLIC)
                        .withoutEngine()
                        .summary("The web console (docs/CONSOLE.md)")
                        .description(
                                "An HTML page that loads its scripts from /console; it holds no data: each page asks /v1 "
                                        + "with the key the person signs in with.")
                        .response(200, "The console's page", "text/html", text)
                        .handle(c -> new Reply(200, "text/html; charset=utf-8", page)),
                Endpoint.get("/console/{asset}", "consoleAsset")
                        .tag("console")
                        .access(Endpoint.Access.PUBLIC)
                        .withoutEngine()
                        .summary("A file of the web console: a script, the style sheet or the icon")
                        .pathParam("asset", "The file's name, e.g. app.js", text)
                        .response(200, "The file", "text/javascript", text)
                        .response(200, "The file", "text/css", text)
                        .response(200, "The file", "image/svg+xml", text)
                        .problem(404, "No such file")
                        .handle(this::asset),
                Endpoint.get("/v1/whoami", "whoami")
                        .tag("console")
                        .withoutEngine()
                        .summary("The caller: its principal and role, and whether this server needs keys")
                        .response(200, "The caller", "WhoAmI")
                        .handle(this::whoami),
                Endpoint.get("/v1/catalog", "catalog")
                        .tag("console")
                        .summary(
                                "The tools and skills a principal may see, filtered, with their source, access and status")
                        .description(
                                "Without q, every tool by name; with q, the matches of tool_discovery__find (at most 50) "
                                        + "best first. Filters: kind, source, category, access, side_effect. An admin may give user, "
                                        + "group and space to see the catalog as that principal sees it; any other caller gets 403.")
                        .query("q", "Search text (1-16,384 characters)", text)
                        .query(
                                "kind",
                                "tool or skill",
                                OpenApi.schema("{\"type\": \"string\", \"enum\": [\"tool\", \"skill\"]}"))
                        .query("source", "Only this source (the part of a tool's name before __)", name)
                        .query("category", "Only this category", name)
                        .query(
                                "access",
                                "Only this AI access",
                                OpenApi.schema(
                                        "{\"type\": \"string\", \"enum\": [\"execute\", \"propose\", \"blocked\"]}"))
                        .query(
                                "side_effect",
                                "Only this side effect",
                                OpenApi.schema("{\"type\": \"string\", \"enum\": [\"read\", \"write\", \"delete\"]}"))
                        .query("user", "Admin only: see the catalog as this user", name)
                        .query("group", "Admin only: as this group", name)
                        .query("space", "Admin only: as this space", name)
                        .query(
                                "offset",
                                "Where the page starts (default 0)",
                                OpenApi.schema("{\"type\": \"integer\", \"minimum\": 0}"))
                        .query(
                                "limit",
                                "Page size, 1-500 (default 100)",
                                OpenApi.schema("{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 500}"))
                        .response(200, "One page of the catalog and the facets of all of it", "CatalogPage")
                        .problem(403, "user, group or space given by a caller that is not an admin")
                        .handle(this::catalog),
                Endpoint.get("/v1/tools/{name}/access", "toolAccess")
                        .tag("console")
                        .access(Endpoint.Access.ADMIN)
                        .summary(
                                "Who can see this tool: each principal the API keys name, and whether the policy lets it see it")
                        .pathParam("name", "The tool's name", name)
                        .response(200, "The tool and each known principal", "ToolAccess")
                        .problem(404, "No such tool, or not one the admin may see")
                        .handle(this::toolAccess),
                Endpoint.get("/v1/usage/requests", "usageRequests")
                        .tag("console")
                        .access(Endpoint.Access.ADMIN)
                        .summary(
                                "The agent loop's usage records: each request with its selection, the tools called, tokens and "
                                        + "latency")
                        .description(
                                "Oldest first. Admin only: the records hold every principal's messages. The console draws "
                                        + "the success metrics over time from them.")
                        .query("since", "An ISO-8601 instant, e.g. 2026-11-26T00:00:00Z (default: 7 days ago)", text)
                        .query(
                                "limit",
                                "The most records, 1-10,000 (default 1,000)",
                                OpenApi.schema("{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 10000}"))
                        .response(200, "The usage records", "UsageRequests")
                        .problem(404, "This server keeps no usage records")
                        .handle(this::usage),
                Endpoint.get("/v1/principals", "principals")
                        .tag("console")
                        .access(Endpoint.Access.ADMIN)
                        .summary("The principals the API keys name, and how many tools each may see")
                        .response(200, "The known principals", "PrincipalList")
                        .handle(this::principals));
    }

    private Reply asset(Call c) {
        String name = c.path("asset");
        byte[] bytes = files.get(name);
        if (bytes == null) {
            throw ApiProblem.notFound("no console file named '" + Fields.shown(name) + "'");
        }
        return new Reply(200, ASSETS.get(name), bytes);
    }

    private Reply whoami(Call c) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("principal", principal(c.principal()));
        o.put("role", c.caller() == null ? Role.DEFAULT.id() : c.caller().role().id());
        o.put("keys_required", api.auth().requiresKey());
        return Reply.json(o);
    }

    /** The principal a catalog request looks as: the caller's, or one an admin names. */
    private static Principal viewer(Call c) {
        String user = c.query("user");
        String group = c.query("group");
        String space = c.query("space");
        if (user == null && group == null && space == null) {
            return c.principal();
        }
        if (c.caller() == null || c.caller().role() != Role.ADMIN) {
            throw ApiProblem.of(
                    403,
                    "forbidden",
                    "Forbidden",
                    "user, group and space (the catalog as another principal "
                            + "sees it) need an API key with the role admin; this caller's role is "
                            + (c.caller() == null ? "none" : c.caller().role().id()));
        }
        for (String[] p : new String[][] {{"user", user}, {"group", group}, {"space", space}}) {
            if (p[1] != null && p[1].length() > InputLimits.MAX_NAME_CHARS) {
                throw ApiProblem.invalid(
                        p[0],
                        "at most 256 characters",
                        p[1],
                        p[0] + " must be at most 256 characters, " + "got: " + p[1].length() + " characters");
            }
        }
        return new Principal(user, group, space);
    }

    private Reply catalog(Call c) {
        Principal p = viewer(c);
        String q = c.query("q");
        if (q != null && (q.isBlank() || q.length() > InputLimits.MAX_MESSAGE_CHARS)) {
            throw ApiProblem.invalid(
                    "q",
                    "1-16,384 characters, not blank",
                    q,
                    "q must be 1-16,384 characters and not blank, got: " + q.length() + " characters");
        }
        String kind = oneOf(c, "kind", KINDS);
        String source = lower(c.query("source"));
        String category = lower(c.query("category"));
        String access = oneOf(c, "access", List.of("execute", "propose", "blocked"));
        String effect = oneOf(c, "side_effect", List.of("read", "write", "delete"));
        int offset = c.queryInt("offset", 0, Integer.MAX_VALUE, 0);
        int limit = c.queryInt("limit", 1, MAX_LIMIT, 100);
        ToolScout scout = c.backend().scout();
        Map<String, String> states = serverStates(c);

        List<ObjectNode> items = new ArrayList<>();
        Map<String, Integer> sources = new TreeMap<>();
        Map<String, Integer> categories = new TreeMap<>();
        if (!"skill".equals(kind)) {
            Map<String, Double> scores = new java.util.LinkedHashMap<>();
            if (q != null) {
                FindResult found = scout.find(p, q, 50);
                found.tools().forEach(t -> scores.put(t.name(), t.score()));
            } else {
                for (int at = 0; ; at += ToolPage.MAX_LIMIT) {
                    ToolPage page = scout.list(p, null, at, ToolPage.MAX_LIMIT);
                    page.tools().forEach(t -> scores.put(t.name(), null));
                    if (page.tools().isEmpty() || at + page.tools().size() >= page.total()) {
                        break;
                    }
                }
            }
            for (Map.Entry<String, Double> e : scores.entrySet()) {
                Optional<ToolSpec> spec = scout.describe(p, e.getKey());
                if (spec.isEmpty()) {
                    continue;
                }
                ToolSpec s = spec.get();
                String src = s.name().source();
                sources.merge(src, 1, Integer::sum);
                categories.merge(s.category(), 1, Integer::sum);
                if (source != null && !source.equals(src.toLowerCase(Locale.ROOT))
                        || category != null && !category.equals(s.category().toLowerCase(Locale.ROOT))
                        || access != null && !access.equals(id(s.aiAccess()))
                        || effect != null && !effect.equals(id(s.sideEffect()))) {
                    continue;
                }
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                o.put("name", s.name().full());
                o.put("kind", "tool");
                o.put("description", s.description());
                o.put("source", src);
                o.put("source_kind", id(s.sourceKind()));
                o.put("category", s.category());
                o.put("ai_access", id(s.aiAccess()));
                o.put("side_effect", id(s.sideEffect()));
                o.put("status", s.sourceKind() == SourceKind.MCP ? states.getOrDefault(src, "stopped") : "available");
                if (e.getValue() != null) {
                    o.put("score", Math.round(e.getValue() * 10_000) / 10_000.0);
                }
                items.add(o);
            }
        }
        if (!"tool".equals(kind) && access == null && effect == null && category == null) {
            String needle = q == null ? null : q.strip().toLowerCase(Locale.ROOT);
            // the skills offered to nobody (their tools all missing) are listed too, with why
            List<Skill> unoffered = scout.unofferedSkills(p);
            List<Skill> listed = new java.util.ArrayList<>(scout.skills(p));
            listed.addAll(unoffered);
            listed.sort(java.util.Comparator.comparing(Skill::name));
            for (Skill s : listed) {
                sources.merge("skills", 1, Integer::sum);
                if (source != null && !source.equals("skills")
                        || needle != null
                                && !(s.name().toLowerCase(Locale.ROOT).contains(needle)
                                        || s.description()
                                                .toLowerCase(Locale.ROOT)
                                                .contains(needle))) {
                    continue;
                }
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                o.put("name", s.name());
                o.put("kind", "skill");
                o.put("description", s.description());
                o.put("source", "skills");
                o.put("source_kind", "skill");
                boolean offered = !unoffered.contains(s);
                o.put("status", offered ? "available" : "not offered");
                ArrayNode tools = o.putArray("tools");
                if (offered) {
                    s.tools().forEach(tools::add);
                }
                List<String> missing = scout.missingTools(s.name());
                if (!missing.isEmpty()) {
                    missing.forEach(o.putArray("missing_tools")::add);
                }
                items.add(o);
            }
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("principal", principal(p));
        out.put("total", items.size());
        out.put("offset", offset);
        out.put("limit", limit);
        ArrayNode arr = out.putArray("items");
        items.stream().skip(offset).limit(limit).forEach(arr::add);
        ObjectNode facets = out.putObject("facets");
        ObjectNode fs = facets.putObject("sources");
        sources.forEach(fs::put);
        ObjectNode fc = facets.putObject("categories");
        categories.forEach(fc::put);
        return Reply.json(out);
    }

    private Reply toolAccess(Call c) {
        String name = c.path("name");
        ToolScout scout = c.backend().scout();
        Optional<ToolSpec> spec = scout.describe(c.principal(), name);
        if (spec.isEmpty()) {
            throw ApiProblem.notFound("Tool not found: " + Fields.shown(name));
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("tool", spec.get().name().full());
        out.put("ai_access", id(spec.get().aiAccess()));
        ArrayNode arr = out.putArray("principals");
        for (Principal p : known()) {
            ObjectNode o = principal(p);
            o.put("visible", scout.describe(p, name).isPresent());
            arr.add(o);
        }
        return Reply.json(out);
    }

    private Reply usage(Call c) {
        // the records are the agent loop's, in the engine's state store (what `toolscout usage` reads)
        dev.toolscout.runs.UsageStore store = c.backend().scout().usage();
        java.time.Instant since;
        String s = c.query("since");
        try {
            since = s == null
                    ? java.time.Instant.now().minus(java.time.Duration.ofDays(7))
                    : java.time.Instant.parse(s);
        } catch (java.time.format.DateTimeParseException e) {
            throw ApiProblem.invalid(
                    "since",
                    "an ISO-8601 instant, e.g. 2026-11-26T00:00:00Z",
                    s,
                    "query parameter since must be an ISO-8601 instant, e.g. 2026-11-26T00:00:00Z, got: '"
                            + Fields.shown(s) + "'");
        }
        int limit = c.queryInt("limit", 1, 10_000, 1000);
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode arr = out.putArray("requests");
        for (dev.toolscout.agent.UsageRecord r : dev.toolscout.agent.Agent.usage(store, since, limit)) {
            arr.add(r.json());
        }
        out.put("count", arr.size());
        return Reply.json(out);
    }

    private Reply principals(Call c) {
        ToolScout scout = c.backend().scout();
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode arr = out.putArray("principals");
        for (Principal p : known()) {
            ObjectNode o = principal(p);
            o.put("tools", scout.list(p, null, 0, 1).total());
            arr.add(o);
        }
        out.put("count", arr.size());
        return Reply.json(out);
    }

    /** The principals the keys name, each once, in the keys file's order. */
    private List<Principal> known() {
        return List.copyOf(new LinkedHashSet<>(api.auth().keyPrincipals()));
    }

    private static Map<String, String> serverStates(Call c) {
        Map<String, String> out = new HashMap<>();
        if (c.backend().servers() != null) {
            for (ServerStatus s : c.backend().servers().manager().servers()) {
                out.put(s.prefix(), s.state().name().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static ObjectNode principal(Principal p) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        if (p.user() != null) {
            o.put("user", p.user());
        }
        if (p.group() != null) {
            o.put("group", p.group());
        }
        if (p.space() != null) {
            o.put("space", p.space());
        }
        return o;
    }

    private static String oneOf(Call c, String param, List<String> values) {
        String v = lower(c.query(param));
        if (v != null && !values.contains(v)) {
            throw ApiProblem.invalid(
                    param,
                    "one of " + String.join(", ", values),
                    v,
                    "query parameter " + param + " must be one of " + String.join(", ", values) + ", got: '"
                            + Fields.shown(v) + "'");
        }
        return v;
    }

    private static String lower(String s) {
        return s == null || s.isBlank() ? null : s.strip().toLowerCase(Locale.ROOT);
    }

    private static String id(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public Map<String, JsonNode> schemas() {
        String principal = """
        {"type": "object", "additionalProperties": false,
         "properties": {"user": {"type": "string"}, "group": {"type": "string"}, "space": {"type": "string"}}}""";
        return Map.of(
                "Principal", OpenApi.schema(principal),
                "WhoAmI", OpenApi.schema("""
            {"type": "object", "required": ["principal", "role", "keys_required"], "additionalProperties": false,
             "properties": {"principal": {"$ref": "#/components/schemas/Principal"},
                            "role": {"type": "string", "enum": ["reader", "user", "admin"]},
                            "keys_required": {"type": "boolean"}}}"""),
                "CatalogPage", OpenApi.schema("""
            {"type": "object", "required": ["principal", "total", "offset", "limit", "items", "facets"],
             "additionalProperties": false,
             "properties": {
              "principal": {"$ref": "#/components/schemas/Principal"},
              "total": {"type": "integer", "description": "Items matching the filters, all pages"},
              "offset": {"type": "integer"}, "limit": {"type": "integer"},
              "items": {"type": "array", "items": {
                "type": "object", "additionalProperties": false,
                "required": ["name", "kind", "description", "source", "source_kind", "status"],
                "properties": {
                  "name": {"type": "string"}, "kind": {"type": "string", "enum": ["tool", "skill"]},
                  "description": {"type": "string"}, "source": {"type": "string"},
                  "source_kind": {"type": "string"}, "category": {"type": "string"},
                  "ai_access": {"type": "string", "enum": ["execute", "propose", "blocked"]},
                  "side_effect": {"type": "string", "enum": ["read", "write", "delete"]},
                  "status": {"type": "string",
                             "description": "available, the MCP server's state, or for a skill whose tools are all missing: not offered"},
                  "missing_tools": {"type": "array", "items": {"type": "string"},
                                    "description": "A skill's tools that the catalog lacks"},
                  "score": {"type": "number", "description": "With q: the fused search score, 0-1"},
                  "tools": {"type": "array", "items": {"type": "string"}, "description": "A skill's tools"}}}},
              "facets": {"type": "object", "required": ["sources", "categories"], "additionalProperties": false,
                         "properties": {
                          "sources": {"type": "object", "additionalProperties": {"type": "integer"}},
                          "categories": {"type": "object", "additionalProperties": {"type": "integer"}}}}}}"""),
                "ToolAccess", OpenApi.schema("""
            {"type": "object", "required": ["tool", "ai_access", "principals"], "additionalProperties": false,
             "properties": {
              "tool": {"type": "string"}, "ai_access": {"type": "string"},
              "principals": {"type": "array", "items": {
                "type": "object", "required": ["visible"],
                "properties": {"user": {"type": "string"}, "group": {"type": "string"}, "space": {"type": "string"},
                               "visible": {"type": "boolean"}}}}}}"""),
                "UsageRequests", OpenApi.schema("""
            {"type": "object", "required": ["count", "requests"], "additionalProperties": false,
             "properties": {
              "count": {"type": "integer"},
              "requests": {"type": "array", "items": {
                "type": "object", "required": ["id", "at", "status"],
                "description": "One request the agent loop ran (docs/AGENT.md): message, principal, selection, calls, approvals, tokens, latency_ms",
                "properties": {"id": {"type": "string"}, "at": {"type": "string"}, "status": {"type": "string"},
                               "message": {"type": "string"}, "selection": {"type": "array"},
                               "calls": {"type": "array"}, "tokens": {"type": "object"},
                               "latency_ms": {"type": "object"}}}}}}"""),
                "PrincipalList", OpenApi.schema("""
            {"type": "object", "required": ["count", "principals"], "additionalProperties": false,
             "properties": {
              "count": {"type": "integer"},
              "principals": {"type": "array", "items": {
                "type": "object", "required": ["tools"],
                "properties": {"user": {"type": "string"}, "group": {"type": "string"}, "space": {"type": "string"},
                               "tools": {"type": "integer", "description": "How many tools it may see"}}}}}}"""));
    }
}
