package dev.toolscout.bench.frameworks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.search.ToolSearchRequest;
import dev.langchain4j.service.tool.search.vector.VectorToolSearchStrategy;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.model.ToolSpec;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * LangChain4j's {@link VectorToolSearchStrategy} in its default configuration but for the number of results (its
 * default is 5; {@code maxResults} here, so that it is measured at the same depth as the others), driven through its
 * own API: each search is the {@link ToolSearchRequest} its AI services build when the model calls its search tool,
 * with the tools as {@link ToolSpecification}s named by their action (the name an application registers; unique
 * within a dataset) and described by their description. It ranks on name and description only, so the parameters
 * are left out of the specifications. Not thread-safe.
 */
final class LangChain4jSearch {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final VectorToolSearchStrategy strategy;
    private final List<ToolSpecification> tools;
    private final InvocationContext context = InvocationContext.builder().build();
    private final String searchTool;
    private int calls;

    /**
     * @param model the embedding model, plain (the product's query adapter is not LangChain4j's)
     * @param known vectors of tool texts already embedded by {@code model}, by text
     */
    LangChain4jSearch(EmbeddingModel model, Map<String, float[]> known, List<ToolSpec> specs, int maxResults) {
        strategy = VectorToolSearchStrategy.builder()
                .embeddingModel(new LangChain4jEmbeddings(model, known))
                .maxResults(maxResults)
                .build();
        tools = specs.stream()
                .map(s -> ToolSpecification.builder()
                        .name(s.name().action())
                        .description(s.description())
                        .build())
                .toList();
        searchTool = strategy.getToolSearchTools(context).get(0).name();
    }

    /** The names (actions) of the tools the strategy finds for {@code query}, best first. */
    List<String> search(String query) {
        String arguments;
        try {
            arguments = JSON.writeValueAsString(Map.of("query", query));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        ToolExecutionRequest call = ToolExecutionRequest.builder()
                .id("call_" + ++calls)
                .name(searchTool)
                .arguments(arguments)
                .build();
        return strategy.search(ToolSearchRequest.builder()
                        .toolExecutionRequest(call)
                        .searchableTools(tools)
                        .invocationContext(context)
                        .build())
                .foundToolNames();
    }
}
