package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.conversation.Conversation;
import dev.toolscout.conversation.Conversations;
import dev.toolscout.engine.ToolCallResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.InputLimits;
import dev.toolscout.skills.InvalidSkillException;
import dev.toolscout.skills.Skill;
import dev.toolscout.skills.SkillJson;
import dev.toolscout.skills.SkillTools;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Skills and conversations (docs/SKILLS.md). Reads show what the caller's principal may see: a skill whose tools
 * it may not see, and a conversation of another principal, are answered exactly like missing ones. Writes of
 * skills are the admin's, acknowledged once durable in the store.
 */
final class SkillRoutes implements RouteGroup {
    private static final Set<String> SKILL_FIELDS =
            Set.of("name", "description", "documentation", "tools", "allowed-tools", "resources");

    @Override
    public List<Endpoint> routes() {
        JsonNode name = OpenApi.schema("{\"type\": \"string\", \"minLength\": 1, \"maxLength\": 64}");
        JsonNode id = OpenApi.schema("{\"type\": \"string\", \"pattern\": \"^[A-Za-z0-9._:-]{1,128}$\"}");
        return List.of(
                Endpoint.get("/v1/skills", "listSkills")
                        .tag("skills")
                        .summary("The skills the caller may see, with their tools the caller may see")
                        .response(200, "Every visible skill, by name", "SkillList")
                        .handle(this::list),
                Endpoint.get("/v1/skills/{name}", "getSkill")
                        .tag("skills")
                        .summary("One skill, as the caller may read it")
                        .description(
                                "A skill whose tools the caller may not see gets the same 404 as one that does not exist.")
                        .pathParam("name", "The skill's name", name)
                        .response(200, "The skill", "Skill")
                        .problem(404, "No such skill, or not one the caller may see")
                        .handle(this::get),
                Endpoint.put("/v1/skills/{name}", "putSkill")
                        .tag("skills")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Add or replace one skill")
                        .description(
                                "The body is a skill (name, description, documentation, tools); its name may be left out "
                                        + "and must equal the path's when given. The Agent Skills rules apply: the name 1-64 characters of "
                                        + "a-z 0-9 and hyphens, no leading, trailing or double hyphen; the description 1-1024 characters.")
                        .pathParam("name", "The skill's name", name)
                        .request("Skill")
                        .response(200, "Replaced (or unchanged)", "Skill")
                        .response(201, "Added", "Skill")
                        .handle(this::put),
                Endpoint.delete("/v1/skills/{name}", "deleteSkill")
                        .tag("skills")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Remove one skill")
                        .pathParam("name", "The skill's name", name)
                        .response(200, "Removed; durable in the store", "Removed")
                        .problem(404, "No such skill")
                        .handle(this::delete),
                Endpoint.get("/v1/conversations/{id}", "getConversation")
                        .tag("skills")
                        .summary(
                                "One of the caller's conversations: its active skills and the tools discovery disclosed")
                        .description(
                                "Another principal's conversation, an expired one and a missing one get the same 404.")
                        .pathParam("id", "The conversation id", id)
                        .response(200, "The conversation", "Conversation")
                        .problem(404, "No such conversation of the caller's")
                        .handle(this::getConversation),
                Endpoint.delete("/v1/conversations/{id}", "forgetConversation")
                        .tag("skills")
                        .summary("Forget one of the caller's conversations")
                        .pathParam("id", "The conversation id", id)
                        .response(200, "Forgotten; durable in the store", "Removed")
                        .problem(404, "No such conversation of the caller's")
                        .handle(this::forget),
                Endpoint.post("/v1/conversations/{id}/skills", "activateSkill")
                        .tag("skills")
                        .summary(
                                "Activate a skill in a conversation (what skills__activate does when the model calls it)")
                        .description(
                                "The answer is what the model gets back: the skill's documentation and its tools. From "
                                        + "then on every /v1/select with this conversation_id carries the skill's tools.")
                        .pathParam("id", "The conversation id", id)
                        .request("ActivateRequest")
                        .response(200, "The tool result for the model", "Activation")
                        .problem(404, "No such skill, or not one the caller may see")
                        .handle(this::activate));
    }

    private Reply list(Call c) {
        ToolScout scout = c.backend().scout();
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode skills = out.putArray("skills");
        // the skills offered to nobody, their tools all missing, are listed too, with why: never a bare absence
        List<Skill> unoffered = scout.unofferedSkills(c.principal());
        List<Skill> all = new java.util.ArrayList<>(scout.skills(c.principal()));
        all.addAll(unoffered);
        all.sort(java.util.Comparator.comparing(Skill::name));
        for (Skill s : all) {
            ObjectNode n = json(s, scout.missingTools(s.name()));
            if (unoffered.contains(s)) {
                n.put("not_offered", "missing tools: " + String.join(", ", scout.missingTools(s.name())));
            }
            skills.add(n);
        }
        out.put("total", skills.size());
        return Reply.json(out);
    }

    private Reply get(Call c) {
        String name = c.path("name");
        checkName(name);
        ToolScout scout = c.backend().scout();
        Optional<Skill> visible = scout.skill(c.principal(), name);
        if (visible.isPresent()) {
            return Reply.json(json(visible.get(), scout.missingTools(name)));
        }
        // offered to nobody, its tools all missing: shown with why, as the listing shows it
        Skill s = scout.unofferedSkills(c.principal()).stream()
                .filter(u -> u.name().equals(name))
                .findFirst()
                .orElseThrow(() -> notFound(name));
        List<String> missing = scout.missingTools(name);
        return Reply.json(json(s, missing).put("not_offered", "missing tools: " + String.join(", ", missing)));
    }

    private Reply put(Call c) {
        String name = c.path("name");
        checkName(name);
        JsonNode body = c.json();
        Fields.of(body, "", SKILL_FIELDS);
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
        ObjectNode skill = ((ObjectNode) body).deepCopy();
        skill.put("name", name);
        Skill s;
        try {
            s = SkillJson.fromJson(skill, null, Skill.Source.API);
        } catch (InvalidSkillException e) {
            throw ApiProblem.invalid(e.field(), "docs/SKILLS.md, Skill fields", skill.get(e.field()), e.getMessage());
        }
        boolean created;
        try {
            created = c.backend().scout().putSkill(s);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.conflict(e.getMessage());
        }
        return Reply.json(created ? 201 : 200, json(s, c.backend().scout().missingTools(s.name())));
    }

    private Reply delete(Call c) {
        String name = c.path("name");
        checkName(name);
        if (!c.backend().scout().removeSkill(name)) {
            throw notFound(name);
        }
        return Reply.json(JsonNodeFactory.instance.objectNode().put("removed", name));
    }

    private Reply getConversation(Call c) {
        String id = checkId(c.path("id"));
        Conversation conv =
                c.backend().scout().conversation(c.principal(), id).orElseThrow(() -> conversationNotFound(id));
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("id", conv.id());
        ArrayNode skills = out.putArray("active_skills");
        conv.activeSkills().forEach(skills::add);
        ArrayNode tools = out.putArray("disclosed_tools");
        conv.disclosedTools().forEach(tools::add);
        out.put("created_at", conv.createdAt().toString());
        out.put("last_used_at", conv.lastUsedAt().toString());
        return Reply.json(out);
    }

    private Reply forget(Call c) {
        String id = checkId(c.path("id"));
        if (!c.backend().scout().forgetConversation(c.principal(), id)) {
            throw conversationNotFound(id);
        }
        return Reply.json(JsonNodeFactory.instance.objectNode().put("removed", id));
    }

    private Reply activate(Call c) {
        String id = checkId(c.path("id"));
        Fields f = Fields.of(c.json(), "", Set.of("skill_name"));
        String skill = f.text("skill_name", true, InputLimits.MAX_NAME_CHARS);
        ToolScout scout = c.backend().scout();
        ToolCallResult r = scout.callMetaTool(
                c.principal(),
                id,
                SkillTools.ACTIVATE,
                JsonNodeFactory.instance.objectNode().put("skill_name", skill));
        if (r.isError()) {
            if (r.error().startsWith("Skill not found: ")) {
                throw notFound(skill);
            }
            throw ApiProblem.conflict(r.error());
        }
        return Reply.json(r.output());
    }

    static ObjectNode json(Skill s) {
        ObjectNode n = SkillJson.toJson(s);
        n.remove("source");
        return n;
    }

    /** {@code s} with {@code missing_tools}, the tools it names that the catalog lacks, when there are any. */
    private static ObjectNode json(Skill s, List<String> missing) {
        ObjectNode n = json(s);
        if (!missing.isEmpty()) {
            missing.forEach(n.putArray("missing_tools")::add);
        }
        return n;
    }

    private static void checkName(String name) {
        if (name.length() > InputLimits.MAX_NAME_CHARS) {
            throw ApiProblem.invalid("name", "at most 256 characters", name, InputLimits.nameTooLong("name", name));
        }
    }

    private static String checkId(String id) {
        try {
            return Conversations.checkId(id);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid("id", "1-128 characters of A-Z a-z 0-9 . _ : -", id, e.getMessage());
        }
    }

    private static ApiProblem notFound(String name) {
        return ApiProblem.notFound("Skill not found: " + Fields.shown(name));
    }

    private static ApiProblem conversationNotFound(String id) {
        return ApiProblem.notFound("Conversation not found: " + Fields.shown(id));
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of(
                "Skill", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "description": "A skill (docs/SKILLS.md). In a PUT the name may be left out; allowed-tools is another spelling of tools.",
             "properties": {
              "name": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 64},
              "description": {"type": "string", "minLength": 1, "maxLength": 1024},
              "documentation": {"type": "string", "maxLength": 32768},
              "tools": {"type": ["array", "string"], "maxItems": 64, "items": {"type": "string"}},
              "allowed-tools": {"type": ["array", "string"], "maxItems": 64, "items": {"type": "string"}},
              "resources": {"type": "array", "maxItems": 256, "items": {"type": "string"}},
              "missing_tools": {"type": "array", "items": {"type": "string"}, "readOnly": true,
                                "description": "In an answer: the tools it names that the catalog lacks"},
              "not_offered": {"type": "string", "readOnly": true,
                              "description": "In a listing: why no one is offered it (every tool it names is missing)"}}}"""),
                "SkillList", OpenApi.schema("""
            {"type": "object", "required": ["skills", "total"], "additionalProperties": false,
             "properties": {"skills": {"type": "array", "items": {"$ref": "#/components/schemas/Skill"}},
                            "total": {"type": "integer"}}}"""),
                "Removed", OpenApi.schema("""
            {"type": "object", "required": ["removed"], "additionalProperties": false,
             "properties": {"removed": {"type": "string", "description": "The name or id removed"}}}"""),
                "Conversation", OpenApi.schema("""
            {"type": "object", "required": ["id", "active_skills", "disclosed_tools", "created_at", "last_used_at"],
             "additionalProperties": false,
             "properties": {"id": {"type": "string"},
              "active_skills": {"type": "array", "items": {"type": "string"},
                                "description": "In activation order; only skills the caller may still see"},
              "disclosed_tools": {"type": "array", "items": {"type": "string"},
                                  "description": "Tools discovery disclosed; only tools the caller may still see"},
              "created_at": {"type": "string", "format": "date-time"},
              "last_used_at": {"type": "string", "format": "date-time",
                               "description": "To the minute; the conversation expires 24 h after it"}}}"""),
                "ActivateRequest", OpenApi.schema("""
            {"type": "object", "required": ["skill_name"], "additionalProperties": false,
             "properties": {"skill_name": {"type": "string", "minLength": 1, "maxLength": 256}}}"""),
                "Activation", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "required": ["skill", "activated", "message", "description", "documentation", "tools", "resources"],
             "properties": {"skill": {"type": "string"},
              "activated": {"type": "boolean", "description": "false when it was active already"},
              "message": {"type": "string"}, "description": {"type": "string"}, "documentation": {"type": "string"},
              "tools": {"type": "array", "items": {"type": "object", "required": ["name", "description"],
                        "additionalProperties": false,
                        "properties": {"name": {"type": "string"}, "description": {"type": "string"}}}},
              "resources": {"type": "array", "items": {"type": "string"}}}}"""));
    }
}
