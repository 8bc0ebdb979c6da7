package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessRule;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public API on real data directories, with the real embedding model. */
class ToolScoutTest {
  @TempDir Path dir;

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
      assertThat(r.excludedCount()).isEqualTo(r.visibleCount() - r.selected().size());
      assertThat(r.tokens().selected()).isPositive().isLessThan(r.tokens().all());
      assertThat(r.tokens().savedPct()).isBetween(0.0, 100.0);
      assertThat(scout.render(r, RenderFormat.JSON).get("selected")).hasSize(r.selected().size());
      assertThat(scout.render(r, RenderFormat.ANTHROPIC).get("tools")).hasSize(r.selected().size());
    }
  }

  @Test
  void an_upserted_tool_is_selected_next_and_a_removed_one_is_gone() {
    ToolSpec probe = ToolSpec.builder("quasar__calibrate_telescope",
        "Calibrate the observatory telescope mirrors before a night of stargazing").category("science").build();
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
    AccessPolicy denyGmail = new AccessPolicy(AccessRule.Effect.ALLOW, Map.of(), List.of(
        new AccessRule(AccessRule.Effect.DENY, AccessRule.Target.SOURCE, "gmail", AccessRule.Subject.USER, "eve")));
    try (ToolScout scout = ToolScout.builder().dataDir(dir).policyOverride(denyGmail).build()) {
      Principal eve = new Principal("eve", null, null);
      assertThat(scout.describe(eve, "gmail__send_email")).isEmpty();
      assertThat(scout.describe(eve, "gmail__no_such_tool")).isEmpty();
      assertThat(scout.describe(null, "gmail__send_email")).isPresent();
      assertThat(scout.find(eve, "send an email", 50).tools()).noneMatch(t -> t.name().startsWith("gmail__"));
      assertThat(scout.list(eve, null, 0, 1000).tools()).noneMatch(t -> t.name().startsWith("gmail__"));
    }
  }

  @Test
  void close_is_idempotent_and_later_calls_fail_clearly() {
    ToolScout scout = open();
    scout.close();
    scout.close();
    assertThatThrownBy(scout::size).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void a_request_is_checked_before_any_work() {
    assertThatThrownBy(() -> SelectRequest.of(" ")).hasMessageContaining("message must not be blank");
    assertThatThrownBy(() -> new SelectRequest("hi", null, 0, null, null))
        .hasMessage("k must be between 1 and 50, got: 0");
    assertThatThrownBy(() -> new SelectRequest("hi", null, null, null, "has space"))
        .hasMessageContaining("conversation id").hasMessageContaining("'has space'");
    assertThat(new SelectRequest("hi", null, null, null, "conv-1:a.b_c").principal()).isEqualTo(Principal.ANONYMOUS);
    assertThatThrownBy(() -> ToolScout.builder().build()).hasMessageContaining("dataDir is required");
  }
}
