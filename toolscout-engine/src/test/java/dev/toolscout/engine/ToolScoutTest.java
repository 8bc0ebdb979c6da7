package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.testing.LogCapture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** The public API on real data directories, with the real embedding model. */
@ResourceLock(LogCapture.LOGGERS)
class ToolScoutTest {
    @TempDir
    Path dir;

    private ToolScout open() {
        return ToolScout.builder().dataDir(dir).build();
    }

    private static List<String> names(SelectResult r) {
        return r.selected().stream().map(SelectResult.SelectedTool::name).toList();
    }

    @Test
    void select_on_the_demo_catalog_gives_calendar_tools_with_reasons_and_tokens() {
        try (ToolScout scout = open()) {
            SelectResult r = scout.select(SelectRequest.of("Schedule a meeting with the team tomorrow at 3pm"));
            assertThat(names(r)).contains("calendar__create_event");
            assertThat(r.selected()).allSatisfy(t -> assertThat(t.reason()).isNotBlank());
            assertThat(r.excludedCount())
                    .isEqualTo(r.visibleCount() - r.selected().size());
            assertThat(r.tokens().selected()).isPositive().isLessThan(r.tokens().all());
            assertThat(r.tokens().savedPct()).isBetween(0.0, 100.0);
            assertThat(scout.render(r, RenderFormat.JSON).get("selected"))
                    .hasSize(r.selected().size());
            assertThat(scout.render(r, RenderFormat.ANTHROPIC).get("tools"))
                    .hasSize(r.selected().size());
        }
    }

    @Test
    void a_message_with_a_pasted_document_is_ranked_on_its_first_part_and_says_so() {
        // an agent's message: the request first, then a long pasted text that names no tool's words
        String pasted = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ".repeat(250);
        String message = "Schedule a meeting with the team tomorrow at 3pm about this report:\n" + pasted;
        assertThat(message.length()).isGreaterThan(20_000);
        try (ToolScout scout = open()) {
            SelectResult r = scout.select(SelectRequest.of(message));
            assertThat(r.shortened()).isEqualTo(new dev.toolscout.selection.Shortened(message.length(), 8_192));
            assertThat(names(r)).contains("calendar__create_event");
            com.fasterxml.jackson.databind.JsonNode json = scout.render(r, RenderFormat.JSON);
            assertThat(json.path("shortened").path("from_chars").asInt()).isEqualTo(message.length());
            assertThat(json.path("shortened").path("to_chars").asInt()).isEqualTo(8_192);
            assertThat(json.path("shortened").path("note").asText())
                    .isEqualTo("the message is longer than the ranking reads; it was ranked on its first 8,192 of "
                            + String.format(java.util.Locale.ROOT, "%,d", message.length()) + " characters");

            SelectResult whole = scout.select(SelectRequest.of("Schedule a meeting with the team tomorrow at 3pm"));
            assertThat(whole.shortened()).isNull();
            assertThat(scout.render(whole, RenderFormat.JSON).has("shortened")).isFalse();
        }
        assertThatThrownBy(() ->
                        SelectRequest.of("a".repeat(dev.toolscout.model.InputLimits.MAX_REQUEST_MESSAGE_CHARS + 1)))
                .hasMessage("message must be at most 1,048,576 characters, got: 1,048,577 characters");
    }

    @Test
    void an_upserted_tool_is_selected_next_and_a_removed_one_is_gone() {
        ToolSpec probe = ToolSpec.builder(
                        "quasar__calibrate_telescope",
                        "Calibrate the observatory telescope mirrors before a night of stargazing")
                .category("science")
                .build();
        try (ToolScout scout = open()) {
            String message = "calibrate the telescope mirrors for tonight's stargazing";
            assertThat(names(scout.select(SelectRequest.of(message)))).doesNotContain(probe.fullName());

            CatalogChange added = scout.upsert(List.of(probe));
            assertThat(added.added()).isEqualTo(1);
            assertThat(names(scout.select(SelectRequest.of(message)))).contains(probe.fullName());

            CatalogChange removed = scout.remove(List.of(probe.fullName()));
            assertThat(removed.removed()).isEqualTo(1);
            assertThat(removed.version()).isGreaterThan(added.version());
            assertThat(names(scout.select(SelectRequest.of(message)))).doesNotContain(probe.fullName());
            assertThatThrownBy(() -> scout.remove(List.of(probe.fullName(), "gmail__send_email")))
                    .isInstanceOf(NoSuchToolException.class)
                    .hasMessageContaining("'quasar__calibrate_telescope'")
                    .hasMessageContaining("nothing was removed");
            assertThat(scout.describe(null, "gmail__send_email")).isPresent();
        }
    }

    @Test
    void describe_answers_a_denied_and_a_missing_tool_alike() {
        AccessPolicy denyGmail = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "gmail", AccessRule.Subject.USER, "eve")));
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(denyGmail).build()) {
            Principal eve = new Principal("eve", null, null);
            assertThat(scout.describe(eve, "gmail__send_email")).isEmpty();
            assertThat(scout.describe(eve, "gmail__no_such_tool")).isEmpty();
            assertThat(scout.describe(null, "gmail__send_email")).isPresent();
            assertThat(scout.find(eve, "send an email", 50).tools())
                    .noneMatch(t -> t.name().startsWith("gmail__"));
            assertThat(scout.list(eve, null, 0, 1000).tools())
                    .noneMatch(t -> t.name().startsWith("gmail__"));
        }
    }

    @Test
    void a_denied_tool_is_in_no_selection_search_page_or_count() {
        AccessPolicy denyGmail = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "gmail", AccessRule.Subject.USER, "eve")));
        try (ToolScout scout =
                ToolScout.builder().dataDir(dir).policyOverride(denyGmail).build()) {
            Principal eve = new Principal("eve", null, null);
            SelectRequest email = new SelectRequest("send an email to the team", eve, 50, null, null);
            SelectResult seen = scout.select(email);
            SelectResult all = scout.select(email.withPrincipal(null));
            assertThat(names(seen)).noneMatch(n -> n.startsWith("gmail__"));
            assertThat(names(all)).anyMatch(n -> n.startsWith("gmail__"));
            long gmail = scout.list(null, null, 0, ToolPage.MAX_LIMIT).tools().stream()
                    .filter(t -> t.name().startsWith("gmail__"))
                    .count();
            assertThat(seen.visibleCount()).isEqualTo(all.visibleCount() - gmail);
            assertThat(scout.list(eve, null, 0, ToolPage.MAX_LIMIT).total())
                    .isEqualTo(scout.list(null, null, 0, ToolPage.MAX_LIMIT).total() - gmail);
            assertThat(seen.tokens().all()).isLessThan(all.tokens().all());
        }
    }

    @Test
    void pages_of_a_list_join_to_the_whole_list_in_name_order() {
        try (ToolScout scout = open()) {
            ToolPage whole = scout.list(null, null, 0, ToolPage.MAX_LIMIT);
            List<String> joined = new java.util.ArrayList<>();
            for (int offset = 0; offset < whole.total(); offset += 7) {
                ToolPage page = scout.list(null, null, offset, 7);
                assertThat(page.total()).isEqualTo(whole.total());
                assertThat(page.offset()).isEqualTo(offset);
                page.tools().forEach(t -> joined.add(t.name()));
            }
            assertThat(joined)
                    .isEqualTo(whole.tools().stream()
                            .map(ToolPage.ToolSummary::name)
                            .toList());
            assertThat(joined).isSorted();
            assertThat(whole.categories().values().stream()
                            .mapToInt(Integer::intValue)
                            .sum())
                    .isEqualTo(whole.total());

            String category = whole.categories().keySet().iterator().next();
            ToolPage one = scout.list(null, " " + category.toUpperCase(java.util.Locale.ROOT) + " ", 0, 3);
            assertThat(one.tools())
                    .isNotEmpty()
                    .allSatisfy(t -> assertThat(t.category()).isEqualTo(category));
            assertThat(one.total()).isEqualTo(whole.categories().get(category));
            assertThat(scout.list(null, null, whole.total(), 10).tools()).isEmpty();
            assertThatThrownBy(() -> scout.list(null, null, -1, 10)).hasMessage("offset must be 0 or more, got: -1");
            assertThatThrownBy(() -> scout.list(null, null, 0, 1001))
                    .hasMessage("limit must be between 1 and 1000, got: 1001");
        }
    }

    @Test
    void find_ranks_the_matching_tool_first_and_checks_its_input() {
        try (ToolScout scout = open()) {
            FindResult r = scout.find(null, "send an email", 3);
            assertThat(r.query()).isEqualTo("send an email");
            assertThat(r.tools()).hasSizeLessThanOrEqualTo(3);
            assertThat(r.tools().get(0).name()).isEqualTo("gmail__send_email");
            assertThat(r.tools().get(0).score()).isBetween(0.0, 1.0);
            assertThatThrownBy(() -> scout.find(null, " ", null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("query is required");
            assertThatThrownBy(() -> scout.find(null, "email", 51))
                    .hasMessage("limit must be between 1 and 50, got: 51");
        }
    }

    @Test
    void a_stored_policy_survives_a_reopen_and_an_override_does_not_replace_it() {
        AccessPolicy denyGmail = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "gmail", AccessRule.Subject.EVERYONE, null)));
        try (ToolScout scout = open()) {
            assertThat(scout.policy()).isEqualTo(AccessPolicy.ALLOW_ALL);
            scout.setPolicy(denyGmail);
            assertThat(scout.describe(null, "gmail__send_email")).isEmpty(); // applied at once
        }
        try (ToolScout scout = open()) {
            assertThat(scout.policy()).isEqualTo(denyGmail);
            assertThat(scout.describe(null, "gmail__send_email")).isEmpty();
        }
        try (ToolScout scout = ToolScout.builder()
                .dataDir(dir)
                .policyOverride(AccessPolicy.ALLOW_ALL)
                .build()) {
            assertThat(scout.describe(null, "gmail__send_email")).isPresent();
        }
        try (ToolScout scout = open()) {
            assertThat(scout.policy()).isEqualTo(denyGmail);
        }
    }

    @Test
    void check_policy_names_the_rules_that_match_nothing_known() {
        AccessPolicy typo = new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "gmial",
                                AccessRule.Subject.EVERYONE,
                                null),
                        new AccessRule(
                                AccessRule.Effect.DENY,
                                AccessRule.Target.SOURCE,
                                "gmail",
                                AccessRule.Subject.GROUP,
                                "kids")));
        try (ToolScout scout = open()) {
            assertThat(scout.checkPolicy(typo, null, null, null))
                    .extracting(dev.toolscout.access.PolicyCheck.Unmatched::message)
                    .singleElement()
                    .asString()
                    .contains("'gmial'")
                    .contains("did you mean 'gmail'");
            assertThat(scout.checkPolicy(typo, null, java.util.Set.of("staff"), null))
                    .hasSize(2); // no group 'kids'
            assertThat(scout.policy()).isEqualTo(AccessPolicy.ALLOW_ALL); // checking stores nothing
        }
    }

    @Test
    void a_subscriber_gets_each_write_as_events_until_it_closes_its_subscription() {
        ToolSpec probe = ToolSpec.builder("probe__ping", "Ping a host to check it answers")
                .build();
        try (ToolScout scout = open();
                LogCapture log = LogCapture.of(LocalToolScout.class)) {
            List<List<dev.toolscout.catalog.CatalogEvent>> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            Subscription sub = scout.subscribe(seen::add);
            scout.subscribe(batch -> {
                throw new IllegalStateException("a broken listener");
            });
            CatalogChange added = scout.upsert(List.of(probe));
            assertThat(seen).hasSize(1);
            assertThat(seen.get(0)).singleElement().satisfies(e -> {
                assertThat(e.type()).isEqualTo("interface.registered");
                assertThat(e.version()).isEqualTo(added.version());
            });
            scout.remove(List.of(probe.fullName()));
            assertThat(seen).hasSize(2);
            assertThat(seen.get(1).get(0).type()).isEqualTo("interface.unregistered");

            sub.close();
            sub.close();
            scout.upsert(List.of(probe));
            assertThat(seen).hasSize(2);
            assertThat(scout.describe(null, probe.fullName())).isPresent(); // the broken listener failed nothing
            // and each of its failures was logged, with the event and its version, naming the exception
            assertThat(log.warnings())
                    .containsExactly(
                            "a catalog listener failed on interface.registered (catalog version " + added.version()
                                    + "); the change is stored [java.lang.IllegalStateException: a broken listener]",
                            "a catalog listener failed on interface.unregistered (catalog version "
                                    + (added.version() + 1)
                                    + "); the change is stored [java.lang.IllegalStateException: a broken listener]",
                            "a catalog listener failed on interface.registered (catalog version "
                                    + (added.version() + 2)
                                    + "); the change is stored [java.lang.IllegalStateException: a broken listener]");
        }
    }

    @Test
    void selections_from_8_threads_during_upserts_all_succeed_and_are_consistent() throws Exception {
        List<String> messages = List.of(
                "Schedule a meeting with the team",
                "send an email to my boss",
                "what is the weather in Paris",
                "create a task for the release",
                "search the web for java news",
                "remember that I like tea",
                "show me a form to book a flight",
                "notify the team on slack");
        try (ToolScout scout = open()) {
            int before = scout.size();
            int visible = scout.list(null, null, 0, ToolPage.MAX_LIMIT).total(); // the blocked ones are not
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(9);
            try {
                java.util.concurrent.Future<?> writer = pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        scout.upsert(List.of(ToolSpec.builder(
                                        "probe__tool_" + i,
                                        "Probe tool number " + i + " that schedules meetings and sends email")
                                .category("probe")
                                .build()));
                    }
                    return null;
                });
                List<java.util.concurrent.Future<List<SelectResult>>> readers = new java.util.ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    String message = messages.get(t);
                    readers.add(pool.submit(() -> {
                        List<SelectResult> out = new java.util.ArrayList<>();
                        for (int i = 0; i < 10; i++) {
                            out.add(scout.select(SelectRequest.of(message).withK(8)));
                        }
                        return out;
                    }));
                }
                writer.get(10, java.util.concurrent.TimeUnit.MINUTES);
                for (var f : readers) {
                    for (SelectResult r : f.get(10, java.util.concurrent.TimeUnit.MINUTES)) {
                        assertThat(r.selected()).hasSizeBetween(1, 8);
                        assertThat(names(r)).doesNotHaveDuplicates();
                        assertThat(r.coreIncluded()).isSubsetOf(names(r));
                        assertThat(r.excludedCount())
                                .isEqualTo(r.visibleCount() - r.selected().size());
                        // the catalog's visible tools, then some of the 20 written, and maybe the engine's discovery
                        // tool
                        assertThat(r.visibleCount()).isBetween(visible, visible + 21);
                        assertThat(r.tokens().selected())
                                .isPositive()
                                .isLessThanOrEqualTo(r.tokens().all());
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(scout.size()).isEqualTo(before + 20);
        }
    }

    @Test
    void a_read_only_instance_beside_the_holder_selects_the_same_and_refuses_every_write_clearly() {
        ToolSpec probe = ToolSpec.builder("quasar__calibrate_telescope", "Calibrate the telescope mirrors")
                .build();
        try (ToolScout holder = open();
                ToolScout reader =
                        ToolScout.builder().dataDir(dir).readOnly(true).build()) {
            SelectRequest meeting = SelectRequest.of("Schedule a meeting with the team tomorrow at 3pm");
            assertThat(reader.select(meeting)).isEqualTo(holder.select(meeting));
            assertThat(reader.list(null, null, 0, 1000)).isEqualTo(holder.list(null, null, 0, 1000));
            assertThat(reader.describe(null, "gmail__send_email"))
                    .isEqualTo(holder.describe(null, "gmail__send_email"));
            assertThat(reader.policy()).isEqualTo(holder.policy());
            assertThat(reader.size()).isEqualTo(holder.size());

            String refused = ": this ToolScout opened data directory " + dir
                    + " with readOnly(true), and writes nothing " + "there";
            assertThatThrownBy(() -> reader.upsert(List.of(probe)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot upsert tools" + refused);
            assertThatThrownBy(() -> reader.remove(List.of("gmail__send_email")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot remove tools" + refused);
            assertThatThrownBy(() -> reader.setPolicy(AccessPolicy.ALLOW_ALL))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot set the access policy" + refused);
            assertThatThrownBy(() -> reader.subscribe(events -> {}))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot subscribe to catalog changes" + refused);
            assertThat(reader.describe(null, "gmail__send_email")).isPresent();

            // what the holder writes later, this reader does not see: it reflects the store as of its open
            holder.upsert(List.of(probe));
            assertThat(reader.describe(null, probe.fullName())).isEmpty();
            try (ToolScout again =
                    ToolScout.builder().dataDir(dir).readOnly(true).build()) {
                assertThat(again.describe(null, probe.fullName())).isPresent();
            }
        }
        assertThatThrownBy(() -> ToolScout.builder()
                        .dataDir(dir)
                        .readOnly(true)
                        .tools(List.of(probe))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tools cannot be given with readOnly(true): they would be written to the data directory "
                        + dir + ", which a read-only opening never writes");
    }

    @Test
    void close_is_idempotent_and_later_calls_fail_clearly() {
        ToolScout scout = open();
        scout.close();
        scout.close();
        assertThatThrownBy(scout::size)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void a_request_is_checked_before_any_work() {
        assertThatThrownBy(() -> SelectRequest.of(" ")).hasMessageContaining("message must not be blank");
        assertThatThrownBy(() -> new SelectRequest("hi", null, 0, null, null))
                .hasMessage("k must be between 1 and 50, got: 0");
        assertThatThrownBy(() -> new SelectRequest("hi", null, null, null, "has space"))
                .hasMessageContaining("conversation id")
                .hasMessageContaining("'has space'");
        assertThat(new SelectRequest("hi", null, null, null, "conv-1:a.b_c").principal())
                .isEqualTo(Principal.ANONYMOUS);
        assertThatThrownBy(() -> ToolScout.builder().build()).hasMessageContaining("dataDir is required");
        assertThatThrownBy(() ->
                        ToolScout.builder().dataDir(dir).model("no-such-model").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-such-model");
    }

    @Test
    void a_second_instance_on_the_same_data_directory_is_refused_clearly() {
        try (ToolScout first = open()) {
            assertThatThrownBy(this::open)
                    .isInstanceOf(DataDirectoryInUseException.class)
                    .hasMessageContaining(dir.toString());
            assertThat(first.size()).isPositive();
        }
    }
}
