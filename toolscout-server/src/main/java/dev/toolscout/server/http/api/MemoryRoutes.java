package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.MemoryService;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolCalls;
import dev.toolscout.memory.Memories;
import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryIndex;
import dev.toolscout.memory.MemoryJson;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryTools;
import dev.toolscout.memory.MemoryType;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;
import dev.toolscout.routing.RouteJson;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code POST /v1/route} and long-term memory, {@code /v1/memories} (docs/ROUTING.md, docs/MEMORY.md). Memory calls
 * run as the caller's principal through the call gate the memory tools go through ({@link ToolCalls#call}): the
 * access policy's rules on {@code memory__store}, {@code memory__search}, {@code memory__recall} and {@code
 * memory__forget} first (a denied one answers 404 like a missing memory), then the role (a key with the role reader
 * reads but never writes), then the memory's scope.
 */
final class MemoryRoutes implements RouteGroup {
    private static final Set<String> STORE_FIELDS = Set.of("content", "type", "scope", "conversation_id");
    private static final Set<String> CORRECT_FIELDS = Set.of("content", "type");
    private static final List<String> TYPES = List.of("fact", "preference", "event", "note");
    private static final List<String> SCOPES = List.of("user", "group", "space");

    @Override
    public List<Endpoint> routes() {
        JsonNode id = OpenApi.schema("{\"type\": \"string\", \"minLength\": 1, \"maxLength\": 64}");
        return List.of(
                Endpoint.post("/v1/route", "route")
                        .tag("routing")
                        .summary("The route a message takes before any LLM is called")
                        .description(
                                "DIRECT_MEMORY, SKILL_EXECUTE, SKILL_HINT, TOOL_FILTER or LLM_REQUIRED, with the cosine "
                                        + "similarities it was decided on and the model's calibrated thresholds (docs/ROUTING.md). Only "
                                        + "memories, tools and skills the caller may see are searched or named.")
                        .request("RouteRequest")
                        .response(200, "The route and its evidence", "RouteDecision")
                        .handle(this::route),
                Endpoint.get("/v1/memories", "listMemories")
                        .tag("memory")
                        .summary("The caller's readable memories: the nearest to a query, or the most recent")
                        .query(
                                "query",
                                "Search by meaning (memory__search); without it, the most recently changed",
                                OpenApi.schema("{\"type\": \"string\", \"maxLength\": 4000}"))
                        .query(
                                "type",
                                "Only this type",
                                OpenApi.schema("{\"type\": \"string\", \"enum\": [\"fact\", "
                                        + "\"preference\", \"event\", \"note\"]}"))
                        .query(
                                "limit",
                                "How many, 1-50 (default 10)",
                                OpenApi.schema("{\"type\": \"integer\", \"minimum\": 1, " + "\"maximum\": 50}"))
                        .response(200, "Memories, best or newest first", "MemoryList")
                        .handle(this::list),
                Endpoint.post("/v1/memories", "storeMemory")
                        .tag("memory")
                        .summary("Store a memory in one of the caller's own scopes (memory__store)")
                        .request("MemoryRequest")
                        .response(201, "Stored; durable in the store", "Memory")
                        .problem(409, "A scope the caller has none of (group, space), or a full scope or store")
                        .handle(this::store),
                Endpoint.get("/v1/memories/{id}", "getMemory")
                        .tag("memory")
                        .summary("One memory the caller may read (memory__recall)")
                        .description(
                                "A memory of another user, group or space gets the same 404 as one that does not exist.")
                        .pathParam("id", "The memory's id", id)
                        .response(200, "The memory", "Memory")
                        .problem(404, "No such memory, or not one the caller may read")
                        .handle(this::get),
                Endpoint.put("/v1/memories/{id}", "correctMemory")
                        .tag("memory")
                        .summary("Correct a memory (memory.corrected): new content, and a new type when given")
                        .pathParam("id", "The memory's id", id)
                        .request("MemoryCorrection")
                        .response(200, "Corrected; durable in the store", "Memory")
                        .problem(404, "No such memory, or not one the caller may read")
                        .handle(this::correct),
                Endpoint.delete("/v1/memories/{id}", "forgetMemory")
                        .tag("memory")
                        .summary(
                                "Forget a memory for good: its text and vectors leave the store and the index (memory__forget)")
                        .pathParam("id", "The memory's id", id)
                        .response(200, "Forgotten; durable in the store", "Removed")
                        .problem(404, "No such memory, or not one the caller may read")
                        .handle(this::forget));
    }

    private Reply route(Call c) {
        Fields f = Fields.of(c.json(), "", Set.of("message"));
        String message = f.text("message", true, InputLimits.MAX_REQUEST_MESSAGE_CHARS);
        return Reply.json(RouteJson.toJson(c.backend().scout().route(c.principal(), message)));
    }

    /**
     * Answers the call as the memory tool {@code tool} would be run, through the call gate ({@link ToolCalls#call})
     * the agent loop and the MCP gateway use: access first (a denied or {@code BLOCKED} tool answers the 404 a
     * missing memory gets, or without an {@code id} the one a missing tool gets), then the role (a key with the role
     * reader reads but never writes: 403), and only then {@code work}, which reads the request's input and answers;
     * a principal denied the tool learns nothing from how its input is checked. What {@code work} throws (a problem,
     * a bad input) is the answer.
     */
    private static Reply gated(Call c, String tool, String id, Function<MemoryService, Reply> work) {
        ToolScout scout = c.backend().scout();
        Role role = c.caller() == null ? null : c.caller().role();
        ToolCalls.Outcome<Reply> outcome;
        try {
            outcome = ToolCalls.call(
                    new ToolCalls.Request(c.principal(), role, null, null, tool, null, null),
                    (who, name) -> scout.ownTool(who, null, name)
                            .map(own -> own.<Reply>withExecutor((spec, args, approved) -> work.apply(scout.memory()))),
                    ToolCalls.noApprovals());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + tool, e);
        }
        return switch (outcome) {
            case ToolCalls.Outcome.Ran<Reply> ran -> ran.result();
            case ToolCalls.Outcome.NotFound<Reply> nf ->
                throw id == null ? ApiProblem.notFound(nf.message()) : notFound(id);
            case ToolCalls.Outcome.Refused<Reply> rf ->
                throw ApiProblem.of(
                        403,
                        "forbidden",
                        "Forbidden",
                        tool + " needs an API key with the role user or admin; this key's role is reader");
            case ToolCalls.Outcome.Failed<Reply> f ->
                throw f.cause() != null ? f.cause() : new IllegalStateException(f.message());
            // no arguments reach the gate (the input is read by work), and no memory tool needs an approval
            case ToolCalls.Outcome.InvalidArguments<Reply> ia -> throw new IllegalStateException(ia.message());
            case ToolCalls.Outcome.Held<Reply> h -> throw new IllegalStateException(tool + " was held for approval");
            case ToolCalls.Outcome.Denied<Reply> d -> throw new IllegalStateException(d.message());
        };
    }

    private Reply list(Call c) {
        String query = c.query("query");
        boolean search = query != null && !query.isBlank();
        // listing the most recent memories is REST no tool does; it goes by memory__recall's rules, as it reads
        return gated(c, search ? MemoryTools.SEARCH : MemoryTools.RECALL, null, memory -> {
            String type = c.query("type");
            if (type != null && !TYPES.contains(type)) {
                throw ApiProblem.invalid(
                        "type",
                        "one of " + String.join(", ", TYPES),
                        type,
                        "type must be one of " + String.join(", ", TYPES) + ", got: '" + Fields.shown(type) + "'");
            }
            int limit = c.queryInt("limit", 1, MemoryTools.MAX_LIMIT, 10);
            MemoryType t = type == null ? null : MemoryType.of("type", type);
            Principal p = c.principal();
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            ArrayNode list = out.putArray("memories");
            if (search) {
                if (query.length() > Memories.MAX_CONTENT_CHARS) {
                    throw ApiProblem.invalid(
                            "query",
                            "at most " + Memories.MAX_CONTENT_CHARS + " characters",
                            Fields.shown(query),
                            "query must be at most " + Memories.MAX_CONTENT_CHARS + " characters, got: "
                                    + query.length());
                }
                out.put("score", "cosine");
                for (MemoryIndex.Hit h : memory.search(p, query, t, limit)) {
                    list.add(MemoryJson.toJson(h.memory()).put("cosine", Math.round(h.cosine() * 10_000) / 10_000.0));
                }
            } else {
                memory.recent(p, t, limit).forEach(m -> list.add(MemoryJson.toJson(m)));
            }
            return Reply.json(out);
        });
    }

    private Reply store(Call c) {
        return gated(c, MemoryTools.STORE, null, m -> {
            Fields f = Fields.of(c.json(), "", STORE_FIELDS);
            String content = f.text("content", true, Memories.MAX_CONTENT_CHARS);
            MemoryType type = MemoryType.of("type", f.oneOf("type", TYPES, "fact"));
            MemoryScope scope = MemoryScope.of("scope", f.oneOf("scope", SCOPES, "user"));
            String conversation = f.text("conversation_id", false, 128);
            try {
                return Reply.json(201, MemoryJson.toJson(m.store(c.principal(), scope, type, content, conversation)));
            } catch (IllegalArgumentException e) {
                throw ApiProblem.conflict(e.getMessage());
            }
        });
    }

    private Reply get(Call c) {
        String id = c.path("id");
        return gated(
                c,
                MemoryTools.RECALL,
                id,
                m -> Reply.json(MemoryJson.toJson(m.get(c.principal(), id).orElseThrow(() -> notFound(id)))));
    }

    /** A correction is what memory__store does with a memory_id. */
    private Reply correct(Call c) {
        String id = c.path("id");
        return gated(c, MemoryTools.STORE, id, s -> {
            Fields f = Fields.of(c.json(), "", CORRECT_FIELDS);
            String content = f.text("content", true, Memories.MAX_CONTENT_CHARS);
            String type = f.oneOf("type", TYPES, null);
            Memory m = s.correct(c.principal(), id, content, type == null ? null : MemoryType.of("type", type))
                    .orElseThrow(() -> notFound(id));
            return Reply.json(MemoryJson.toJson(m));
        });
    }

    private Reply forget(Call c) {
        String id = c.path("id");
        return gated(c, MemoryTools.FORGET, id, m -> {
            if (!m.forget(c.principal(), id)) {
                throw notFound(id);
            }
            return Reply.json(JsonNodeFactory.instance.objectNode().put("removed", id));
        });
    }

    private static ApiProblem notFound(String id) {
        return ApiProblem.notFound("Memory not found: " + Fields.shown(id));
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "RouteRequest", OpenApi.schema("""
            {"type": "object", "required": ["message"], "additionalProperties": false,
             "properties": {"message": {"type": "string", "minLength": 1, "maxLength": 16384}}}"""),
                "RouteDecision", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "required": ["route", "reason", "discovery_suggested", "send_whole", "words_match", "score", "model",
                          "thresholds", "evidence"],
             "properties": {
              "route": {"type": "string",
                        "enum": ["DIRECT_MEMORY", "SKILL_EXECUTE", "SKILL_HINT", "TOOL_FILTER", "LLM_REQUIRED"]},
              "target": {"type": "string",
                         "description": "The memory id, tool or skill the route points at (an index's tool when one of its entries matches best)"},
              "reason": {"type": "string"},
              "discovery_suggested": {"type": "boolean"},
              "send_whole": {"type": "boolean",
                             "description": "LLM_REQUIRED with a catalog small enough to send every tool"},
              "words_match": {"type": "boolean",
                              "description": "A word of the message matches a tool the caller may see (BM25)"},
              "score": {"const": "cosine", "description": "What the numbers below are"},
              "model": {"type": "string"},
              "thresholds": {"type": "object", "additionalProperties": false,
                "description": "The model's calibrated cosine per route; null for a disabled route",
                "properties": {"direct_memory": {"type": ["number", "null"]},
                               "skill_execute": {"type": ["number", "null"]},
                               "skill_hint": {"type": ["number", "null"]},
                               "tool_filter": {"type": ["number", "null"]}}},
              "evidence": {"type": "array", "items": {"type": "object", "additionalProperties": false,
                "required": ["kind", "name", "cosine", "text"],
                "properties": {"kind": {"type": "string", "enum": ["memory", "tool", "skill", "index"]},
                               "name": {"type": "string"}, "cosine": {"type": "number"},
                               "required_parameters": {"type": "boolean"}, "text": {"type": "string"},
                               "tool": {"type": "string",
                                        "description": "For an index entry: the tool that searches its index"}}}}}}"""),
                "Memory", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "required": ["id", "scope", "type", "content", "created_at", "updated_at"],
             "properties": {"id": {"type": "string"},
              "scope": {"type": "string", "enum": ["user", "group", "space"]},
              "type": {"type": "string", "enum": ["fact", "preference", "event", "note"]},
              "content": {"type": "string"}, "conversation_id": {"type": "string"},
              "created_at": {"type": "string", "format": "date-time"},
              "updated_at": {"type": "string", "format": "date-time"},
              "cosine": {"type": "number", "description": "In a search: the cosine similarity to the query"}}}"""),
                "MemoryList", OpenApi.schema("""
            {"type": "object", "required": ["memories"], "additionalProperties": false,
             "properties": {"memories": {"type": "array", "items": {"$ref": "#/components/schemas/Memory"}},
                            "score": {"const": "cosine"}}}"""),
                "MemoryRequest", OpenApi.schema("""
            {"type": "object", "required": ["content"], "additionalProperties": false,
             "properties": {"content": {"type": "string", "minLength": 1, "maxLength": 4000},
              "type": {"type": "string", "enum": ["fact", "preference", "event", "note"], "default": "fact"},
              "scope": {"type": "string", "enum": ["user", "group", "space"], "default": "user",
                        "description": "Which of the caller's own scopes: its user's, its group's or its space's"},
              "conversation_id": {"type": "string", "maxLength": 128}}}"""),
                "MemoryCorrection", OpenApi.schema("""
            {"type": "object", "required": ["content"], "additionalProperties": false,
             "properties": {"content": {"type": "string", "minLength": 1, "maxLength": 4000},
              "type": {"type": "string", "enum": ["fact", "preference", "event", "note"]}}}"""));
    }
}
