package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryType;
import dev.toolscout.model.Principal;
import dev.toolscout.routing.Route;
import dev.toolscout.routing.RouteDecision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The router and long-term memory through the Java API, on the demo catalog with the real embedding model (the
 * default, all-minilm-l6-v2-q, and its calibrated thresholds).
 */
class RoutingAndMemoryTest {
    static final Principal ANN = new Principal("ann", "eng", "team-a");
    static final Principal BOB = new Principal("bob", "eng", "team-b");
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    @TempDir
    Path dir;

    ToolScout open() {
        return ToolScout.builder().dataDir(dir).build();
    }

    @Test
    void gibberish_is_llm_required_with_discovery_suggested_and_select_sends_only_the_core_tools() {
        try (ToolScout scout = open()) {
            RouteDecision d = scout.route(ANN, "xqzv blorf");
            SelectResult s = scout.select(new SelectRequest("xqzv blorf", ANN, null, null, null));

            assertThat(d.route()).isEqualTo(Route.LLM_REQUIRED);
            assertThat(d.discoverySuggested()).isTrue();
            assertThat(d.sendWhole()).isFalse();
            assertThat(d.reason()).contains("tool_discovery__find");
            assertThat(s.route().route()).isEqualTo(Route.LLM_REQUIRED);
            assertThat(s.discoverySuggested()).isTrue();
            assertThat(s.selected()).allMatch(SelectResult.SelectedTool::core);
            assertThat(s.reason()).startsWith("Nothing in the catalog matches this request closely");
            assertThat(scout.render(s, RenderFormat.JSON)
                            .path("route")
                            .path("route")
                            .asText())
                    .isEqualTo("LLM_REQUIRED");
        }
    }

    @Test
    void a_request_whose_words_match_a_tool_keeps_its_ranked_tools_though_its_cosine_is_under_the_floor() {
        try (ToolScout scout = open()) {
            SelectResult s =
                    scout.select(new SelectRequest("Send an email to Bob about the budget", ANN, null, null, null));

            assertThat(s.route().route()).isEqualTo(Route.TOOL_FILTER);
            assertThat(s.route().wordsMatch()).isTrue();
            assertThat(s.selected()).extracting(SelectResult.SelectedTool::name).contains("gmail__send_email");
        }
    }

    @Test
    void a_stored_fact_asked_back_in_other_words_routes_to_direct_memory_with_its_cosine() {
        try (ToolScout scout = open()) {
            Memory rex = scout.memory()
                    .store(ANN, MemoryScope.USER, MemoryType.FACT, "I prefer aisle seats on flights.", null);

            RouteDecision d = scout.route(ANN, "Which seats do I prefer on flights?");

            assertThat(d.route()).isEqualTo(Route.DIRECT_MEMORY);
            assertThat(d.target()).isEqualTo(rex.id());
            RouteDecision.Evidence top = d.evidence().get(0);
            assertThat(top.kind()).isEqualTo(RouteDecision.Kind.MEMORY);
            assertThat(top.cosine()).isGreaterThanOrEqualTo(d.thresholds().directMemory());
            // another user never gets it, not even as evidence
            RouteDecision other = scout.route(BOB, "Which seats do I prefer on flights?");
            assertThat(other.route()).isNotEqualTo(Route.DIRECT_MEMORY);
            assertThat(other.evidence()).noneMatch(e -> e.kind() == RouteDecision.Kind.MEMORY);
        }
    }

    @Test
    void a_memory_about_a_neighbouring_subject_or_a_request_never_routes_to_direct_memory() {
        try (ToolScout scout = open()) {
            for (String f : List.of(
                    "My cat is called Tom.", "My wife's birthday is on May 3.", "I prefer aisle seats on flights.")) {
                scout.memory().store(ANN, MemoryScope.USER, MemoryType.FACT, f, null);
            }
            for (String m : List.of(
                    "What is my dog's name?",
                    "When is my birthday?",
                    "Forget that my cat is called Tom",
                    "Remember that my dog is called Rex",
                    "Which seats does my wife prefer?")) {
                RouteDecision d = scout.route(ANN, m);
                assertThat(d.route()).as(m).isNotEqualTo(Route.DIRECT_MEMORY);
            }
            RouteDecision seats = scout.route(ANN, "Which seats do I prefer on flights?");
            assertThat(seats.route()).isEqualTo(Route.DIRECT_MEMORY);
            assertThat(seats.evidence().get(0).text()).isEqualTo("I prefer aisle seats on flights.");
            assertThat(scout.route(ANN, "Forget that my cat is called Tom").reason())
                    .startsWith("a request to forget a memory: the model does it with memory__forget")
                    .contains("but the message is not a question");
        }
    }

    @Test
    void a_request_to_remember_forget_or_recall_is_offered_its_memory_tool_on_the_demo_catalog() {
        try (ToolScout scout = open()) {
            Map<String, String> wanted = Map.of(
                    "Remember that my cat is called Tom", "memory__store",
                    "Note that the standup moved to 10am", "memory__store",
                    "Forget that my cat is called Tom", "memory__forget",
                    "What did I tell you about my car?", "memory__search");
            wanted.forEach((message, tool) -> assertThat(scout.select(new SelectRequest(message, ANN, null, null, null))
                            .selected())
                    .as(message)
                    .extracting(SelectResult.SelectedTool::name)
                    .contains(tool));
        }
    }

    @Test
    void the_demo_catalog_defines_no_memory_tool_beside_the_engines_own() {
        try (ToolScout scout = open()) {
            assertThat(scout.select(new SelectRequest("list my recent memories", ANN, 50, null, null))
                            .selected())
                    .extracting(SelectResult.SelectedTool::name)
                    .filteredOn(n -> n.startsWith("memory__"))
                    .allMatch(n -> List.of("memory__store", "memory__search", "memory__recall", "memory__forget")
                            .contains(n));
        }
    }

    @Test
    void a_request_for_a_tool_without_parameters_routes_to_skill_execute() {
        try (ToolScout scout = open()) {
            RouteDecision d = scout.route(ANN, "List the webhook endpoints");

            assertThat(d.route()).isEqualTo(Route.SKILL_EXECUTE);
            assertThat(d.target()).isEqualTo("webhook__list_endpoints");
            assertThat(d.evidence().get(0).requiredParameters()).isFalse();
        }
    }

    @Test
    void the_router_never_names_a_tool_the_principal_may_not_see() {
        AccessPolicy denyTasks = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "webhook", AccessRule.Subject.USER, "ann")));
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(denyTasks).build()) {
            RouteDecision d = scout.route(ANN, "List the webhook endpoints");

            assertThat(d.route()).isNotEqualTo(Route.SKILL_EXECUTE);
            assertThat(d.evidence()).noneMatch(e -> e.name().startsWith("webhook__"));
        }
    }

    private static ObjectNode args(String field, String value) {
        return F.objectNode().put(field, value);
    }

    @Test
    void the_memory_tools_store_recall_in_a_later_conversation_and_forget_for_good() throws IOException {
        String marker = "The staging password hint is violet-armadillo-42.";
        String id;
        try (ToolScout scout = open()) {
            ToolCallResult stored = scout.callMetaTool(
                    ANN, "conv-1", "memory__store", args("content", marker).put("memory_type", "note"));
            assertThat(stored.isError()).isFalse();
            id = stored.output().path("stored").path("id").asText();
            assertThat(stored.output().path("stored").path("conversation_id").asText())
                    .isEqualTo("conv-1");
        }
        try (ToolScout scout = open()) {
            // a later conversation, after a restart: recalled by a question, and by id
            ToolCallResult recalled = scout.callMetaTool(
                    ANN, "conv-2", "memory__recall", args("query", "what is the hint for the staging password?"));
            assertThat(recalled.output().path("memories").get(0).path("id").asText())
                    .isEqualTo(id);
            assertThat(recalled.output().path("score").asText()).isEqualTo("cosine");
            assertThat(scout.callMetaTool(ANN, "conv-2", "memory__recall", args("memory_id", id))
                            .output()
                            .path("memory")
                            .path("content")
                            .asText())
                    .isEqualTo(marker);
            // another user, and a member of another space, get what a missing memory gets
            ToolCallResult bob = scout.callMetaTool(BOB, null, "memory__recall", args("memory_id", id));
            ToolCallResult none = scout.callMetaTool(BOB, null, "memory__recall", args("memory_id", "mem_0"));
            assertThat(bob.error()).isEqualTo("Memory not found: " + id);
            assertThat(none.error()).isEqualTo("Memory not found: mem_0");
            assertThat(scout.callMetaTool(BOB, null, "memory__forget", args("memory_id", id))
                            .error())
                    .isEqualTo(bob.error());

            ToolCallResult forgotten = scout.callMetaTool(ANN, "conv-2", "memory__forget", args("memory_id", id));
            assertThat(forgotten.output().path("forgotten").asText()).isEqualTo(id);
            JsonNode search = scout.callMetaTool(ANN, null, "memory__search", args("query", "staging password hint"))
                    .output();
            assertThat(search.path("memories")).isEmpty();
            assertThat(scout.memory().get(ANN, id)).isEmpty();
        }
        // gone from the store's files too, not only from its rows
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("state.db"))
                    .toList()) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                        .as(f.toString())
                        .doesNotContain("violet-armadillo");
            }
        }
        try (ToolScout scout = open()) {
            assertThat(scout.memory().get(ANN, id)).isEmpty();
        }
    }

    @Test
    void a_space_memory_reaches_the_spaces_members_and_no_one_else() {
        Principal carol = new Principal("carol", "sales", "team-a");
        try (ToolScout scout = open()) {
            ToolCallResult stored = scout.callMetaTool(
                    ANN,
                    null,
                    "memory__store",
                    args("content", "The team-a offsite is in Annecy on 3 March.")
                            .put("scope", "space")
                            .put("memory_type", "event"));
            String id = stored.output().path("stored").path("id").asText();

            assertThat(scout.callMetaTool(carol, null, "memory__recall", args("memory_id", id))
                            .isError())
                    .isFalse();
            assertThat(scout.callMetaTool(BOB, null, "memory__recall", args("memory_id", id))
                            .error())
                    .isEqualTo("Memory not found: " + id);
            assertThat(scout.callMetaTool(
                                    new Principal("dan", null, null),
                                    null,
                                    "memory__store",
                                    args("content", "x").put("scope", "space"))
                            .error())
                    .contains("'space' needs a principal");
        }
    }

    @Test
    void a_policy_that_denies_the_memory_tools_makes_them_read_as_missing() {
        AccessPolicy deny = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "memory", AccessRule.Subject.USER, "bob")));
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(deny).build()) {
            ToolCallResult r = scout.callMetaTool(BOB, null, "memory__store", args("content", "x"));

            assertThat(r.error()).isEqualTo("Tool not found: memory__store");
            assertThat(scout.memory().recent(BOB, null, 10)).isEmpty();
        }
    }
}
