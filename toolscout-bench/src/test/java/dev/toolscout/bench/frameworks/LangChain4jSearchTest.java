package dev.toolscout.bench.frameworks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.model.ToolName;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** LangChain4j's own strategy, driven through its search API, with the real (plain) embedding model. */
class LangChain4jSearchTest {
    private static final EmbeddingModel MODEL = LocalEmbeddingModels.createPlain(LocalEmbeddingModels.DEFAULT_ID);

    private static final List<ToolSpec> TOOLS = List.of(
            tool("send_email", "Send an email message to a recipient."),
            tool("forecast", "Weather forecast for a city."),
            tool("read_file", "Read a file from disk."));

    private static ToolSpec tool(String action, String description) {
        return ToolSpec.builder(new ToolName("dataset", action), description).build();
    }

    @Test
    void the_strategy_ranks_the_tools_by_meaning_and_returns_their_actions_up_to_its_maximum() {
        LangChain4jSearch s = new LangChain4jSearch(MODEL, Map.of(), TOOLS, 2);
        List<String> found = s.search("Will it rain in Oslo tomorrow?");
        assertThat(found).hasSize(2);
        assertThat(found.get(0)).isEqualTo("forecast");
        assertThat(s.search("Email my manager about the launch")).startsWith("send_email");
    }

    @Test
    void a_tool_text_whose_vector_is_handed_in_is_ranked_by_that_vector_not_embedded_again() {
        String query = "Will it rain in Oslo tomorrow?";
        // read_file's text given the query's own vector: only a vector taken from the map ranks it first
        LangChain4jSearch s = new LangChain4jSearch(
                MODEL, Map.of("read_file: Read a file from disk.", MODEL.embedQuery(query)), TOOLS, 3);
        List<String> found = s.search(query);
        assertThat(found).hasSize(3).startsWith("read_file");
        // without the handed-in vector the same query finds the forecast first
        assertThat(new LangChain4jSearch(MODEL, Map.of(), TOOLS, 3).search(query))
                .startsWith("forecast");
    }
}
