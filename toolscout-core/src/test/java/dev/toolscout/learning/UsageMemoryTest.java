package dev.toolscout.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selection.SelectedTool;
import dev.toolscout.selection.Selector;
import dev.toolscout.selection.SelectorConfig;
import java.io.StringReader;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageMemoryTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T08:00:00Z"), ZoneOffset.UTC);
    // no tool's own text is near it (UsageMemory.NEAR_TOOL_TEXT): what is learned for it counts
    private static final String MESSAGE = "auditors want their usual pack prepared";

    /** A catalog where nothing in the message's words points at the tool it needed. */
    private static List<ToolSpec> catalog() {
        List<ToolSpec> t = new ArrayList<>();
        t.add(Fixture.tool("finance__ledger_export", "Export ledger entries as CSV."));
        t.add(Fixture.tool("reports__numbers", "Numbers for a report: quarterly figures for the board."));
        for (int i = 0; i < 20; i++) {
            t.add(Fixture.tool("misc__tool_" + i, "Does unrelated thing number " + i + " with widgets."));
        }
        return t;
    }

    private static final class Setup {
        final Fixture f = new Fixture();
        final UsageMemory memory = new UsageMemory(f.store, f.model, CLOCK);
        final Selector selector = new Selector(
                f.catalog,
                f.ranker,
                f.model,
                f.access,
                f.tokens,
                SelectorConfig.DEFAULT.withCoreTools(List.of()),
                List.of(),
                memory);

        Setup() {
            f.catalog.sync(catalog());
            f.bus.subscribe(memory::onEvents);
        }

        List<String> select(String message) {
            return selector.select(new Selector.Request(message, Principal.ANONYMOUS, 3, null)).selected().stream()
                    .map(SelectedTool::name)
                    .toList();
        }
    }

    private static List<LearnedPair> pairs() {
        return List.of(
                new LearnedPair(MESSAGE, List.of("finance__ledger_export", "nowhere__tool"), "p:ann", null, null));
    }

    @Test
    void a_tool_used_for_a_message_ranks_first_for_that_message_once_learned() {
        Setup s = new Setup();
        assertThat(s.select(MESSAGE).get(0)).isNotEqualTo("finance__ledger_export");

        UsageMemory.Learned l = s.memory.learn(pairs(), s.f.catalog.snapshot());

        assertThat(l.stored()).isEqualTo(1);
        assertThat(l.unknownTools()).containsExactly(Map.entry("nowhere__tool", 1));
        Selection sel = s.selector.select(new Selector.Request(MESSAGE, Principal.ANONYMOUS, 3, null));
        assertThat(sel.selected().get(0).name()).isEqualTo("finance__ledger_export");
        assertThat(sel.selected().get(0).reason()).contains("used before for a similar message (1.00)");
    }

    @Test
    void tools_used_together_follow_each_other_like_a_dependency() {
        Setup s = new Setup();
        String message = "quarterly figures for the board";
        assertThat(s.select(message)).startsWith("reports__numbers").doesNotContain("finance__ledger_export");

        // two messages unlike the request (their cosine to it is under the learned floor) used both tools; one
        // used a third tool once, which is not enough to link it
        s.memory.learn(
                List.of(
                        new LearnedPair(
                                "archive the widget inventory tonight",
                                List.of("reports__numbers", "finance__ledger_export"),
                                null,
                                null,
                                null),
                        new LearnedPair(
                                "close the accounting period of the shop",
                                List.of("finance__ledger_export", "reports__numbers", "misc__tool_3"),
                                null,
                                null,
                                null)),
                s.f.catalog.snapshot());

        assertThat(s.memory.usedTogether())
                .containsEntry("reports__numbers", List.of("finance__ledger_export"))
                .containsEntry("finance__ledger_export", List.of("reports__numbers"))
                .doesNotContainKey("misc__tool_3");
        Selection sel = s.selector.select(new Selector.Request(message, Principal.ANONYMOUS, 3, null));
        assertThat(sel.selected())
                .extracting(SelectedTool::name)
                .startsWith("reports__numbers")
                .contains("finance__ledger_export");
        SelectedTool with = sel.selected().stream()
                .filter(t -> t.name().equals("finance__ledger_export"))
                .findFirst()
                .orElseThrow();
        assertThat(with.reason()).isEqualTo("often used with reports__numbers");
        s.memory.reset();
        assertThat(s.memory.usedTogether()).isEmpty();
    }

    @Test
    void what_is_learned_survives_a_restart_and_reset_forgets_it() {
        Setup s = new Setup();
        s.memory.learn(pairs(), s.f.catalog.snapshot());

        UsageMemory again = new UsageMemory(s.f.store, s.f.model, CLOCK);
        again.load(s.f.catalog.snapshot(), false);
        assertThat(again.messages()).isEqualTo(1);
        assertThat(again.similarity(s.f.model.embedQuery(MESSAGE), MESSAGE, Double.NaN))
                .containsOnlyKeys("finance__ledger_export");
        assertThat(again.show(3))
                .containsExactly(new UsageMemory.ToolSummary("finance__ledger_export", 1, List.of(MESSAGE)));

        assertThat(again.reset()).isEqualTo(1);
        assertThat(again.isEmpty()).isTrue();
        assertThat(s.f.store.loadLearned()).isEmpty();
    }

    @Test
    void a_tool_removed_or_changed_drops_what_was_learned_about_it() {
        Setup s = new Setup();
        s.memory.learn(
                List.of(new LearnedPair(
                        MESSAGE, List.of("finance__ledger_export", "reports__numbers"), null, null, null)),
                s.f.catalog.snapshot());

        s.f.catalog.upsert(Fixture.tool("reports__numbers", "Numbers for a report, changed."));
        assertThat(s.f.store.loadLearned()).extracting(p -> p.tool()).containsExactly("finance__ledger_export");
        s.f.catalog.remove("finance__ledger_export");
        assertThat(s.f.store.loadLearned()).isEmpty();
        assertThat(s.memory.isEmpty()).isTrue();
    }

    @Test
    void a_tool_changed_while_stopped_is_dropped_at_load_but_a_read_only_load_writes_nothing() {
        Setup s = new Setup();
        s.memory.learn(pairs(), s.f.catalog.snapshot());
        // changed with nobody listening, as by another process
        Fixture other = new Fixture();
        other.catalog.sync(List.of(Fixture.tool("finance__ledger_export", "Export ledger entries as JSON.")));

        UsageMemory readOnly = new UsageMemory(s.f.store, s.f.model, CLOCK);
        readOnly.load(other.catalog.snapshot(), true);
        assertThat(readOnly.isEmpty()).isTrue();
        assertThat(s.f.store.loadLearned()).hasSize(1);

        UsageMemory writing = new UsageMemory(s.f.store, s.f.model, CLOCK);
        writing.load(other.catalog.snapshot(), false);
        assertThat(s.f.store.loadLearned()).isEmpty();
    }

    @Test
    void a_learned_tool_the_principal_may_not_see_never_appears() {
        Setup s = new Setup();
        s.memory.learn(pairs(), s.f.catalog.snapshot());
        s.f.access.setPolicy(new AccessPolicy(
                AccessRule.Effect.ALLOW,
                Map.of(),
                List.of(new AccessRule(
                        AccessRule.Effect.DENY,
                        AccessRule.Target.SOURCE,
                        "finance",
                        AccessRule.Subject.EVERYONE,
                        null))));
        Selection sel = s.selector.select(new Selector.Request(MESSAGE, Principal.ANONYMOUS, 50, null));
        assertThat(sel.selected()).extracting(SelectedTool::name).doesNotContain("finance__ledger_export");
        assertThat(sel.reason()).doesNotContain("finance");
    }

    @Test
    void pairs_are_read_from_json_lines_and_a_bad_line_names_the_file_line_and_value() throws Exception {
        List<LearnedPair> read = LearnedPair.readLines(
                new StringReader(
                        "{\"message\": \"book a room\", \"tools\": [\"rooms__book\", \"rooms__book\"], \"principal\": \"ann\","
                                + " \"at\": \"2026-11-26T08:00:00Z\"}\n\n{\"message\": \"hi\", \"tools\": [\"a__b\"]}\n"),
                "usage.jsonl");
        assertThat(read).hasSize(2);
        assertThat(read.get(0).tools()).containsExactly("rooms__book");
        assertThat(read.get(0).at()).isEqualTo(Instant.parse("2026-11-26T08:00:00Z"));

        assertThatThrownBy(() -> LearnedPair.readLines(
                        new StringReader(
                                "{\"message\": \"ok\", \"tools\": [\"a__b\"]}\n{\"message\": \"x\", \"tools\": []}\n"),
                        "usage.jsonl"))
                .hasMessage("usage.jsonl line 2: tools must name between 1 and 50 tools, got: 0");
        assertThatThrownBy(() -> LearnedPair.readLines(
                        new StringReader("{\"message\": 3, \"tools\": [\"a__b\"]}"), "usage.jsonl"))
                .hasMessage("usage.jsonl line 1: \"message\" must be a string, got: 3");
        assertThatThrownBy(() -> LearnedPair.readLines(new StringReader("[1]"), "usage.jsonl"))
                .hasMessage("usage.jsonl line 1: expected a JSON object, got: [1]");
        assertThatThrownBy(() -> LearnedPair.readLines(
                        new StringReader("{\"message\": \"" + "a".repeat(70_000) + "\", \"tools\": [\"a__b\"]}"),
                        "usage.jsonl"))
                .hasMessageStartingWith("usage.jsonl line 1: a line must be at most 65536 characters, got: ");
    }
}
