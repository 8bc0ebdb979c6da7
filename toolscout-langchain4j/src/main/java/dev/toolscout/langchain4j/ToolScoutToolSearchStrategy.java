package dev.toolscout.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.service.tool.search.ToolSearchRequest;
import dev.langchain4j.service.tool.search.ToolSearchResult;
import dev.langchain4j.service.tool.search.ToolSearchStrategy;
import dev.toolscout.engine.FindResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.Principal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A LangChain4j {@link ToolSearchStrategy} backed by {@link ToolScout#find}: the model is first sent one search tool
 * (and the tools marked always visible); what it searches for is ranked by ToolScout's hybrid search over the tools
 * the invocation's principal may see (access first: a denied tool is never found), and the tools found join the next
 * model call.
 *
 * <p>LangChain4j reveals only tools the AI Service has (it fails on another name), so a found tool is returned only
 * when the AI Service has it: pair this with {@link ToolScoutToolProvider} built {@link
 * ToolScoutToolProvider.Builder#searchable searchable}, which gives every tool the principal may see and ToolScout
 * runs. An application's own {@code @Tool} methods are not in ToolScout's catalog, so never found by this search: mark
 * them always visible, or add them to the catalog.
 *
 * <p>Thread-safe.
 */
public final class ToolScoutToolSearchStrategy implements ToolSearchStrategy {
    /** The search tool's name. */
    public static final String TOOL_NAME = "tool_search";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ToolScout scout;
    private final Function<InvocationContext, Principal> principals;
    private final int limit;
    private final ToolSpecification tool;

    private ToolScoutToolSearchStrategy(Builder b) {
        this.scout = b.scout;
        this.principals = b.principals;
        this.limit = b.limit;
        this.tool = ToolSpecification.builder()
                .name(TOOL_NAME)
                .description("Finds tools by what they do, among all the tools you may use. Call it when none of your "
                        + "tools fits the task; the tools it finds can be called from your next step on.")
                .parameters(JsonObjectSchema.builder()
                        .addStringProperty("query", "what the tool should do, in a few words")
                        .required("query")
                        .build())
                .build();
    }

    /** A builder over {@code scout}. */
    public static Builder builder(ToolScout scout) {
        return new Builder(scout);
    }

    @Override
    public List<ToolSpecification> getToolSearchTools(InvocationContext invocationContext) {
        return List.of(tool);
    }

    @Override
    public ToolSearchResult search(ToolSearchRequest request) {
        String query = query(request.toolExecutionRequest().arguments());
        if (query == null) {
            return new ToolSearchResult(
                    List.of(),
                    TOOL_NAME + " needs a query: {\"query\": \"what the tool should do\"}, got: "
                            + cut(request.toolExecutionRequest().arguments()));
        }
        Principal p = principals.apply(request.invocationContext());
        FindResult found;
        try {
            found = scout.find(p == null ? Principal.ANONYMOUS : p, query, limit);
        } catch (IllegalArgumentException e) {
            // a query over find's bound: the message names it, for the model to shorten
            return new ToolSearchResult(List.of(), e.getMessage());
        }
        Set<String> searchable = new HashSet<>();
        request.searchableTools().forEach(t -> searchable.add(t.name()));
        List<String> names = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (FindResult.ToolMatch m : found.tools()) {
            if (searchable.contains(m.name())) {
                names.add(m.name());
                text.append("\n- ").append(m.name()).append(": ").append(m.description());
            }
        }
        String answer = names.isEmpty()
                ? "No tool found for: " + query + ". Try other words."
                : "Found " + names.size() + " tool" + (names.size() == 1 ? "" : "s") + " for: " + query
                        + "; you can call them now." + text;
        return new ToolSearchResult(names, answer);
    }

    private static String query(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return null;
        }
        try {
            JsonNode a = JSON.readTree(arguments);
            JsonNode q = a == null ? null : a.get("query");
            return q != null && q.isTextual() && !q.textValue().isBlank() ? q.textValue() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String cut(String s) {
        return s == null ? "nothing" : s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /** Builds a {@link ToolScoutToolSearchStrategy}. Not thread-safe. */
    public static final class Builder {
        private final ToolScout scout;
        private Function<InvocationContext, Principal> principals = Invocations.memoryIdAsUser();
        private int limit = 5;

        private Builder(ToolScout scout) {
            this.scout = Objects.requireNonNull(scout, "scout");
        }

        /** Who a search runs for; default {@link Invocations#memoryIdAsUser}: the chat memory id as the user id. */
        public Builder principal(Function<InvocationContext, Principal> resolver) {
            this.principals = Objects.requireNonNull(resolver, "resolver");
            return this;
        }

        /** The most tools one search finds, 1-50 (default 5). */
        public Builder limit(int limit) {
            if (limit < 1 || limit > 50) {
                throw new IllegalArgumentException("limit must be between 1 and 50, got: " + limit);
            }
            this.limit = limit;
            return this;
        }

        public ToolScoutToolSearchStrategy build() {
            return new ToolScoutToolSearchStrategy(this);
        }
    }
}
