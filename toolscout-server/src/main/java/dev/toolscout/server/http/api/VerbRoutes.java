package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.CatalogChange;
import dev.toolscout.engine.NoSuchToolException;
import dev.toolscout.engine.Verbs;
import dev.toolscout.model.InputLimits;
import dev.toolscout.verbs.InvalidVerbException;
import dev.toolscout.verbs.NovelVerb;
import dev.toolscout.verbs.VerbJson;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbManifestJson;
import dev.toolscout.verbs.VerbResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Action verbs (seed 002's {@code /verbs/register} and {@code /verbs/discover}, docs/VERBS.md): register (admins),
 * list, discover the verbs and tools that match a description, resolve an unknown verb, remove (admins). Verbs are
 * catalog tools ({@code verbs__<VERB>}), so reads show only what the caller's principal may see, and writes are
 * acknowledged once durable.
 */
final class VerbRoutes implements RouteGroup {
    private static final Set<String> DISCOVER_FIELDS = Set.of("description", "limit");
    private static final Set<String> RESOLVE_FIELDS = Set.of("verb", "description", "inputs");

    @Override
    public List<Endpoint> routes() {
        return List.of(
                Endpoint.post("/v1/verbs/register", "registerVerbs")
                        .tag("verbs")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Add or replace verbs")
                        .description(
                                "The body is a verb manifest, an array of them or {\"verbs\": [...]} (at most 500), checked "
                                        + "as a whole: a bad manifest registers nothing. Answered once the verbs are durable in the store.")
                        .request("VerbRegisterRequest")
                        .response(200, "Replaced (or unchanged)", "VerbsRegistered")
                        .response(201, "At least one verb added", "VerbsRegistered")
                        .handle(this::register),
                Endpoint.get("/v1/verbs", "listVerbs")
                        .tag("verbs")
                        .summary("The verbs the caller may see, by name, as manifests")
                        .response(200, "The verbs", "VerbList")
                        .handle(this::list),
                Endpoint.post("/v1/verbs/discover", "discoverVerbs")
                        .tag("verbs")
                        .summary("The verbs and tools that best match a description, each with its confidence")
                        .description(
                                "Best first by the hybrid search's fused score; each candidate's confidence is the cosine "
                                        + "similarity of its description's embedding to the searched description's, the absolute score a "
                                        + "substitution's threshold applies to (docs/VERBS.md).")
                        .request("VerbDiscoverRequest")
                        .response(200, "The candidates", "VerbDiscovery")
                        .handle(this::discover),
                Endpoint.post("/v1/verbs/resolve", "resolveVerb")
                        .tag("verbs")
                        .summary("Whether an existing verb or tool can stand in for an unknown verb")
                        .description(
                                "A substitution when the best candidate's confidence reaches the embedding model's "
                                        + "calibrated threshold, else no match with the nearest candidates (seed 002's NovelVerbHandler).")
                        .request("VerbResolveRequest")
                        .response(200, "The resolution", "VerbResolution")
                        .handle(this::resolve),
                Endpoint.delete("/v1/verbs/{verb}", "deleteVerb")
                        .tag("verbs")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Remove one verb")
                        .pathParam(
                                "verb",
                                "The verb, e.g. SEARCH_WEB",
                                OpenApi.schema("{\"type\": \"string\", \"minLength\": 1, \"maxLength\": 256}"))
                        .response(200, "Removed; durable in the store", "CatalogChange")
                        .problem(404, "No such verb")
                        .handle(this::delete));
    }

    private Reply register(Call c) {
        List<VerbManifest> manifests;
        try {
            manifests = VerbManifestJson.readAll(c.json(), "body");
        } catch (IllegalArgumentException e) {
            String input = e.getCause() instanceof InvalidVerbException iv ? iv.field() : "body";
            throw ApiProblem.invalid(input, "docs/VERBS.md, The manifest", (JsonNode) null, e.getMessage());
        }
        CatalogChange change = c.backend().scout().verbs().register(manifests);
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode names = out.putArray("verbs");
        manifests.forEach(m -> names.add(m.verb()));
        out.set("change", changeJson(change));
        return Reply.json(change.added() > 0 ? 201 : 200, out);
    }

    private Reply list(Call c) {
        List<VerbManifest> verbs = c.backend().scout().verbs().list(c.principal());
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("count", verbs.size());
        ArrayNode a = out.putArray("verbs");
        verbs.forEach(v -> a.add(VerbManifestJson.toJson(v)));
        return Reply.json(out);
    }

    private Reply discover(Call c) {
        Fields f = Fields.of(c.json(), "", DISCOVER_FIELDS);
        String description = f.text("description", true, InputLimits.MAX_MESSAGE_CHARS);
        Integer limit = f.integer("limit", 1, VerbResolver.MAX_LIMIT);
        Verbs verbs = c.backend().scout().verbs();
        return Reply.json(VerbJson.discovery(
                description,
                verbs.resolver().modelId(),
                verbs.resolver().threshold(),
                verbs.discover(c.principal(), description, limit == null ? VerbResolver.DEFAULT_LIMIT : limit)));
    }

    private Reply resolve(Call c) {
        Fields f = Fields.of(c.json(), "", RESOLVE_FIELDS);
        String verb = f.text("verb", false, InputLimits.MAX_NAME_CHARS);
        String description = f.text("description", false, InputLimits.MAX_MESSAGE_CHARS);
        List<String> inputs = new ArrayList<>();
        List<JsonNode> given = f.array("inputs", VerbManifest.MAX_DEFINITIONS);
        for (int i = 0; i < given.size(); i++) {
            JsonNode in = given.get(i);
            if (!in.isTextual() || in.textValue().length() > InputLimits.MAX_NAME_CHARS) {
                throw ApiProblem.invalid(
                        "inputs[" + i + "]",
                        "an input name (a string of at most 256 characters)",
                        in,
                        "inputs[" + i + "] must be an input name (a string of at most 256 characters), got: "
                                + Fields.shown(in));
            }
            inputs.add(in.textValue());
        }
        if (verb == null && description == null) {
            throw ApiProblem.invalid(
                    "verb",
                    "verb or description given",
                    (JsonNode) null,
                    "give the unknown verb's name (verb), what it should do (description), or both");
        }
        return Reply.json(VerbJson.resolution(
                c.backend().scout().verbs().resolve(c.principal(), new NovelVerb(verb, description, inputs))));
    }

    private Reply delete(Call c) {
        String verb = c.path("verb");
        if (verb.length() > InputLimits.MAX_NAME_CHARS) {
            throw ApiProblem.invalid("verb", "at most 256 characters", verb, InputLimits.nameTooLong("verb", verb));
        }
        try {
            return Reply.json(changeJson(c.backend().scout().verbs().remove(List.of(verb))));
        } catch (NoSuchToolException e) {
            throw ApiProblem.notFound("Verb not found: " + Fields.shown(verb));
        }
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
                "VerbManifest", OpenApi.schema("""
            {"type": "object", "required": ["verb", "description"], "additionalProperties": false,
             "description": "A verb manifest (docs/VERBS.md); input_definitions and output_definitions are accepted too",
             "properties": {
              "verb": {"type": "string", "description": "Upper snake case, at most 57 characters, e.g. SEARCH_WEB"},
              "description": {"type": "string", "minLength": 1, "maxLength": 16384},
              "capabilities": {"type": "array", "maxItems": 32, "items": {"type": "string", "maxLength": 64}},
              "category": {"type": "string"},
              "examples": {"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 512}},
              "inputDefinitions": {"type": ["object", "array"],
                                   "description": "A list of {name, type, description, required}, or a JSON Schema object"},
              "input_definitions": {"type": ["object", "array"]},
              "outputDefinitions": {"type": ["object", "array"]},
              "output_definitions": {"type": ["object", "array"]}}}"""),
                "VerbRegisterRequest", OpenApi.schema("""
            {"oneOf": [{"$ref": "#/components/schemas/VerbManifest"},
                       {"type": "array", "minItems": 1, "maxItems": 500,
                        "items": {"$ref": "#/components/schemas/VerbManifest"}},
                       {"type": "object", "required": ["verbs"], "additionalProperties": false,
                        "properties": {"verbs": {"type": "array", "minItems": 1, "maxItems": 500,
                                                 "items": {"$ref": "#/components/schemas/VerbManifest"}}}}]}"""),
                "VerbsRegistered", OpenApi.schema("""
            {"type": "object", "required": ["verbs", "change"], "additionalProperties": false,
             "properties": {"verbs": {"type": "array", "items": {"type": "string"}},
                            "change": {"$ref": "#/components/schemas/CatalogChange"}}}"""),
                "VerbList", OpenApi.schema("""
            {"type": "object", "required": ["count", "verbs"], "additionalProperties": false,
             "properties": {"count": {"type": "integer"},
                            "verbs": {"type": "array", "items": {"$ref": "#/components/schemas/VerbManifest"}}}}"""),
                "VerbDiscoverRequest", OpenApi.schema("""
            {"type": "object", "required": ["description"], "additionalProperties": false,
             "properties": {"description": {"type": "string", "minLength": 1, "maxLength": 16384,
                                            "description": "What the verb should do"},
                            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}}}"""),
                "VerbCandidate", OpenApi.schema("""
            {"type": "object", "required": ["name", "kind", "description", "confidence", "score"],
             "additionalProperties": false,
             "properties": {"name": {"type": "string"}, "kind": {"type": "string", "enum": ["verb", "tool"]},
              "verb": {"type": "string", "description": "For a verb: its name without the verbs__ prefix"},
              "description": {"type": "string"},
              "confidence": {"type": ["number", "null"], "description": "Cosine similarity of the candidate's description to the searched one (each embedded alone), -1 to 1; null when it could not be scored"},
              "score": {"type": "number", "description": "Fused relevance, 0-1, relative to this search's candidates"}}}"""),
                "VerbDiscovery", OpenApi.schema("""
            {"type": "object", "required": ["description", "model", "threshold", "count", "candidates"],
             "additionalProperties": false,
             "properties": {"description": {"type": "string"}, "model": {"type": "string"},
              "threshold": {"type": ["number", "null"], "description": "The confidence a substitution needs with this model; null when it has none"},
              "count": {"type": "integer"},
              "candidates": {"type": "array", "items": {"$ref": "#/components/schemas/VerbCandidate"}}}}"""),
                "VerbResolveRequest", OpenApi.schema("""
            {"type": "object", "additionalProperties": false,
             "description": "An unknown verb: its name, what it should do, or both",
             "properties": {"verb": {"type": "string", "minLength": 1, "maxLength": 256},
                            "description": {"type": "string", "minLength": 1, "maxLength": 16384},
                            "inputs": {"type": "array", "maxItems": 64, "items": {"type": "string", "maxLength": 256}}}}"""),
                "VerbResolution", OpenApi.schema("""
            {"oneOf": [
              {"type": "object", "required": ["result", "target", "confidence", "threshold", "model", "alternatives"],
               "additionalProperties": false,
               "properties": {"result": {"const": "substitution"},
                "target": {"$ref": "#/components/schemas/VerbCandidate"}, "confidence": {"type": "number"},
                "threshold": {"type": "number"}, "model": {"type": "string"},
                "alternatives": {"type": "array", "items": {"$ref": "#/components/schemas/VerbCandidate"}}}},
              {"type": "object", "required": ["result", "reason", "threshold", "model", "nearest"],
               "additionalProperties": false,
               "properties": {"result": {"const": "no_match"}, "reason": {"type": "string"},
                "threshold": {"type": ["number", "null"]}, "model": {"type": "string"},
                "nearest": {"type": "array", "items": {"$ref": "#/components/schemas/VerbCandidate"}}}}]}"""));
    }
}
