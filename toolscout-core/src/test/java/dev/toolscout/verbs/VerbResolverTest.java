package dev.toolscout.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The resolver's logic over the core's fakes (a bag-of-words embedder, so similarities follow shared words); the
 * real model and the calibrated thresholds are tested in the engine ({@code VerbsEndToEndTest}).
 */
class VerbResolverTest {
    private static final Principal KID = new Principal(null, "kids", null);

    private static Fixture fixture() {
        Fixture f = new Fixture();
        List<ToolSpec> tools = new ArrayList<>(Fixture.assistantCatalog());
        tools.add(VerbManifest.of(
                        "SEARCH_WEB",
                        "Search the web for pages about a topic",
                        List.of("web_search"),
                        null,
                        List.of("find websites about a topic"),
                        null,
                        null)
                .toSpec());
        tools.add(VerbManifest.of(
                        "TRANSLATE_TEXT",
                        "Translate text into another language",
                        List.of("translation"),
                        null,
                        null,
                        null,
                        null)
                .toSpec());
        f.catalog.sync(tools);
        // kids may not see verbs at all, nor send email
        f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "verbs",
                                AccessRule.Subject.GROUP,
                                "kids"),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.TOOL,
                                "gmail__send_email",
                                AccessRule.Subject.GROUP,
                                "kids"))));
        return f;
    }

    private static VerbResolver resolver(Fixture f, double threshold) {
        return new VerbResolver(
                f.catalog, f.ranker, f.model, f.access, f.selector.config().fusion(), OptionalDouble.of(threshold));
    }

    @Test
    void discover_returns_verbs_and_tools_best_first_with_their_cosine_as_confidence() {
        Fixture f = fixture();
        List<VerbCandidate> found = resolver(f, 0.5).discover(Principal.ANONYMOUS, "search the web for a topic", 5);

        assertThat(found).hasSize(5);
        assertThat(found.get(0).name()).isEqualTo("verbs__SEARCH_WEB");
        assertThat(found.get(0).isVerb()).isTrue();
        assertThat(found).anyMatch(c -> !c.isVerb());
        // the confidence is the cosine of the two descriptions embedded as documents (no inputs named)
        List<float[]> v = f.model.embedDocuments(List.of(
                "search the web for a topic",
                f.catalog.get("verbs__SEARCH_WEB").orElseThrow().spec().description()));
        double cos = dev.toolscout.embedding.Vectors.cosine(v.get(0), v.get(1));
        assertThat(found.get(0).confidence()).isCloseTo(cos, org.assertj.core.data.Offset.offset(1e-5));
    }

    @Test
    void resolve_substitutes_the_best_candidate_only_when_its_confidence_reaches_the_threshold() {
        Fixture f = fixture();
        NovelVerb verb = new NovelVerb("WEB_LOOKUP", "search the web for a topic", List.of());
        double conf = resolver(f, 0)
                .discover(Principal.ANONYMOUS, verb, 1, Set.of())
                .get(0)
                .confidence();

        Resolution at = resolver(f, conf).resolve(Principal.ANONYMOUS, verb);
        assertThat(at).isInstanceOfSatisfying(Resolution.Substitution.class, s -> {
            assertThat(s.target().name()).isEqualTo("verbs__SEARCH_WEB");
            assertThat(s.confidence()).isEqualTo(conf);
            assertThat(s.alternatives())
                    .hasSize(VerbResolver.NEAREST)
                    .noneMatch(c -> c.name().equals("verbs__SEARCH_WEB"));
        });
        Resolution above = resolver(f, conf + 1e-6).resolve(Principal.ANONYMOUS, verb);
        assertThat(above).isInstanceOfSatisfying(Resolution.NoMatch.class, n -> {
            assertThat(n.nearest()).hasSize(VerbResolver.NEAREST);
            assertThat(n.nearest().get(0).name()).isEqualTo("verbs__SEARCH_WEB");
            assertThat(n.reason())
                    .startsWith("the best candidate, verbs__SEARCH_WEB, has confidence ")
                    .contains("below the threshold");
        });
    }

    @Test
    void a_renamed_copy_with_the_same_description_and_inputs_has_confidence_one() {
        Fixture f = fixture();
        NovelVerb copy = new NovelVerb("TRANSLATE", "Translate text into another language", List.of());
        Resolution r = resolver(f, 0.99).resolve(Principal.ANONYMOUS, copy);
        assertThat(r).isInstanceOfSatisfying(Resolution.Substitution.class, s -> {
            assertThat(s.target().name()).isEqualTo("verbs__TRANSLATE_TEXT");
            assertThat(s.confidence()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
        });
    }

    @Test
    void input_names_compare_as_words_and_weigh_in_only_when_the_novel_verb_names_inputs() {
        assertThat(VerbMatch.inputOverlap(List.of("task_id", "MAX-RESULTS"), List.of("taskId", "maxResults")))
                .isEqualTo(1.0);
        assertThat(VerbMatch.inputOverlap(List.of("query", "limit"), List.of("query", "page")))
                .isEqualTo(1.0 / 3);
        assertThat(VerbMatch.inputOverlap(List.of("query"), List.of())).isZero();
        assertThat(VerbMatch.inputOverlap(List.of(), List.of("query"))).isNaN();
        assertThat(VerbMatch.confidence(0.8, Double.NaN)).isEqualTo(0.8);
        assertThat(VerbMatch.confidence(1.0, 1.0)).isEqualTo(1.0);
        assertThat(VerbMatch.confidence(0.8, 0.0, 0.25)).isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(VerbMatch.text(new NovelVerb("getForecast", null, List.of())))
                .isEqualTo("get forecast");
        assertThatThrownBy(() -> dev.toolscout.embedding.Vectors.cosine(new float[2], new float[3]))
                .hasMessage("vectors must have the same dimension, got: 2 and 3");
    }

    @Test
    void excluded_candidates_are_never_found_nor_substituted() {
        Fixture f = fixture();
        NovelVerb verb = new NovelVerb("WEB_LOOKUP", "search the web for a topic", List.of());
        Resolution r = resolver(f, -1).resolve(Principal.ANONYMOUS, verb, Set.of("verbs__SEARCH_WEB", "no__such_tool"));

        assertThat(r)
                .isInstanceOfSatisfying(
                        Resolution.Substitution.class,
                        s -> assertThat(s.target().name()).isNotEqualTo("verbs__SEARCH_WEB"));
        assertThat(resolver(f, -1).discover(Principal.ANONYMOUS, verb, 50, Set.of("verbs__SEARCH_WEB")))
                .noneMatch(c -> c.name().equals("verbs__SEARCH_WEB"));
    }

    @Test
    void denied_verbs_and_tools_never_appear_in_discovery_or_resolution() {
        Fixture f = fixture();
        VerbResolver r = resolver(f, -1);

        List<VerbCandidate> found = r.discover(KID, "search the web and send an email", 50);
        assertThat(found)
                .isNotEmpty()
                .noneMatch(VerbCandidate::isVerb)
                .noneMatch(c -> c.name().equals("gmail__send_email"));
        Resolution res = r.resolve(KID, new NovelVerb("SEND_EMAIL", "send an email message", List.of()));
        assertThat(res.toString()).doesNotContain("gmail__send_email").doesNotContain("verbs__");
    }

    @Test
    void a_tool_a_skill_offers_only_through_itself_is_no_candidate() {
        Fixture f = fixture();
        f.catalog.upsert(ToolSpec.builder("research__search_the_web", "Search the web for pages about a topic")
                .sourceKind(dev.toolscout.model.SourceKind.SKILL)
                .build());

        assertThat(resolver(f, -1).discover(Principal.ANONYMOUS, "search the web for pages about a topic", 50))
                .noneMatch(c -> c.name().equals("research__search_the_web"))
                .anyMatch(c -> c.name().equals("verbs__SEARCH_WEB"));
    }

    @Test
    void an_uncalibrated_model_never_substitutes() {
        Fixture f = fixture();
        VerbResolver r = new VerbResolver(
                f.catalog, f.ranker, f.model, f.access, f.selector.config().fusion());

        assertThat(r.threshold()).isEmpty();
        assertThat(r.resolve(
                        Principal.ANONYMOUS,
                        new NovelVerb("SEARCH_WEB", "Search the web for pages about a topic", List.of())))
                .isInstanceOfSatisfying(Resolution.NoMatch.class, n -> {
                    assertThat(n.reason())
                            .isEqualTo(
                                    "embedding model 'hashing-256' has no calibrated verb threshold, so nothing is substituted");
                    assertThat(n.nearest().get(0).name()).isEqualTo("verbs__SEARCH_WEB");
                });
    }

    @Test
    void nothing_visible_is_no_match_with_no_candidates() {
        Fixture f = fixture();
        f.access.setPolicy(new AccessPolicy(AccessRule.Effect.DENY, Map.of(), List.of()));
        assertThat(resolver(f, -1).resolve(Principal.ANONYMOUS, NovelVerb.described("search the web")))
                .isEqualTo(
                        new Resolution.NoMatch(List.of(), -1, "hashing-256", "no verb or tool is visible to search"));
    }

    @Test
    void limits_and_blank_verbs_are_refused_naming_the_input() {
        Fixture f = fixture();
        VerbResolver r = resolver(f, 0.5);
        assertThatThrownBy(() -> r.discover(Principal.ANONYMOUS, "search", 0))
                .hasMessage("limit must be between 1 and 50, got: 0");
        assertThatThrownBy(() -> r.discover(Principal.ANONYMOUS, "search", 51))
                .hasMessage("limit must be between 1 and 50, got: 51");
        assertThatThrownBy(() -> r.discover(Principal.ANONYMOUS, " ", 5))
                .isInstanceOf(InvalidVerbException.class)
                .hasMessage(
                        "verb '': verb and description must not both be blank: give the verb's name, what it should do,"
                                + " or both");
        assertThatThrownBy(() -> NovelVerb.described("x".repeat(16_385)))
                .hasMessage("verb '': description must be at most 16,384 characters, got: 16,385 characters");
    }

    @Test
    void a_novel_verb_is_searched_by_the_words_of_its_name_description_and_inputs() {
        assertThat(new NovelVerb("fetchWebPage", " Download a page ", List.of("page_url", " ")).searchText())
                .isEqualTo("fetch web page: Download a page Parameters: page url.");
        assertThat(new NovelVerb("FETCH_PAGE", null, List.of()).searchText()).isEqualTo("fetch page");
        assertThat(NovelVerb.described("weather in Paris").searchText()).isEqualTo("weather in Paris");
    }
}
