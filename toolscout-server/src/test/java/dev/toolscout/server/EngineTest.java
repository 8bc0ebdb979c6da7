package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The composed engine over the real store, index and embedding model, across restarts. */
class EngineTest {
  @TempDir Path dir;

  private static List<String> names(Selection s) {
    return s.selected().stream().map(Selection.SelectedTool::name).toList();
  }

  private static Selection meeting(Engine e) {
    return e.selector().select(Selector.Request.of("Schedule a meeting for tomorrow at 2pm", Principal.ANONYMOUS));
  }

  @Test
  void a_new_data_directory_holds_the_demo_catalog_and_selects_calendar_tools() throws Exception {
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      assertThat(e.catalog().size()).isGreaterThanOrEqualTo(60);
      assertThat(names(meeting(e))).contains("calendar__create_event", "calendar__list_events",
          "tool_discovery__find");
    }
  }

  @Test
  void a_data_directory_in_use_is_refused_clearly_and_left_working() throws Exception {
    try (Engine running = Engine.open(Engine.Options.of(dir))) {
      assertThatThrownBy(() -> Engine.open(Engine.Options.of(dir)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("data directory " + dir + " is in use by another ToolScout process (its search index is "
              + "locked); give this one its own --data-dir, or stop the other one");
      assertThat(running.discovery().find(Principal.ANONYMOUS, "send an email", 3))
          .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Ok.class);
      assertThat(running.catalog().size()).isGreaterThanOrEqualTo(60);
    }
  }

  @Test
  void a_restart_embeds_nothing_and_selects_the_same() throws Exception {
    List<String> first;
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      assertThat(e.embeddedCount()).isPositive();
      first = names(meeting(e));
    }
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      assertThat(names(meeting(e))).isEqualTo(first);
      assertThat(e.embeddedCount()).isZero();
    }
  }

  @Test
  void a_lost_index_is_rebuilt_from_the_store_without_embedding() throws Exception {
    List<String> first;
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      first = names(meeting(e));
    }
    try (Stream<Path> files = Files.walk(dir.resolve("index"))) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      assertThat(e.index().size()).isEqualTo(e.catalog().size());
      assertThat(e.embeddedCount()).isZero();
      assertThat(names(meeting(e))).isEqualTo(first);
    }
  }

  @Test
  void an_updated_tool_is_embedded_again_and_the_others_are_not() throws Exception {
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      ToolSpec t = e.catalog().get("echo__echo").orElseThrow().spec();
      long before = e.embeddedCount();
      e.index(List.of(t.toBuilder().build(), ToolSpec.builder("echo__shout", "Repeats a message loudly.").build()));
      assertThat(e.embeddedCount() - before).isEqualTo(1);
      e.index(List.of(ToolSpec.builder("echo__echo", "Returns the message, reversed.").build()));
      assertThat(e.embeddedCount() - before).isEqualTo(2);
      assertThat(e.discovery().describe(Principal.ANONYMOUS, "echo__shout"))
          .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Ok.class);
    }
  }

  @Test
  void a_bad_policy_file_is_refused_before_anything_changes() throws Exception {
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      assertThat(e.catalog().size()).isPositive();
    }
    Path bad = dir.resolve("policy.json");
    Files.writeString(bad, "{\"rules\":[{\"effect\":\"maybe\",\"tool\":\"gmail__send_email\"}]}");
    assertThatThrownBy(() -> Engine.open(Engine.Options.of(dir).withPolicy(bad)))
        .hasMessageContaining("policy.json").hasMessageContaining("rules[0].effect");
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      assertThat(e.access().policy().rules()).isEmpty();
      assertThat(e.catalog().size()).isPositive();
    }
  }

  @Test
  void a_policy_file_is_applied_for_the_engine_only_and_its_unmatched_rules_are_logged() throws Exception {
    Path typo = dir.resolve("typo.json");
    Files.writeString(typo, "{\"rules\":[{\"effect\":\"deny\",\"source\":\"gmial\"},"
        + "{\"effect\":\"deny\",\"source\":\"calendar\"}]}");
    ch.qos.logback.classic.Logger log =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Engine.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> seen =
        new ch.qos.logback.core.read.ListAppender<>();
    seen.start();
    log.addAppender(seen);
    try (Engine e = Engine.open(Engine.Options.of(dir).withPolicy(typo))) {
      assertThat(e.access().policy().rules()).hasSize(2);
      assertThat(e.discovery().describe(Principal.ANONYMOUS, "calendar__create_event"))
          .isInstanceOf(dev.toolscout.discovery.DiscoveryResult.Error.class);
    } finally {
      log.detachAppender(seen);
    }
    assertThat(seen.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
        .containsExactly(typo + ": rules[0].source: 'gmial' matches no known source (did you mean 'gmail'?)");
    try (Engine e = Engine.open(Engine.Options.of(dir))) {
      assertThat(e.storedPolicy()).isEmpty();
      assertThat(e.access().policy().rules()).isEmpty();
    }
  }
}
