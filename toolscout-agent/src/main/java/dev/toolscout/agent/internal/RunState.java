package dev.toolscout.agent.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.toolscout.model.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything a run needs to go on after a pause (also in another process after a restart), and what its usage
 * record is made from. Stored as JSON in the run's row ({@code agent_runs.state_json}); the messages in
 * LangChain4j's own message JSON. Not thread-safe: one run is driven by one thread at a time.
 */
public final class RunState {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    public static final int VERSION = 1;

    public String id;
    public String conversationId;
    public Principal principal;
    public String requester;
    public String message;
    public String provider;
    public Instant createdAt;
    public List<ChatMessage> messages = new ArrayList<>();
    /** Index in {@link #messages} of this request's user message (history comes before it). */
    public int firstMessage;

    public int turns;
    public int toolCalls;
    public long inputTokens;
    public long outputTokens;
    public long savedTokens;
    public long activeNanos;
    public long providerNanos;
    public long toolNanos;
    public List<String> preselected = new ArrayList<>();
    public Set<String> discovered = new LinkedHashSet<>();
    public ArrayNode selection = F.arrayNode();
    public boolean discoverySuggested;
    public ArrayNode calls = F.arrayNode();
    public ArrayNode approvals = F.arrayNode();
    public int pendingIndex = -1;
    public String pendingApproval;
    public String pendingTool;
    public String text = "";
    public String error;
    /** The route the router decided for the message ({@code dev.toolscout.routing.Route}'s name), or null. */
    public String route;
    /** What the route points at (a memory's id, a tool), or null. */
    public String routeTarget;
    /** Whether the loop acted on the route (answered from memory, ran the tool) instead of calling the model. */
    public boolean routeActed;

    public String toJson() {
        ObjectNode n = F.objectNode();
        n.put("v", VERSION);
        n.put("id", id);
        n.put("conversation", conversationId);
        n.set("principal", principal(principal));
        n.put("requester", requester);
        n.put("message", message);
        n.put("provider", provider);
        n.put("created_at", createdAt.toString());
        n.put("messages", ChatMessageSerializer.messagesToJson(messages));
        n.put("first_message", firstMessage);
        n.put("turns", turns);
        n.put("tool_calls", toolCalls);
        n.put("input_tokens", inputTokens);
        n.put("output_tokens", outputTokens);
        n.put("saved_tokens", savedTokens);
        n.put("active_nanos", activeNanos);
        n.put("provider_nanos", providerNanos);
        n.put("tool_nanos", toolNanos);
        ArrayNode pre = n.putArray("preselected");
        preselected.forEach(pre::add);
        ArrayNode disc = n.putArray("discovered");
        discovered.forEach(disc::add);
        n.set("selection", selection);
        n.put("discovery_suggested", discoverySuggested);
        n.set("calls", calls);
        n.set("approvals", approvals);
        n.put("pending_index", pendingIndex);
        n.put("pending_approval", pendingApproval);
        n.put("pending_tool", pendingTool);
        n.put("text", text);
        n.put("error", error);
        if (route != null) {
            n.putObject("route").put("route", route).put("target", routeTarget).put("acted", routeActed);
        }
        return n.toString();
    }

    public static RunState fromJson(String json) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored agent run's state is not JSON: " + e.getMessage(), e);
        }
        if (n.path("v").asInt() != VERSION) {
            throw new IllegalStateException("a stored agent run's state has version " + n.path("v")
                    + ", this ToolScout " + "reads version " + VERSION);
        }
        RunState s = new RunState();
        s.id = n.path("id").asText();
        s.conversationId = n.path("conversation").asText();
        JsonNode p = n.path("principal");
        s.principal = new Principal(
                p.path("user").asText(null),
                p.path("group").asText(null),
                p.path("space").asText(null));
        s.requester = n.path("requester").asText();
        s.message = n.path("message").asText();
        s.provider = n.path("provider").asText();
        s.createdAt = Instant.parse(n.path("created_at").asText());
        s.messages = new ArrayList<>(
                ChatMessageDeserializer.messagesFromJson(n.path("messages").asText()));
        s.firstMessage = n.path("first_message").asInt();
        s.turns = n.path("turns").asInt();
        s.toolCalls = n.path("tool_calls").asInt();
        s.inputTokens = n.path("input_tokens").asLong();
        s.outputTokens = n.path("output_tokens").asLong();
        s.savedTokens = n.path("saved_tokens").asLong();
        s.activeNanos = n.path("active_nanos").asLong();
        s.providerNanos = n.path("provider_nanos").asLong();
        s.toolNanos = n.path("tool_nanos").asLong();
        n.path("preselected").forEach(x -> s.preselected.add(x.asText()));
        n.path("discovered").forEach(x -> s.discovered.add(x.asText()));
        s.selection = n.path("selection").isArray() ? (ArrayNode) n.get("selection") : F.arrayNode();
        s.discoverySuggested = n.path("discovery_suggested").asBoolean();
        s.calls = n.path("calls").isArray() ? (ArrayNode) n.get("calls") : F.arrayNode();
        s.approvals = n.path("approvals").isArray() ? (ArrayNode) n.get("approvals") : F.arrayNode();
        s.pendingIndex = n.path("pending_index").asInt(-1);
        if (n.path("route").isObject()) {
            s.route = n.path("route").path("route").asText(null);
            s.routeTarget = n.path("route").path("target").asText(null);
            s.routeActed = n.path("route").path("acted").asBoolean();
        }
        s.pendingApproval = n.path("pending_approval").asText(null);
        s.pendingTool = n.path("pending_tool").asText(null);
        s.text = n.path("text").asText("");
        s.error = n.path("error").asText(null);
        return s;
    }

    public static ObjectNode principal(Principal p) {
        ObjectNode o = F.objectNode();
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

    /** The key a principal's runs are stored under: every part, as conversations are keyed. */
    public static String principalKey(Principal p) {
        ArrayNode a = F.arrayNode();
        a.add(p.user());
        a.add(p.group());
        a.add(p.space());
        return a.toString();
    }
}
