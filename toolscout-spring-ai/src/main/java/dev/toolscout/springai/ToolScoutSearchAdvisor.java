package dev.toolscout.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * Tool search for a Spring AI {@code ChatClient}, backed by ToolScout: the model first gets a search tool ({@value
 * #SEARCH_TOOL}) and, optionally, ToolScout's selection for the user's message; each search runs {@link
 * ToolScoutToolIndex#search} (ToolScout's hybrid ranking inside what the principal may see) and the tools it found
 * are added to the next request of the same call, each running through ToolScout's call gate.
 *
 * <p>A {@link ToolCallingAdvisor} (Spring AI 2.0's recursive tool-calling advisor, which the {@code ChatClient} uses
 * instead of its own when this one is registered): it runs the tool-calling loop, and before each model request sets
 * the request's tools to the application's own tools, the search tool and the ToolScout tools found or selected so
 * far in this call. ToolScout tools the application put on the request itself (from {@link
 * ToolScoutToolCallbackProvider}) are taken off: the search decides which of them the model sees.
 *
 * <p>The principal comes from the {@link PrincipalResolver}, given the request's advisor parameters and tool context
 * (merged), once per call. A tool it may not see is never found, and a call of a tool not found (denied or missing
 * alike) is answered by Spring AI's "No ToolCallback found". Thread-safe; one instance serves every call.
 */
public final class ToolScoutSearchAdvisor extends ToolCallingAdvisor {
    /** The search tool's name: ToolScout's own discovery tool, as its MCP gateway and agent loop name it. */
    public static final String SEARCH_TOOL = "tool_discovery__find";

    /** The most tools one call keeps found; past it the oldest found go (the search tool and selection stay). */
    public static final int MAX_FOUND = 50;

    private static final String LOOP = ToolScoutSearchAdvisor.class.getName() + ".loop";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ToolScoutToolCallbackProvider provider;
    private final int searchLimit;
    private final int preselect;

    private ToolScoutSearchAdvisor(Builder b) {
        super(b.manager(), b.getToolExecutionEligibilityChecker(), b.getAdvisorOrder(), b.history());
        this.provider = Objects.requireNonNull(b.provider, "provider");
        this.searchLimit = b.searchLimit;
        this.preselect = b.preselect;
    }

    /** A builder over the tools {@code provider} offers (its index, callbacks and principal resolver). */
    public static Builder builder(ToolScoutToolCallbackProvider provider) {
        return new Builder().provider(provider);
    }

    @Override
    public String getName() {
        return "ToolScout Tool Search Advisor";
    }

    public int searchLimit() {
        return searchLimit;
    }

    public int preselect() {
        return preselect;
    }

    @Override
    protected ChatClientRequest doInitializeLoop(ChatClientRequest request, CallAdvisorChain chain) {
        return initialize(request);
    }

    @Override
    protected ChatClientRequest doInitializeLoopStream(ChatClientRequest request, StreamAdvisorChain chain) {
        return initialize(request);
    }

    @Override
    protected ChatClientRequest doBeforeCall(ChatClientRequest request, CallAdvisorChain chain) {
        return withTools(request);
    }

    @Override
    protected ChatClientRequest doBeforeStream(ChatClientRequest request, StreamAdvisorChain chain) {
        return withTools(request);
    }

    private ChatClientRequest initialize(ChatClientRequest request) {
        Map<String, Object> context = new HashMap<>();
        if (request.prompt().getOptions() instanceof ToolCallingChatOptions o && o.getToolContext() != null) {
            context.putAll(o.getToolContext());
        }
        request.context().forEach((k, v) -> {
            if (v != null) {
                context.put(k, v);
            }
        });
        Principal principal = provider.principalResolver().resolve(context);
        Loop loop = new Loop(principal, PrincipalResolver.conversation(context));
        if (preselect > 0) {
            String message = userText(request);
            if (message != null && !message.isBlank()) {
                for (ToolSpec spec : provider.index().select(principal, message, preselect, loop.conversationId)) {
                    loop.add(spec, true);
                }
            }
        }
        return request.mutate().context(LOOP, loop).build();
    }

    private static @Nullable String userText(ChatClientRequest request) {
        UserMessage last = null;
        for (var m : request.prompt().getInstructions()) {
            if (m instanceof UserMessage u) {
                last = u;
            }
        }
        return last == null ? null : last.getText();
    }

    private ChatClientRequest withTools(ChatClientRequest request) {
        if (!(request.context().get(LOOP) instanceof Loop loop)
                || !(request.prompt().getOptions() instanceof ToolCallingChatOptions options)) {
            return request;
        }
        List<ToolCallback> tools = new ArrayList<>();
        if (options.getToolCallbacks() != null) {
            for (ToolCallback c : options.getToolCallbacks()) {
                String name = c.getToolDefinition().name();
                if (!ToolScoutToolCallbacks.isToolScout(c) && !name.equals(SEARCH_TOOL) && !loop.has(name)) {
                    tools.add(c);
                }
            }
        }
        tools.add(loop.search);
        tools.addAll(loop.tools());
        ToolCallingChatOptions next = options.mutate().toolCallbacks(tools).build();
        return request.mutate()
                .prompt(request.prompt().mutate().chatOptions(next).build())
                .build();
    }

    /** What one {@code ChatClient} call has found so far, and the search tool that finds for it. */
    private final class Loop {
        final Principal principal;
        final String conversationId;
        final ToolCallback search;
        private final LinkedHashMap<String, ToolCallback> found = new LinkedHashMap<>();
        private final LinkedHashMap<String, ToolCallback> selected = new LinkedHashMap<>();

        Loop(Principal principal, String conversationId) {
            this.principal = principal;
            this.conversationId = conversationId;
            this.search = new SearchTool(this);
        }

        synchronized void add(ToolSpec spec, boolean preselected) {
            String name = spec.fullName();
            if (name.equals(SEARCH_TOOL) || selected.containsKey(name) || found.containsKey(name)) {
                return;
            }
            ToolCallback c = provider.callbacks().callback(spec, principal, conversationId);
            if (preselected) {
                selected.put(name, c);
                return;
            }
            found.put(name, c);
            if (found.size() > MAX_FOUND) {
                Iterator<String> oldest = found.keySet().iterator();
                oldest.next();
                oldest.remove();
            }
        }

        synchronized boolean has(String name) {
            return selected.containsKey(name) || found.containsKey(name);
        }

        synchronized List<ToolCallback> tools() {
            List<ToolCallback> all = new ArrayList<>(selected.values());
            all.addAll(found.values());
            return all;
        }
    }

    private final class SearchTool implements ToolCallback {
        private final Loop loop;
        private final ToolDefinition definition;

        SearchTool(Loop loop) {
            this.loop = loop;
            ObjectNode schema = F.objectNode().put("type", "object");
            ObjectNode props = schema.putObject("properties");
            props.putObject("query")
                    .put("type", "string")
                    .put("description", "What you need a tool for, in a few words (e.g. 'send an email')");
            schema.putArray("required").add("query");
            this.definition = ToolDefinition.builder()
                    .name(SEARCH_TOOL)
                    .description("Searches every tool you may use for the ones that do what you need; the tools it "
                            + "finds can be called right after. Use it when none of your tools fits the task.")
                    .inputSchema(schema.toString())
                    .build();
        }

        @Override
        public ToolDefinition getToolDefinition() {
            return definition;
        }

        @Override
        public String call(String toolInput) {
            return call(toolInput, null);
        }

        @Override
        public String call(String toolInput, @Nullable ToolContext toolContext) {
            String query;
            try {
                JsonNode args = JSON.readTree(toolInput == null || toolInput.isBlank() ? "{}" : toolInput);
                query = args.path("query").asText("");
            } catch (IOException e) {
                return "Error: the arguments must be a JSON object with a string query, got: "
                        + ToolScoutSearchAdvisor.cut(toolInput);
            }
            if (query.isBlank()) {
                return "Error: query is required: say in a few words what you need a tool for";
            }
            List<ToolScoutToolIndex.Match> matches;
            try {
                matches = provider.index().search(loop.principal, query, searchLimit);
            } catch (IllegalArgumentException e) {
                return "Error: " + e.getMessage();
            }
            ObjectNode out = F.objectNode().put("query", query);
            ArrayNode tools = out.putArray("tools");
            for (ToolScoutToolIndex.Match m : matches) {
                if (m.tool().fullName().equals(SEARCH_TOOL)) {
                    continue;
                }
                loop.add(m.tool(), false);
                tools.addObject()
                        .put("name", m.tool().fullName())
                        .put("description", m.tool().description())
                        .put("score", m.score());
            }
            out.put(
                    "note",
                    tools.isEmpty()
                            ? "No tool matches; try other words."
                            : "These tools are now available: call them directly by name.");
            return out.toString();
        }
    }

    private static String cut(String s) {
        return s == null ? "null" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    /**
     * Builds a {@link ToolScoutSearchAdvisor}; the tool-calling settings ({@code toolCallingManager}, {@code
     * advisorOrder}, ...) are {@link ToolCallingAdvisor.Builder}'s.
     */
    public static final class Builder extends ToolCallingAdvisor.Builder<Builder> {
        private ToolScoutToolCallbackProvider provider;
        private int searchLimit = 5;
        private int preselect;

        Builder() {}

        public Builder provider(ToolScoutToolCallbackProvider value) {
            this.provider = Objects.requireNonNull(value, "provider");
            return this;
        }

        /** How many tools one search finds at most: 1-50, default 5. */
        public Builder searchLimit(int value) {
            if (value < 1 || value > 50) {
                throw new IllegalArgumentException("searchLimit must be 1-50, got: " + value);
            }
            this.searchLimit = value;
            return this;
        }

        /**
         * How many of ToolScout's selected tools for the user's message the first request carries besides the search
         * tool: 0 (the default: only the search tool) to 50.
         */
        public Builder preselect(int value) {
            if (value < 0 || value > 50) {
                throw new IllegalArgumentException("preselect must be 0-50, got: " + value);
            }
            this.preselect = value;
            return this;
        }

        ToolCallingManager manager() {
            return getToolCallingManager();
        }

        boolean history() {
            return isConversationHistoryEnabled();
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        public ToolScoutSearchAdvisor build() {
            if (provider == null) {
                throw new IllegalArgumentException("provider is required: the ToolScoutToolCallbackProvider whose "
                        + "tools the advisor searches");
            }
            return new ToolScoutSearchAdvisor(this);
        }
    }
}
