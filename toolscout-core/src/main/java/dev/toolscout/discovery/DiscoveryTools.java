package dev.toolscout.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Ranked;
import dev.toolscout.skills.SkillIndex;
import dev.toolscout.skills.SkillTools;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The discovery meta-tools, the escape hatch when the selection missed: {@code tool_discovery__find(query,
 * limit)}, {@code tool_discovery__list_all(category)} and {@code tool_discovery__describe(tool_name)}. Every
 * answer is computed inside the principal's allowed set; a denied tool and a missing one get the same
 * answer, {@code Tool not found: <name>}, so a denial leaks nothing. Thread-safe.
 *
 * <p>The meta-tools belong to the engine, not to a catalog: {@link #SPECS} are their definitions, which the
 * selector offers whatever catalog is loaded (a catalog may carry its own definitions under these names, as the
 * demo does; those then win).
 */
public final class DiscoveryTools {
    public static final String FIND = "tool_discovery__find";
    public static final String LIST_ALL = "tool_discovery__list_all";
    public static final String DESCRIBE = "tool_discovery__describe";
    public static final int DEFAULT_LIMIT = 10;
    public static final int MAX_LIMIT = 50;
    /** The category {@code list_all} lists skills under when asked for one category. */
    public static final String SKILLS_CATEGORY = "skills";
    /** The most skills one {@code find} answer names, beside its tools. */
    public static final int MAX_SKILLS_FOUND = 5;
    /** Longest tool name echoed back in an error, so a hostile name cannot flood the model's context. */
    private static final int MAX_ECHO = 100;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** The meta-tools' definitions, as a model is given them: find, list_all, describe. */
    public static final List<ToolSpec> SPECS = List.of(
            spec(
                    FIND,
                    "Search for tools by query. Returns matching tools; use it when none of the tools you have fits "
                            + "the request.",
                    List.of("tools", "search", "discover", "capabilities"),
                    """
          {"type":"object","properties":{
           "query":{"type":"string","description":"Search query (e.g., 'send email', 'schedule meeting')."},
           "limit":{"type":"integer","description":"Max results to return (default 10).","minimum":1,
            "maximum":50,"default":10}},
           "required":["query"]}"""),
            spec(
                    LIST_ALL,
                    "List all available tools, optionally only those in one category.",
                    List.of("tools", "list", "capabilities"),
                    """
          {"type":"object","properties":{
           "category":{"type":"string","description":"Optional: filter by category (communication, planning, etc.)."}}}
          """),
            spec(
                    DESCRIBE,
                    "Get full details about a specific tool, including its parameters and whether it needs "
                            + "approval.",
                    List.of("tools", "help", "parameters"),
                    """
          {"type":"object","properties":{
           "tool_name":{"type":"string","description":"Tool name (e.g., 'gmail__send_email')."}},
           "required":["tool_name"]}"""));

    private static ToolSpec spec(String name, String description, List<String> tags, String schema) {
        try {
            return ToolSpec.builder(name, description)
                    .category("discovery")
                    .tags(tags)
                    .parameters((ObjectNode) ToolSpecJson.MAPPER.readTree(schema))
                    .aiAccess(AiAccess.EXECUTE)
                    .sideEffect(SideEffect.READ)
                    .build();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("built-in schema of " + name + " is malformed", e);
        }
    }

    private final Catalog catalog;
    private final EmbeddingModel model;
    private final AccessControl access;
    private final HybridRanker ranker;
    private final Fusion fusion;
    private final java.util.function.Predicate<ToolSpec> scope;
    private final SkillTools skills;

    /**
     * @param ranker ranks for {@code find}; shared with the selector and closed by whoever made it (the engine)
     */
    public DiscoveryTools(
            Catalog catalog, HybridRanker ranker, EmbeddingModel model, AccessControl access, Fusion fusion) {
        this(catalog, ranker, model, access, fusion, null, null);
    }

    private DiscoveryTools(
            Catalog catalog,
            HybridRanker ranker,
            EmbeddingModel model,
            AccessControl access,
            Fusion fusion,
            java.util.function.Predicate<ToolSpec> scope,
            SkillTools skills) {
        this.catalog = catalog;
        this.model = model;
        this.access = access;
        this.ranker = ranker;
        this.fusion = fusion;
        this.scope = scope;
        this.skills = skills;
    }

    /**
     * These tools answering with skills beside tools: {@code find} adds the visible skills that match the query
     * ({@link #MAX_SKILLS_FOUND} at most), {@code list_all} every visible skill, {@code describe} a skill by name,
     * each marked {@code "kind": "skill"} (tools are {@code "kind": "tool"}).
     */
    public DiscoveryTools withSkills(SkillTools s) {
        return new DiscoveryTools(
                catalog, ranker, model, access, fusion, scope, scope == null || s == null ? s : s.scoped(scope));
    }

    /**
     * These tools restricted to the catalog tools that also pass {@code scope} (an MCP gateway offers only
     * the tools it can run). The scope narrows the allowed set before any search, like access control.
     */
    public DiscoveryTools scoped(java.util.function.Predicate<ToolSpec> scope) {
        return new DiscoveryTools(
                catalog, ranker, model, access, fusion, scope, skills == null ? null : skills.scoped(scope));
    }

    private AllowedSet allowed(Catalog.Snapshot snap, Principal principal) {
        AllowedSet allowed = access.allowed(snap, principal);
        if (scope == null) {
            return allowed;
        }
        java.util.BitSet bits = new java.util.BitSet(allowed.universe());
        for (int ord = allowed.nextAllowed(0); ord >= 0; ord = allowed.nextAllowed(ord + 1)) {
            CatalogEntry e = snap.byOrd(ord);
            if (e != null && scope.test(e.spec())) {
                bits.set(ord);
            }
        }
        return AllowedSet.of(bits, allowed.universe());
    }

    /** Runs a meta-tool by name with JSON arguments (as a model calls it). */
    public DiscoveryResult call(Principal principal, String tool, JsonNode args) {
        JsonNode a = args == null ? F.objectNode() : args;
        return switch (tool) {
            case FIND -> {
                JsonNode q = a.get("query");
                if (q == null || !q.isTextual() || q.asText().isBlank()) {
                    yield new DiscoveryResult.Error("query is required: a non-blank string, e.g. \"send email\"");
                }
                JsonNode l = a.get("limit");
                if (l != null && !l.isNull() && !l.canConvertToInt()) {
                    yield new DiscoveryResult.Error(
                            "limit must be a whole number from 1 to " + MAX_LIMIT + ", got: " + l);
                }
                yield find(principal, q.asText(), l == null || l.isNull() ? null : l.asInt());
            }
            case LIST_ALL -> {
                JsonNode c = a.get("category");
                yield listAll(principal, c == null || c.isNull() ? null : c.asText());
            }
            case DESCRIBE -> {
                JsonNode n = a.get("tool_name");
                if (n == null || !n.isTextual()) {
                    yield new DiscoveryResult.Error("tool_name is required: a tool name such as \"gmail__send_email\"");
                }
                yield describe(principal, n.asText());
            }
            default -> new DiscoveryResult.Error(notFound(tool));
        };
    }

    /** Searches the tools the principal may see. */
    public DiscoveryResult find(Principal principal, String query, Integer limit) {
        if (query == null || query.isBlank()) {
            return new DiscoveryResult.Error("query is required: a non-blank string, e.g. \"send email\"");
        }
        String tooLong = InputLimits.messageTooLong("query", query);
        if (tooLong != null) {
            return new DiscoveryResult.Error(tooLong);
        }
        int n = limit == null ? DEFAULT_LIMIT : limit;
        if (n < 1 || n > MAX_LIMIT) {
            return new DiscoveryResult.Error("limit must be between 1 and " + MAX_LIMIT + ", got: " + n);
        }
        Catalog.Snapshot snap = catalog.snapshot();
        // a skill's own tools are found through their skill (in "skills"), as selections offer them
        AllowedSet allowed = allowed(snap, principal).without(snap.skillKindOrds());
        List<Ranked> ranked = ranker.rank(
                query,
                model::embedQueries,
                allowed,
                fusion.withDepth(Math.max(fusion.depth(), n)),
                o -> snap.byOrd(o).name());
        ObjectNode out = F.objectNode();
        out.put("query", query);
        ArrayNode tools = F.arrayNode();
        double nearestTool = Double.NEGATIVE_INFINITY;
        for (Ranked r : ranked.subList(0, Math.min(n, ranked.size()))) {
            ToolSpec s = snap.byOrd(r.ord()).spec();
            ObjectNode t = tools.addObject();
            t.put("name", s.fullName());
            t.put("kind", "tool");
            t.put("description", s.description());
            t.put("category", s.category());
            t.put("ai_access", s.aiAccess().name().toLowerCase(Locale.ROOT));
            t.put("score", Math.round(r.score() * 10_000) / 10_000.0);
            if (!Double.isNaN(r.similarity())) {
                nearestTool = Math.max(nearestTool, r.similarity());
            }
        }
        out.put("count", tools.size());
        out.set("tools", tools);
        if (skills != null) {
            out.set("skills", foundSkills(principal, query, Math.min(n, MAX_SKILLS_FOUND), nearestTool));
        }
        return new DiscoveryResult.Ok(out);
    }

    /**
     * The visible skills that match the query: those that share a word with it, and the one nearest in meaning
     * when it is nearer than every tool found (so a skill described in other words is found too). Best first.
     */
    private ArrayNode foundSkills(Principal principal, String query, int limit, double nearestTool) {
        ArrayNode out = F.arrayNode();
        for (SkillTools.Ranked r : skills.rank(principal, query, () -> model.embedQuery(query))) {
            SkillIndex.Match m = r.match();
            boolean byMeaning = m.denseRank() == 1 && m.similarity() >= nearestTool;
            if (out.size() < limit && (m.lexicalRank() > 0 || byMeaning)) {
                ObjectNode n = skills.summary(principal, r.skill());
                n.put("score", m.score());
                n.put(
                        "hint",
                        "call " + SkillTools.ACTIVATE + " with skill_name \""
                                + r.skill().name() + "\" for its instructions and tools");
                out.add(n);
            }
        }
        return out;
    }

    /** Lists the tools the principal may see, optionally of one category, by name. */
    public DiscoveryResult listAll(Principal principal, String category) {
        String tooLong = InputLimits.nameTooLong("category", category);
        if (tooLong != null) {
            return new DiscoveryResult.Error(tooLong);
        }
        Catalog.Snapshot snap = catalog.snapshot();
        AllowedSet allowed = allowed(snap, principal);
        String cat =
                category == null || category.isBlank() ? null : category.strip().toLowerCase(Locale.ROOT);
        ArrayNode tools = F.arrayNode();
        Map<String, Integer> categories = new TreeMap<>();
        for (CatalogEntry e : snap.entries()) {
            if (!allowed.contains(e.ord())) {
                continue;
            }
            ToolSpec s = e.spec();
            categories.merge(s.category(), 1, Integer::sum);
            if (cat != null && !cat.equals(s.category())) {
                continue;
            }
            ObjectNode t = tools.addObject();
            t.put("name", s.fullName());
            t.put("kind", "tool");
            t.put("description", s.description());
            t.put("category", s.category());
        }
        ObjectNode out = F.objectNode();
        if (cat != null) {
            out.put("category", cat);
        }
        out.put("total", tools.size());
        out.set("tools", tools);
        ObjectNode cats = out.putObject("categories");
        categories.forEach(cats::put);
        if (skills != null && (cat == null || cat.equals(SKILLS_CATEGORY))) {
            ArrayNode listed = out.putArray("skills");
            skills.visible(principal).forEach(v -> listed.add(skills.summary(principal, v)));
            out.put("skills_total", listed.size());
        }
        return new DiscoveryResult.Ok(out);
    }

    /**
     * The full definition of one tool, if the principal may see it, with {@code available_in_groups}: the policy's
     * groups whose members may use it ({@link AccessControl#groupsAllowed}).
     */
    public DiscoveryResult describe(Principal principal, String toolName) {
        if (toolName == null) {
            return new DiscoveryResult.Error(notFound("null"));
        }
        String tooLong = InputLimits.nameTooLong("tool_name", toolName);
        if (tooLong != null) {
            return new DiscoveryResult.Error(tooLong);
        }
        Catalog.Snapshot snap = catalog.snapshot();
        CatalogEntry e = snap.get(toolName.strip());
        AllowedSet allowed = allowed(snap, principal);
        ToolSpec s;
        if (e != null && allowed.contains(e.ord())) {
            s = e.spec();
        } else if (e == null
                && scope == null
                && engineTool(toolName.strip()) != null
                && access.allows(principal, engineTool(toolName.strip()))) {
            // a meta-tool the selector offered although the catalog lacks it: the model may ask what it is
            s = engineTool(toolName.strip());
        } else if (e == null
                && skills != null
                && skills.visible(principal, toolName.strip()).isPresent()) {
            SkillTools.Visible v = skills.visible(principal, toolName.strip()).get();
            ObjectNode out = skills.summary(principal, v);
            out.put(
                    "hint",
                    "call " + SkillTools.ACTIVATE + " with skill_name \"" + v.name()
                            + "\" for its instructions and tools");
            return new DiscoveryResult.Ok(out);
        } else {
            return new DiscoveryResult.Error(notFound(toolName));
        }
        // only declared dependencies the principal may also see
        List<String> deps = new ArrayList<>();
        for (String d : s.dependsOn()) {
            CatalogEntry de = snap.get(d);
            if (de != null && allowed.contains(de.ord())) {
                deps.add(d);
            }
        }
        ObjectNode out = definition(s, deps);
        // only here, for a tool the principal may see: a denied one answered "not found" above, policy unsaid
        ArrayNode groups = out.putArray("available_in_groups");
        access.groupsAllowed(s).forEach(groups::add);
        return new DiscoveryResult.Ok(out);
    }

    /**
     * A tool's full definition as {@code describe} answers it (the discovery tool, the CLI, {@code GET
     * /v1/tools/{name}}'s callers), with {@code dependsOn} as given: the caller passes only the dependencies the
     * principal may see.
     */
    public static ObjectNode definition(ToolSpec s, List<String> dependsOn) {
        ObjectNode out = F.objectNode();
        out.put("name", s.fullName());
        out.put("description", s.description());
        out.put("category", s.category());
        out.put("source_kind", s.sourceKind().name().toLowerCase(Locale.ROOT));
        out.put("ai_access", s.aiAccess().name().toLowerCase(Locale.ROOT));
        out.put("side_effect", s.sideEffect().name().toLowerCase(Locale.ROOT));
        ArrayNode tags = out.putArray("tags");
        s.tags().forEach(tags::add);
        out.put("parameters_summary", parametersSummary(s));
        out.set("parameters", s.parameters().deepCopy());
        if (!s.examples().isEmpty()) {
            ArrayNode ex = out.putArray("examples");
            s.examples().forEach(ex::add);
        }
        if (s.outputSchema() != null) {
            out.set("output_schema", s.outputSchema().deepCopy());
        }
        ArrayNode deps = out.putArray("depends_on");
        dependsOn.forEach(deps::add);
        return out;
    }

    private static ToolSpec engineTool(String name) {
        for (ToolSpec t : SPECS) {
            if (t.fullName().equals(name)) {
                return t;
            }
        }
        return null;
    }

    /** {@code to (string, required), subject (string), ...}. */
    public static String parametersSummary(ToolSpec s) {
        List<String> parts = new ArrayList<>();
        List<String> required = s.requiredParameters();
        s.parameters().path("properties").properties().forEach(p -> {
            String type = p.getValue().path("type").asText("any");
            parts.add(p.getKey() + " (" + type + (required.contains(p.getKey()) ? ", required" : "") + ")");
        });
        return parts.isEmpty() ? "no parameters" : String.join(", ", parts);
    }

    private static String notFound(String name) {
        String n = name.length() > MAX_ECHO ? name.substring(0, MAX_ECHO) + "..." : name;
        return "Tool not found: " + n;
    }
}
