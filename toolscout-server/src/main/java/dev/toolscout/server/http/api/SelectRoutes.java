package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.engine.RenderFormat;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.model.InputLimits;
import dev.toolscout.render.DeferredTools;
import dev.toolscout.selection.SelectorConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** {@code POST /v1/select}: the tools for one message, as {@code toolscout select --format} prints them. */
final class SelectRoutes implements RouteGroup {
    private static final Set<String> FIELDS =
            Set.of("message", "k", "token_budget", "conversation_id", "format", "principal");
    private static final List<String> FORMATS = List.of("json", "anthropic", "anthropic-deferred", "openai", "mcp");
    private static final Pattern CONVERSATION_ID =
            Pattern.compile("[A-Za-z0-9._:-]{1," + SelectRequest.MAX_CONVERSATION_ID_CHARS + "}");

    private final ApiMetrics metrics;

    SelectRoutes(ApiMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public List<Endpoint> routes() {
        return List.of(Endpoint.post("/v1/select", "select")
                .tag("selection")
                .summary("Select the tools an LLM should see for a message")
                .description(
                        "The fields of `toolscout select --format json` (format json, the default), or the rendered "
                                + "form for Anthropic's Messages API, Claude's tool search (anthropic-deferred: every tool "
                                + "the caller may see, the selected ones loaded, the rest with defer_loading), OpenAI's "
                                + "Chat API or an MCP tools/list result. Only tools the caller's principal may see are "
                                + "ranked, listed or counted.")
                .request("SelectRequest")
                .response(200, "The selection, or its rendered form", "application/json", OpenApi.schema("""
            {"anyOf": [{"$ref": "#/components/schemas/SelectResult"},
                       {"$ref": "#/components/schemas/AnthropicSelection"},
                       {"$ref": "#/components/schemas/AnthropicDeferredSelection"},
                       {"$ref": "#/components/schemas/OpenAiSelection"},
                       {"$ref": "#/components/schemas/McpSelection"}]}"""))
                .handle(this::select));
    }

    private Reply select(Call c) {
        Fields f = Fields.of(c.json(), "", FIELDS);
        String message = f.text("message", true, InputLimits.MAX_REQUEST_MESSAGE_CHARS);
        Integer k = f.integer("k", SelectorConfig.MIN_K, SelectorConfig.MAX_K);
        Integer budget = f.integer("token_budget", 1, Integer.MAX_VALUE);
        String conversation = f.text("conversation_id", false, SelectRequest.MAX_CONVERSATION_ID_CHARS);
        if (conversation != null && !CONVERSATION_ID.matcher(conversation).matches()) {
            throw ApiProblem.invalid(
                    "conversation_id",
                    "1-128 characters of A-Z a-z 0-9 . _ : -",
                    conversation,
                    "conversation_id must be 1-128 characters of A-Z a-z 0-9 . _ : -, got: '"
                            + Fields.shown(conversation) + "'");
        }
        String format = f.oneOf("format", FORMATS, "json");
        SelectRequest request = new SelectRequest(message, principal(c, f), k, budget, conversation);
        long start = System.nanoTime();
        SelectResult result = c.backend().scout().select(request);
        metrics.select(System.nanoTime() - start);
        RenderFormat rendered = RenderFormat.valueOf(format.replace('-', '_').toUpperCase(Locale.ROOT));
        try {
            return Reply.json(c.backend().scout().render(result, rendered, request.principal()));
        } catch (IllegalArgumentException e) {
            // anthropic-deferred for a principal who may see more tools than Claude's tool search takes
            throw ApiProblem.invalid(
                    "format",
                    "anthropic-deferred for at most " + String.format(Locale.ROOT, "%,d", DeferredTools.MAX_TOOLS)
                            + " tools the caller may see",
                    format,
                    e.getMessage());
        }
    }

    /** The caller's principal, or for an admin the one its {@code principal} field names (the console's "try"). */
    private static dev.toolscout.model.Principal principal(Call c, Fields f) {
        JsonNode p = f.node("principal");
        if (p == null) {
            return c.principal();
        }
        if (c.caller() == null || c.caller().role() != dev.toolscout.model.Role.ADMIN) {
            throw ApiProblem.of(
                    403,
                    "forbidden",
                    "Forbidden",
                    "principal (selecting as another principal) needs an API "
                            + "key with the role admin; this caller's role is "
                            + (c.caller() == null ? "none" : c.caller().role().id()));
        }
        if (!p.isObject()) {
            throw ApiProblem.invalid(
                    "principal",
                    "an object of user, group and space",
                    p,
                    "principal must be an object of user, group and space, got: " + Fields.kind(p));
        }
        Fields pf = Fields.of(p, "principal", Set.of("user", "group", "space"));
        return new dev.toolscout.model.Principal(
                pf.text("user", false, InputLimits.MAX_NAME_CHARS),
                pf.text("group", false, InputLimits.MAX_NAME_CHARS),
                pf.text("space", false, InputLimits.MAX_NAME_CHARS));
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "SelectRequest", OpenApi.schema("""
            {"type": "object", "required": ["message"], "additionalProperties": false,
             "properties": {
              "message": {"type": "string", "minLength": 1, "maxLength": 1048576,
                          "description": "The user's message; only its first 8,192 characters are ranked (see shortened)"},
              "k": {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many tools (default 10)"},
              "token_budget": {"type": "integer", "minimum": 1,
                               "description": "The most tokens the selected definitions may take"},
              "conversation_id": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,128}$",
                                  "description": "The conversation this message belongs to"},
              "format": {"type": "string", "enum": ["json", "anthropic", "anthropic-deferred", "openai", "mcp"],
                         "default": "json"},
              "principal": {"type": "object", "additionalProperties": false,
                            "description": "Admin only: select as this principal (the web console's Try page)",
                            "properties": {"user": {"type": "string", "maxLength": 256},
                                           "group": {"type": "string", "maxLength": 256},
                                           "space": {"type": "string", "maxLength": 256}}}}}"""),
                "SelectResult", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "required": ["selected", "core_included", "excluded_count", "reason", "discovery_suggested", "tokens"],
             "properties": {
              "selected": {"type": "array", "items": {
                "type": "object", "required": ["name", "score", "reason"], "additionalProperties": false,
                "properties": {"name": {"type": "string"},
                               "score": {"type": "number", "description": "Fused relevance, 0-1"},
                               "reason": {"type": "string"}}}},
              "core_included": {"type": "array", "items": {"type": "string"}},
              "excluded_count": {"type": "integer", "minimum": 0},
              "reason": {"type": "string"},
              "discovery_suggested": {"type": "boolean"},
              "tokens": {"type": "object", "required": ["selected", "all", "saved_pct"], "additionalProperties": false,
                         "properties": {"selected": {"type": "integer"}, "all": {"type": "integer"},
                                        "saved_pct": {"type": "number"},
                                        "estimated": {"type": "boolean", "description":
                                            "Present (true) when all estimates definitions not counted yet"}}},
              "active_skills": {"type": "array", "items": {"type": "string"},
                                "description": "With a conversation_id: its active skills, whose tools are pinned"},
              "suggested_skill": {"type": "object", "required": ["name", "description", "why"],
                                  "additionalProperties": false,
                                  "description": "With a conversation_id: a skill that clearly matches the message",
                                  "properties": {"name": {"type": "string"}, "description": {"type": "string"},
                                                 "why": {"type": "string"}}},
              "route": {"$ref": "#/components/schemas/RouteDecision",
                        "description": "The route the message took (docs/ROUTING.md); on LLM_REQUIRED only the core tools are selected"},
              "shortened": {"type": "object", "required": ["from_chars", "to_chars", "note"], "additionalProperties": false,
                            "description": "Only for a message longer than the ranking reads: it was ranked and routed on its first to_chars characters",
                            "properties": {"from_chars": {"type": "integer"}, "to_chars": {"type": "integer"},
                                           "note": {"type": "string"}}}}}"""),
                "AnthropicSelection", OpenApi.schema("""
            {"type": "object", "required": ["system", "tools"], "additionalProperties": false,
             "description": "For Anthropic's Messages API: the system prompt section and the tools",
             "properties": {
              "system": {"type": "string"},
              "tools": {"type": "array", "items": {
                "type": "object", "required": ["name", "description", "input_schema"],
                "properties": {"name": {"type": "string"}, "description": {"type": "string"},
                               "input_schema": {"type": "object"}}}}}}"""),
                "AnthropicDeferredSelection", OpenApi.schema("""
            {"type": "object", "required": ["system", "tools"], "additionalProperties": false,
             "description": "For Claude's tool search: the selected tools and tool_discovery__find loaded, then every other tool the caller may see with defer_loading true (by name; at most 10,000 in all)",
             "properties": {
              "system": {"type": "string"},
              "tools": {"type": "array", "maxItems": 10000, "items": {
                "type": "object", "required": ["name", "description", "input_schema"], "additionalProperties": false,
                "properties": {"name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
                               "description": {"type": "string"}, "input_schema": {"type": "object"},
                               "defer_loading": {"const": true}}}}}}"""),
                "OpenAiSelection", OpenApi.schema("""
            {"type": "object", "required": ["messages", "tools"], "additionalProperties": false,
             "description": "For OpenAI's Chat API: the system message and the function tools",
             "properties": {
              "messages": {"type": "array", "items": {
                "type": "object", "required": ["role", "content"],
                "properties": {"role": {"const": "system"}, "content": {"type": "string"}}}},
              "tools": {"type": "array", "items": {
                "type": "object", "required": ["type", "function"],
                "properties": {"type": {"const": "function"},
                               "function": {"type": "object", "required": ["name", "description", "parameters"]}}}}}}"""),
                "McpSelection", OpenApi.schema("""
            {"type": "object", "required": ["tools"], "additionalProperties": false,
             "description": "An MCP tools/list result",
             "properties": {
              "tools": {"type": "array", "items": {
                "type": "object", "required": ["name", "description", "inputSchema"],
                "properties": {"name": {"type": "string"}, "description": {"type": "string"},
                               "inputSchema": {"type": "object"}, "annotations": {"type": "object"}}}}}}"""));
    }
}
