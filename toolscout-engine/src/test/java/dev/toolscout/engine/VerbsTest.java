package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.engine.files.CatalogFileException;
import dev.toolscout.engine.files.CatalogFiles;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import dev.toolscout.verbs.NovelVerb;
import dev.toolscout.verbs.Resolution;
import dev.toolscout.verbs.VerbCandidate;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbThresholds;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Verbs through the public API, with the real embedding model and its calibrated threshold, beside the demo
 * catalog's 79 tools: six verbs of the held-out verbs set (docs/VERBS.md).
 */
@ResourceLock(LogCapture.LOGGERS)
class VerbsTest {
    @TempDir
    Path dir;

    static List<VerbManifest> sixVerbs() {
        try {
            return CatalogFiles.readVerbs(
                    List.of(Path.of(VerbsTest.class.getResource("verbs.json").toURI())));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private ToolScout open() {
        return ToolScout.builder().dataDir(dir).build();
    }

    private static List<String> names(List<VerbCandidate> found) {
        return found.stream().map(VerbCandidate::name).toList();
    }

    @Test
    void registered_verbs_are_discovered_by_paraphrase_beside_the_tools() {
        try (ToolScout scout = open()) {
            CatalogChange c = scout.verbs().register(sixVerbs());
            assertThat(c.added()).isEqualTo(6);
            assertThat(scout.verbs().register(sixVerbs()).added()).isZero();

            List<VerbCandidate> web =
                    scout.verbs().discover(null, "search the internet for web pages about a topic", 5);
            assertThat(web.get(0).name()).isEqualTo("verbs__SEARCH_WEB");
            assertThat(web.get(0).isVerb()).isTrue();
            assertThat(web).anyMatch(v -> !v.isVerb()); // tools are candidates too
            List<VerbCandidate> rain = scout.verbs().discover(null, "will it rain in Lisbon tomorrow", 5);
            assertThat(rain.get(0).name()).isEqualTo("verbs__GET_WEATHER");
            // a verb and a tool that do the same thing are both found
            assertThat(names(scout.verbs().discover(null, "put this paragraph into German", 5)))
                    .contains("verbs__TRANSLATE_TEXT", "llm__translate");
            // confidences are cosines: the paraphrase is closer than something unrelated
            double gibberish =
                    scout.verbs().discover(null, "xqzv blorf", 1).get(0).confidence();
            assertThat(web.get(0).confidence()).isBetween(-1.0, 1.0).isGreaterThan(gibberish);
        }
    }

    @Test
    void with_the_default_model_a_renamed_verb_given_its_registered_description_is_substituted() {
        try (ToolScout scout = open()) {
            scout.verbs().register(sixVerbs());
            double threshold = VerbThresholds.forModel("all-minilm-l6-v2-q").orElseThrow();
            assertThat(scout.verbs().resolver().threshold()).hasValue(threshold);

            // a planner's own copy of the manifest under another name: its description as registered, its inputs
            Resolution sub = scout.verbs()
                    .resolve(
                            null,
                            new NovelVerb(
                                    "FORECAST_WEATHER",
                                    "Get the current weather and the forecast for a city or coordinates.",
                                    List.of("location", "days")));
            assertThat(sub).isInstanceOfSatisfying(Resolution.Substitution.class, s -> {
                assertThat(s.target().name()).isEqualTo("verbs__GET_WEATHER");
                assertThat(s.confidence()).isGreaterThanOrEqualTo(threshold);
                assertThat(s.modelId()).isEqualTo("all-minilm-l6-v2-q");
                assertThat(s.confidence()).isGreaterThan(0.99);
                assertThat(s.alternatives()).noneMatch(c -> c.name().equals("verbs__GET_WEATHER"));
            });
            assertNeverSubstituted(scout, threshold);
        }
    }

    @Test
    void with_bge_the_resolver_substitutes_a_paraphrased_verb_and_refuses_gibberish_and_unrelated_ones() {
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).model("bge-small-en-v1.5-q").build()) {
            scout.verbs().register(sixVerbs());
            double threshold = VerbThresholds.forModel("bge-small-en-v1.5-q").orElseThrow();

            Resolution sub = scout.verbs()
                    .resolve(
                            null,
                            new NovelVerb(
                                    "WEATHER_FORECAST",
                                    "Get the current weather and the weather forecast for a city",
                                    List.of("location")));
            assertThat(sub).isInstanceOfSatisfying(Resolution.Substitution.class, s -> {
                assertThat(s.target().name()).isEqualTo("verbs__GET_WEATHER");
                assertThat(s.confidence()).isGreaterThanOrEqualTo(threshold);
            });
            assertNeverSubstituted(scout, threshold);
        }
    }

    private static void assertNeverSubstituted(ToolScout scout, double threshold) {
        for (NovelVerb never : List.of(
                NovelVerb.described("xqzv blorf"),
                new NovelVerb("QWERTY", "asdf zxcv", null),
                new NovelVerb("BAKE_CAKE", "Bake a chocolate cake in the oven", null))) {
            assertThat(scout.verbs().resolve(null, never))
                    .as(never.searchText())
                    .isInstanceOfSatisfying(Resolution.NoMatch.class, n -> {
                        assertThat(n.nearest()).hasSize(5);
                        assertThat(n.nearest().get(0).confidence())
                                .isLessThan(threshold)
                                .isGreaterThanOrEqualTo(n.nearest().get(4).confidence());
                        assertThat(n.reason()).contains("below the threshold");
                    });
        }
    }

    @Test
    void a_denied_verb_or_tool_never_appears_in_a_listing_a_discovery_or_a_resolution() {
        AccessPolicy policy = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.TOOL,
                                "verbs__SEARCH_WEB",
                                AccessRule.Subject.USER,
                                "eve"),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "llm",
                                AccessRule.Subject.USER,
                                "eve")));
        try (LogCapture log = LogCapture.of(LocalToolScout.class);
                ToolScout scout =
                        ToolScout.builder().dataDir(dir).policyOverride(policy).build()) {
            // the policy is checked against the catalog at start, before the verbs are registered
            assertThat(log.warnings())
                    .containsExactly("the access policy: rules[0].tool: 'verbs__SEARCH_WEB' matches no known tool");
            scout.verbs().register(sixVerbs());
            Principal eve = new Principal("eve", null, null);

            assertThat(scout.verbs().list(eve))
                    .extracting(VerbManifest::verb)
                    .hasSize(5)
                    .doesNotContain("SEARCH_WEB");
            assertThat(scout.verbs().list(null)).hasSize(6);
            List<VerbCandidate> found = scout.verbs().discover(eve, "search the web and translate the results", 50);
            assertThat(found)
                    .isNotEmpty()
                    .noneMatch(v ->
                            v.name().equals("verbs__SEARCH_WEB") || v.name().startsWith("llm__"));
            Resolution r = scout.verbs()
                    .resolve(
                            eve,
                            new NovelVerb(
                                    "WEB_SEARCH",
                                    "Search the web for information and return the most relevant pages",
                                    List.of("query")));
            assertThat(r.toString()).doesNotContain("verbs__SEARCH_WEB").doesNotContain("llm__");
            assertThat(scout.describe(eve, "verbs__SEARCH_WEB")).isEmpty();
        }
    }

    @Test
    void verbs_are_kept_across_reopening_and_catalog_replacement_and_are_not_plain_tools() {
        try (ToolScout scout = open()) {
            scout.verbs().register(sixVerbs());
            assertThatThrownBy(() -> scout.upsert(
                            List.of(ToolSpec.builder("verbs__FOO", "d").build())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the source 'verbs' and the kind 'verb' are reserved for verbs");
            assertThatThrownBy(() -> scout.upsert(List.of(ToolSpec.builder("web__foo", "d")
                            .sourceKind(SourceKind.VERB)
                            .build())))
                    .hasMessageContaining("reserved for verbs");
        }
        try (ToolScout scout = ToolScout.builder()
                .dataDir(dir)
                .tools(List.of(
                        ToolSpec.builder("only__tool", "The one catalog tool").build()))
                .build()) {
            // an exact tool list replaces the catalog's own tools, not the verbs
            assertThat(scout.verbs().list(null)).hasSize(6);
            assertThat(scout.describe(null, "gmail__send_email")).isEmpty();
            ToolSpec stored = scout.describe(null, "verbs__SEARCH_WEB").orElseThrow();
            assertThat(stored.sourceKind()).isEqualTo(SourceKind.VERB);
            assertThat(stored.examples()).containsExactly("Find competitor websites", "Research market trends");
            assertThat(stored.outputSchema().at("/properties/results/type").asText())
                    .isEqualTo("array");
            assertThat(VerbManifest.fromSpec(stored))
                    .isEqualTo(sixVerbs().stream()
                            .filter(v -> v.verb().equals("SEARCH_WEB"))
                            .findFirst()
                            .orElseThrow());
        }
    }

    @Test
    void a_read_only_instance_lists_and_discovers_verbs_but_registers_none() {
        try (ToolScout scout = open()) {
            scout.verbs().register(sixVerbs());
        }
        try (ToolScout ro = ToolScout.builder().dataDir(dir).readOnly(true).build()) {
            assertThat(ro.verbs().list(null)).hasSize(6);
            assertThat(ro.verbs()
                            .discover(null, "will it rain in Lisbon tomorrow", 1)
                            .get(0)
                            .name())
                    .isEqualTo("verbs__GET_WEATHER");
            assertThatThrownBy(() -> ro.verbs().register(sixVerbs()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot register verbs")
                    .hasMessageContaining("read-only");
            assertThatThrownBy(() -> ro.verbs().remove(List.of("SEARCH_WEB")))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void verbs_are_removed_all_or_none_by_name() {
        try (ToolScout scout = open()) {
            scout.verbs().register(sixVerbs());
            assertThatThrownBy(() -> scout.verbs().remove(List.of("SEARCH_WEB", "NO_SUCH_VERB", "gmail__send_email")))
                    .isInstanceOf(NoSuchToolException.class)
                    .hasMessage("no verb named 'NO_SUCH_VERB', 'gmail__send_email' is registered; nothing was removed");
            assertThat(scout.verbs().list(null)).hasSize(6);
            assertThat(scout.verbs()
                            .remove(List.of("search-web", "GET_WEATHER"))
                            .removed())
                    .isEqualTo(2);
            assertThat(scout.verbs().list(null))
                    .extracting(VerbManifest::verb)
                    .doesNotContain("SEARCH_WEB", "GET_WEATHER");
            assertThat(names(scout.verbs().discover(null, "look something up on the internet", 50)))
                    .doesNotContain("verbs__SEARCH_WEB");
        }
    }

    @Test
    void manifest_files_are_checked_whole_naming_file_position_verb_and_field() throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, """
        verbs:
          - {verb: SEARCH_WEB, description: Search the web}
          - {verb: GET_WEATHER, description: Weather, capabilities: weather}
        """);
        assertThatThrownBy(() -> CatalogFiles.readVerbs(List.of(bad)))
                .isInstanceOf(CatalogFileException.class)
                .hasMessage(
                        bad + ": manifest at verbs[1]: verb 'GET_WEATHER': capabilities must be a list of strings, got:"
                                + " \"weather\"");
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        Files.writeString(a, "{\"verb\": \"search web\", \"description\": \"Search the web\"}");
        Files.writeString(b, "[{\"verb\": \"SEARCH_WEB\", \"description\": \"Search the internet\"}]");
        assertThat(CatalogFiles.readVerbs(List.of(a)))
                .extracting(VerbManifest::verb)
                .containsExactly("SEARCH_WEB");
        assertThatThrownBy(() -> CatalogFiles.readVerbs(List.of(a, b)))
                .hasMessage(b + ": verb 'SEARCH_WEB' is also in " + a);
        try (ToolScout scout = open()) {
            assertThatThrownBy(() -> scout.verbs()
                            .register(List.of(sixVerbs().get(0), sixVerbs().get(0))))
                    .hasMessage("verbs must have distinct names, got 'SEARCH_WEB' twice; nothing was changed");
            assertThat(scout.verbs().list(null)).isEmpty();
        }
    }

    @Test
    void a_registered_verb_is_selected_for_a_message_it_serves() {
        try (ToolScout scout = open()) {
            scout.verbs().register(sixVerbs());
            SelectResult r = scout.select(SelectRequest.of("what will the weather be in Paris this weekend"));
            assertThat(r.selected()).extracting(SelectResult.SelectedTool::name).contains("verbs__GET_WEATHER");
        }
    }
}
