package dev.toolscout.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The built-in memory tools a model calls (seed 000's pinned core tools): {@code memory__store}, {@code
 * memory__search}, {@code memory__recall} and {@code memory__forget}, over {@link Memories}. Access to the tools
 * themselves (a policy rule on source {@code memory}, say) is the caller's to check first, as for every tool; the
 * scopes are checked here: a memory the principal may not read and a missing one get the same answer, {@code
 * Memory not found: <id>}.
 *
 * <p>Thread-safe.
 */
public final class MemoryTools {
    public static final String SOURCE = "memory";
    public static final String STORE = "memory__store";
    public static final String SEARCH = "memory__search";
    public static final String RECALL = "memory__recall";
    public static final String FORGET = "memory__forget";
    /** The most memories one search or recall answers with. */
    public static final int MAX_LIMIT = 50;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** The four tools' definitions, in the order above. */
    public static final List<ToolSpec> SPECS = List.of(storeSpec(), searchSpec(), recallSpec(), forgetSpec());

    private final Memories memories;

    public MemoryTools(Memories memories) {
        this.memories = memories;
    }

    /** What a call gave: an answer for the model, or an error it can act on. */
    public sealed interface Result {
        record Ok(JsonNode output) implements Result {}

        record Error(String message) implements Result {}
    }

    /** Whether {@code name} is one of the memory tools. */
    public static boolean isMemoryTool(String name) {
        return STORE.equals(name) || SEARCH.equals(name) || RECALL.equals(name) || FORGET.equals(name);
    }

    /** The definition of memory tool {@code name}. */
    public static Optional<ToolSpec> spec(String name) {
        return SPECS.stream().filter(s -> s.fullName().equals(name)).findFirst();
    }

    /**
     * Runs one memory tool for {@code p}.
     *
     * @param conversationId the conversation the call belongs to (kept with a stored memory), or {@code null}
     * @throws IllegalArgumentException when {@code tool} is not a memory tool
     */
    public Result call(Principal p, String conversationId, String tool, JsonNode args) {
        JsonNode a = args == null || args.isNull() ? F.objectNode() : args;
        if (!a.isObject()) {
            return new Result.Error(tool + ": arguments must be a JSON object, got: " + a.getNodeType());
        }
        try {
            return switch (tool) {
                case STORE -> store(p, conversationId, a);
                case SEARCH -> search(p, a);
                case RECALL -> recall(p, a);
                case FORGET -> forget(p, a);
                default -> throw new IllegalArgumentException("'" + tool + "' is not a memory tool");
            };
        } catch (IllegalArgumentException e) {
            if (!isMemoryTool(tool)) {
                throw e;
            }
            return new Result.Error(tool + ": " + e.getMessage());
        }
    }

    private Result store(Principal p, String conversationId, JsonNode a) {
        String content = text(a, "content", true);
        MemoryType type = a.hasNonNull("memory_type")
                ? MemoryType.of("memory_type", a.get("memory_type").asText())
                : null;
        String id = text(a, "memory_id", false);
        if (id != null) {
            Optional<Memory> m = memories.correct(p, id, content, type);
            return m.isEmpty()
                    ? notFound(id)
                    : new Result.Ok(F.objectNode().set("corrected", MemoryJson.toJson(m.get())));
        }
        MemoryScope scope =
                a.hasNonNull("scope") ? MemoryScope.of("scope", a.get("scope").asText()) : MemoryScope.USER;
        Memory m = memories.store(p, scope, type == null ? MemoryType.FACT : type, content, conversationId);
        return new Result.Ok(F.objectNode().set("stored", MemoryJson.toJson(m)));
    }

    private Result search(Principal p, JsonNode a) {
        String query = text(a, "query", true);
        MemoryType type = a.hasNonNull("memory_type")
                ? MemoryType.of("memory_type", a.get("memory_type").asText())
                : null;
        int limit = limit(a, 5);
        return new Result.Ok(hits(query, memories.search(p, query, type, limit)));
    }

    private Result recall(Principal p, JsonNode a) {
        String id = text(a, "memory_id", false);
        String query = text(a, "query", false);
        if ((id == null) == (query == null)) {
            return new Result.Error(
                    RECALL + ": give exactly one of memory_id (one memory) and query (the memories that "
                            + "best answer it), got: " + (id == null ? "neither" : "both"));
        }
        if (id != null) {
            Optional<Memory> m = memories.get(p, id);
            return m.isEmpty() ? notFound(id) : new Result.Ok(F.objectNode().set("memory", MemoryJson.toJson(m.get())));
        }
        return new Result.Ok(hits(query, memories.search(p, query, null, limit(a, 3))));
    }

    private Result forget(Principal p, JsonNode a) {
        String id = text(a, "memory_id", true);
        return memories.forget(p, id) ? new Result.Ok(F.objectNode().put("forgotten", id.strip())) : notFound(id);
    }

    private static Result notFound(String id) {
        return new Result.Error("Memory not found: " + MemoryScope.clip(id.strip()));
    }

    private static ObjectNode hits(String query, List<MemoryIndex.Hit> hits) {
        ObjectNode out = F.objectNode();
        out.put("query", query.strip());
        out.put("score", "cosine");
        ArrayNode list = out.putArray("memories");
        for (MemoryIndex.Hit h : hits) {
            list.add(MemoryJson.toJson(h.memory()).put("cosine", Math.round(h.cosine() * 10_000) / 10_000.0));
        }
        return out;
    }

    private static String text(JsonNode a, String field, boolean required) {
        JsonNode v = a.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IllegalArgumentException(field + " is required");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException(
                    field + " must be a string, got: " + v.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        if (field.equals("memory_id") && v.asText().length() > 64) {
            throw new IllegalArgumentException("memory_id must be at most 64 characters, got: "
                    + v.asText().length() + " characters");
        }
        return v.asText();
    }

    private static int limit(JsonNode a, int dflt) {
        JsonNode v = a.get("limit");
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 1 || v.asInt() > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be an integer between 1 and " + MAX_LIMIT + ", got: " + v);
        }
        return v.asInt();
    }

    private static ObjectNode schema() {
        ObjectNode s = F.objectNode();
        s.put("type", "object");
        s.putObject("properties");
        return s;
    }

    private static void prop(ObjectNode schema, String name, String type, String description) {
        ((ObjectNode) schema.get("properties"))
                .putObject(name)
                .put("type", type)
                .put("description", description);
    }

    private static void typeEnum(ObjectNode schema, String name, String description) {
        ObjectNode p = ((ObjectNode) schema.get("properties")).putObject(name);
        p.put("type", "string").put("description", description);
        ArrayNode e = p.putArray("enum");
        for (MemoryType t : MemoryType.values()) {
            e.add(t.id());
        }
    }

    private static ToolSpec storeSpec() {
        ObjectNode s = schema();
        prop(s, "content", "string", "The thing to remember, as a short self-contained statement.");
        ((ObjectNode) s.get("properties").get("content")).put("maxLength", Memories.MAX_CONTENT_CHARS);
        typeEnum(s, "memory_type", "Kind of memory (default fact).");
        ObjectNode scope = ((ObjectNode) s.get("properties")).putObject("scope");
        scope.put("type", "string")
                .put(
                        "description",
                        "Who may read it: user (only you, the default), group (your "
                                + "group) or space (the members of your current space).");
        scope.putArray("enum").add("user").add("group").add("space");
        prop(s, "memory_id", "string", "To correct an existing memory instead: its id (from memory__search).");
        s.putArray("required").add("content");
        return ToolSpec.builder(
                        STORE,
                        "Saves a fact, preference, event or note to long-term memory so it can be "
                                + "recalled in later conversations; with memory_id, corrects that memory instead.")
                .category(SOURCE)
                .tags(List.of("remember", "save", "note"))
                .parameters(s)
                .aiAccess(AiAccess.EXECUTE)
                .sideEffect(SideEffect.WRITE)
                .build();
    }

    private static ToolSpec searchSpec() {
        ObjectNode s = schema();
        prop(s, "query", "string", "What to look for, in natural language.");
        typeEnum(s, "memory_type", "Only return memories of this kind.");
        ObjectNode limit = ((ObjectNode) s.get("properties")).putObject("limit");
        limit.put("type", "integer")
                .put("description", "Maximum number of results (default 5).")
                .put("minimum", 1)
                .put("maximum", MAX_LIMIT);
        s.putArray("required").add("query");
        return ToolSpec.builder(
                        SEARCH,
                        "Searches long-term memory for facts, preferences, events and notes related to "
                                + "a query, with each one's cosine similarity. Check it before asking the user something they may have "
                                + "told you.")
                .category(SOURCE)
                .tags(List.of("remember", "lookup", "recall", "facts"))
                .parameters(s)
                .aiAccess(AiAccess.EXECUTE)
                .sideEffect(SideEffect.READ)
                .build();
    }

    private static ToolSpec recallSpec() {
        ObjectNode s = schema();
        prop(s, "memory_id", "string", "Id of one memory, as memory__search or memory__store returned it.");
        prop(s, "query", "string", "Or a question: the memories that best answer it.");
        ArrayNode oneOf = s.putArray("anyOf");
        oneOf.addObject().putArray("required").add("memory_id");
        oneOf.addObject().putArray("required").add("query");
        return ToolSpec.builder(
                        RECALL,
                        "Retrieves one memory by its id, or the few memories that best answer a "
                                + "question; give memory_id or query.")
                .category(SOURCE)
                .tags(List.of("remember", "recall"))
                .parameters(s)
                .aiAccess(AiAccess.EXECUTE)
                .sideEffect(SideEffect.READ)
                .build();
    }

    private static ToolSpec forgetSpec() {
        ObjectNode s = schema();
        prop(s, "memory_id", "string", "Id of the memory to forget.");
        s.putArray("required").add("memory_id");
        return ToolSpec.builder(FORGET, "Forgets one memory for good: its text and its vectors are deleted.")
                .category(SOURCE)
                .tags(List.of("forget", "delete", "privacy"))
                .parameters(s)
                .aiAccess(AiAccess.EXECUTE)
                .sideEffect(SideEffect.DELETE)
                .build();
    }
}
