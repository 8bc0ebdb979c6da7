package dev.toolscout.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory tools through the agent loop (docs/MEMORY.md), on the real engine against {@link FakeProvider}: the
 * model stores a fact in one conversation, recalls it in a later one after a restart, and forgets it; another user
 * gets what a missing memory gets.
 */
class AgentMemoryTest {
    static final Principal ANN = new Principal("ann", "eng", "team-a");
    static final Principal BOB = new Principal("bob", "eng", "team-b");
    static final String FACT = "Ann's dog is called Rex and he is a beagle.";

    @TempDir
    Path tmp;

    FakeProvider fake;

    @BeforeEach
    void start() {
        fake = new FakeProvider();
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    ToolScout open() {
        return ToolScout.builder()
                .dataDir(tmp.resolve("data"))
                .tools(List.of(ToolSpec.builder("weather__get_forecast", "Get the weather forecast for a city")
                        .build()))
                .build();
    }

    Agent agent(ToolScout scout) {
        ProviderConfig c = new ProviderConfig(
                ProviderConfig.Kind.ANTHROPIC,
                "claude-sonnet-4-5",
                fake.baseUrl(),
                "sk-test-secret-key",
                null,
                2,
                1024,
                false);
        return Agent.builder(scout, Providers.of(c)).build();
    }

    /** The tool results of the last request the provider got. */
    List<String> lastResults() {
        List<JsonNode> r = fake.requests();
        List<String> out = new ArrayList<>();
        for (JsonNode m : r.get(r.size() - 1).path("messages")) {
            for (JsonNode c : m.path("content")) {
                if (c.path("type").asText().equals("tool_result")) {
                    out.add(
                            c.path("content").isTextual()
                                    ? c.path("content").asText()
                                    : c.path("content").toString());
                }
            }
        }
        return out;
    }

    /** The names of the tools a provider request offered. */
    static List<String> toolNames(JsonNode request) {
        List<String> out = new ArrayList<>();
        request.path("tools").forEach(t -> out.add(t.path("name").asText()));
        return out;
    }

    @Test
    void a_message_about_the_weather_gets_no_memory_tools_in_a_catalog_that_sends_whole() throws Exception {
        try (ToolScout scout = open()) {
            fake.text("anthropic", "Sunny.");
            agent(scout).run("conv-w", ANN, "What is the weather forecast for Paris tomorrow?");
            assertThat(toolNames(fake.requests().get(0))).containsExactly("weather__get_forecast");
        }
    }

    @Test
    void the_model_stores_a_fact_recalls_it_in_a_later_conversation_and_forgets_it() throws Exception {
        String id;
        try (ToolScout scout = open()) {
            fake.toolCall("anthropic", "memory__store", "{\"content\":\"" + FACT + "\",\"memory_type\":\"fact\"}")
                    .text("anthropic", "Noted.");
            AgentResult r = agent(scout).run("conv-1", ANN, "Remember that my dog is called Rex, a beagle.");

            assertThat(r.status()).isEqualTo(AgentResult.Status.DONE);
            // the memory tools rank above the catalog's weather tool for this message, so the model is offered them
            assertThat(toolNames(fake.requests().get(0)))
                    .contains("memory__store")
                    .contains("weather__get_forecast");
            assertThat(lastResults())
                    .singleElement()
                    .asString()
                    .contains("\"stored\"")
                    .contains("conv-1");
            id = scout.memory().recent(ANN, null, 1).get(0).id();
        }
        try (ToolScout scout = open()) {
            // near, but under the direct-memory threshold: the router does not answer from memory, the model gets the
            // fact as evidence (docs/AGENT.md, Routes)
            fake.text("anthropic", "Your dog is Rex.");
            int asked = fake.requests().size();
            AgentResult r = agent(scout).run("conv-2", ANN, "What is Ann's dog called?");
            assertThat(r.text()).isEqualTo("Your dog is Rex.");
            assertThat(fake.requests().get(asked).path("system").toString()).contains(FACT);
            int before = fake.requests().size();
            // the model recalls it through the tool too
            fake.toolCall("anthropic", "memory__recall", "{\"query\":\"what is my dog's name?\"}")
                    .text("anthropic", "Your dog is Rex.");
            agent(scout).run("conv-2", ANN, "Look that up in your notes, please.");
            assertThat(toolNames(fake.requests().get(before))).contains("memory__recall");
            assertThat(lastResults()).singleElement().asString().contains(FACT).contains(id);

            fake.toolCall("anthropic", "memory__recall", "{\"memory_id\":\"" + id + "\"}")
                    .text("anthropic", "No idea.");
            agent(scout).run("conv-b", BOB, "What is Ann's dog called?");
            assertThat(lastResults())
                    .singleElement()
                    .asString()
                    .contains("Memory not found: " + id)
                    .doesNotContain("Rex");

            fake.toolCall("anthropic", "memory__forget", "{\"memory_id\":\"" + id + "\"}")
                    .text("anthropic", "Forgotten.");
            agent(scout).run("conv-3", ANN, "Please delete memory " + id + ".");
            assertThat(lastResults()).singleElement().asString().contains("\"forgotten\"");
            assertThat(scout.memory().get(ANN, id)).isEmpty();
            assertThat(scout.memory().search(ANN, "dog called Rex", null, 5)).isEmpty();
        }
    }
}
