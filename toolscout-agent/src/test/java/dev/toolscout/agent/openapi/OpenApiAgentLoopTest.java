package dev.toolscout.agent.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.agent.Agent;
import dev.toolscout.agent.AgentLimits;
import dev.toolscout.agent.AgentResult;
import dev.toolscout.agent.FakeProvider;
import dev.toolscout.agent.ProviderConfig;
import dev.toolscout.agent.Providers;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI import called through the agent loop: a petstore service started by the test ({@link
 * PetstoreServer}), its document imported into a real ToolScout (the demo catalog beside it, the real embedding
 * model), and {@link FakeProvider} replaying recorded Anthropic wire fixtures as the model.
 */
class OpenApiAgentLoopTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Principal ALICE = new Principal("alice", null, null);

    @TempDir
    static Path tmp;

    static PetstoreServer petstore;
    static FakeProvider fake;
    static ToolScout scout;
    static Agent agent;

    @BeforeAll
    static void start() throws Exception {
        petstore = new PetstoreServer();
        fake = new FakeProvider();
        scout = ToolScout.builder().dataDir(tmp.resolve("data")).build(); // the demo catalog's 71 tools
        OpenApiAuth bearer = new OpenApiAuth(OpenApiAuth.Type.BEARER, null, null, "PETSTORE_TOKEN", null);
        OpenApiImport.apply(
                scout, OpenApiImporter.read(OpenApiImporterTest.petstore(), "petstore", petstore.baseUrl(), bearer));
        ProviderConfig c = new ProviderConfig(
                ProviderConfig.Kind.ANTHROPIC,
                "claude-sonnet-4-5",
                fake.baseUrl(),
                "sk-test-secret-key",
                null,
                2,
                1024,
                true);
        OpenApiExecutor http = OpenApiExecutor.fromStore(
                scout.maintenance().store(),
                sealedValue -> {
                    throw new IllegalStateException("nothing is sealed here");
                },
                Map.of("PETSTORE_TOKEN", PetstoreServer.TOKEN),
                OpenApiExecutor.Settings.DEFAULTS);
        agent = Agent.builder(scout, Providers.of(c))
                .executor(SourceKind.OPENAPI, http)
                .limits(AgentLimits.DEFAULTS)
                .build();
    }

    @AfterAll
    static void stop() {
        scout.close();
        fake.close();
        petstore.close();
    }

    private static List<String> toolResults(JsonNode request) {
        List<String> out = new ArrayList<>();
        for (JsonNode m : request.path("messages")) {
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

    private static JsonNode last() {
        return fake.requests().getLast();
    }

    @Test
    void the_model_creates_a_pet_then_reads_it_back_through_the_imported_tools() throws Exception {
        fake.toolCall("anthropic", "petstore__createPet", "{\"body\": {\"name\": \"Nemo\", \"tag\": \"fish\"}}")
                .toolCall("anthropic", "petstore__showPetById", "{\"petId\": \"4\"}")
                .text("anthropic", "Nemo the fish is pet 4.");
        int before = fake.requests().size();
        int sent = petstore.seen.size();

        AgentResult r = agent.run(
                "c-pets", ALICE, null, "Add a pet named Nemo, a fish, to the pet store, then show it", e -> {});

        assertThat(r.status()).as(String.valueOf(r.error())).isEqualTo(AgentResult.Status.DONE);
        assertThat(r.text()).isEqualTo("Nemo the fish is pet 4.");
        // the imported tools were selected for the message, among the demo catalog's
        assertThat(fake.requests().get(before).path("tools").findValuesAsText("name"))
                .contains("petstore__createPet", "petstore__showPetById");
        List<PetstoreServer.Seen> calls = petstore.seen.subList(sent, petstore.seen.size());
        assertThat(calls)
                .extracting(s -> s.method() + " " + s.rawPath())
                .containsExactly("POST /v1/pets", "GET /v1/pets/4");
        assertThat(calls.get(0).header("Authorization")).isEqualTo("Bearer " + PetstoreServer.TOKEN);
        assertThat(JSON.readTree(calls.get(0).body()).path("name").asText()).isEqualTo("Nemo");
        List<String> results = toolResults(last());
        assertThat(results).hasSize(2);
        assertThat(JSON.readTree(results.get(1)))
                .isEqualTo(JSON.readTree("{\"id\":4,\"name\":\"Nemo\",\"tag\":\"fish\"}"));
        assertThat(r.usage().json().path("calls").findValuesAsText("tool"))
                .containsExactly("petstore__createPet", "petstore__showPetById");
        assertThat(r.usage().json().toString()).doesNotContain(PetstoreServer.TOKEN);
    }

    @Test
    void an_http_error_goes_back_to_the_model_as_a_tool_error_it_can_read() throws Exception {
        fake.toolCall("anthropic", "petstore__showPetById", "{\"petId\": \"99\"}")
                .text("anthropic", "There is no pet 99.");

        AgentResult r = agent.run("c-missing-pet", ALICE, null, "Show the pet with id 99 from the pet store", e -> {});

        assertThat(r.status()).isEqualTo(AgentResult.Status.DONE);
        assertThat(toolResults(last()))
                .singleElement()
                .asString()
                .contains("HTTP 404 from GET /pets/99: {\"message\":\"no pet with id 99\"}");
    }

    @Test
    void deleting_a_pet_is_held_for_approval_and_nothing_reaches_the_service() throws Exception {
        fake.toolCall("anthropic", "petstore__delete_pets_petId", "{\"petId\": \"1\"}");
        int sent = petstore.seen.size();

        AgentResult r;
        try (LogCapture log = LogCapture.of(Agent.class)) {
            r = agent.run("c-delete", ALICE, "key:alice", "Delete pet 1 from the pet store", e -> {});
            // the operator is told what waits for them, and how to decide it
            assertThat(log.warnings())
                    .containsExactly("approval request " + r.approvalId()
                            + ": key:alice asks to run petstore__delete_pets_petId (agent run " + r.runId()
                            + "); decide with `toolscout approvals approve " + r.approvalId() + "` or `deny "
                            + r.approvalId() + "`");
        }

        assertThat(r.status()).isEqualTo(AgentResult.Status.AWAITING_APPROVAL);
        assertThat(r.tool()).isEqualTo("petstore__delete_pets_petId");
        assertThat(petstore.seen).hasSize(sent);
    }
}
