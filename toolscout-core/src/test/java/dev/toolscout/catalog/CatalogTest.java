package dev.toolscout.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.Fixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatalogTest {
  @Test
  void first_tools_of_a_source_register_the_interface() {
    Fixture f = new Fixture();
    List<CatalogEvent> seen = new ArrayList<>();
    f.bus.subscribe(seen::addAll);
    f.catalog.apply(List.of(Fixture.tool("gmail__send", "Send mail."), Fixture.tool("gmail__list", "List mail.")),
        List.of());
    assertThat(seen).singleElement().satisfies(e -> {
      assertThat(e.type()).isEqualTo("interface.registered");
      assertThat(((CatalogEvent.InterfaceRegistered) e).tools()).hasSize(2);
    });
  }

  @Test
  void later_changes_are_action_events_and_the_last_removal_unregisters() {
    Fixture f = new Fixture();
    f.catalog.apply(List.of(Fixture.tool("gmail__send", "Send mail."), Fixture.tool("gmail__list", "List mail.")),
        List.of());
    List<String> types = new ArrayList<>();
    f.bus.subscribe(b -> b.forEach(e -> types.add(e.type())));
    f.catalog.upsert(Fixture.tool("gmail__draft", "Draft mail."));
    f.catalog.upsert(Fixture.tool("gmail__send", "Send an email."));
    f.catalog.remove("gmail__draft");
    f.catalog.apply(List.of(), List.of("gmail__send", "gmail__list"));
    assertThat(types).containsExactly("interface.action_added", "interface.action_updated",
        "interface.action_removed", "interface.unregistered");
  }

  @Test
  void unchanged_tools_are_skipped_and_never_embedded_again() {
    Fixture f = new Fixture();
    List<dev.toolscout.model.ToolSpec> tools = Fixture.assistantCatalog();
    f.catalog.sync(tools);
    long embedded = f.indexer.embeddedCount();
    long version = f.catalog.version();
    Catalog.Change again = f.catalog.sync(tools);
    assertThat(again.isEmpty()).isTrue();
    assertThat(f.catalog.version()).isEqualTo(version);
    assertThat(f.indexer.embeddedCount()).isEqualTo(embedded);
  }

  @Test
  void an_update_keeps_the_ordinal() {
    Fixture f = new Fixture();
    f.catalog.upsert(Fixture.tool("a__x", "First."));
    int ord = f.catalog.get("a__x").orElseThrow().ord();
    f.catalog.upsert(Fixture.tool("a__x", "Second."));
    assertThat(f.catalog.get("a__x").orElseThrow().ord()).isEqualTo(ord);
    assertThat(f.catalog.get("a__x").orElseThrow().spec().description()).isEqualTo("Second.");
  }

  @Test
  void a_restart_rebuilds_the_index_from_stored_vectors_without_embedding() {
    Fixture f = new Fixture();
    f.catalog.sync(Fixture.assistantCatalog());
    // a new process: same store, empty index
    dev.toolscout.events.EventBus bus = new dev.toolscout.events.EventBus();
    dev.toolscout.index.ExactToolIndex index = new dev.toolscout.index.ExactToolIndex(256);
    Catalog reloaded = Catalog.load(f.store, bus, Map.of());
    dev.toolscout.events.ToolIndexer indexer =
        new dev.toolscout.events.ToolIndexer(f.store, index, f.model).attach(bus);
    assertThat(indexer.rebuildIfStale(reloaded.snapshot())).isTrue();
    assertThat(indexer.embeddedCount()).isZero();
    assertThat(index.size()).isEqualTo(reloaded.size());
    assertThat(indexer.rebuildIfStale(reloaded.snapshot())).isFalse();
  }

  @Test
  void ordinal_hints_are_kept_on_load() {
    Fixture f = new Fixture();
    f.catalog.sync(Fixture.assistantCatalog());
    Map<String, Integer> hints = Map.of("gmail__send_email", 40, "tasks__list", 3);
    Catalog reloaded = Catalog.load(f.store, new dev.toolscout.events.EventBus(), hints);
    assertThat(reloaded.get("gmail__send_email").orElseThrow().ord()).isEqualTo(40);
    assertThat(reloaded.get("tasks__list").orElseThrow().ord()).isEqualTo(3);
    assertThat(reloaded.snapshot().entries().stream().map(CatalogEntry::ord).distinct().count())
        .isEqualTo(reloaded.size());
  }

  @Test
  void a_tool_named_twice_in_one_change_is_an_error_naming_it() {
    Fixture f = new Fixture();
    assertThatThrownBy(() -> f.catalog.apply(
        List.of(Fixture.tool("a__x", "One."), Fixture.tool("a__x", "Two.")), List.of()))
        .hasMessageContaining("'a__x'").hasMessageContaining("twice");
    assertThat(f.catalog.size()).isZero();
  }

  @Test
  void a_failing_indexer_does_not_lose_the_stored_change() {
    Fixture f = new Fixture();
    f.bus.subscribe(b -> {
      throw new IllegalStateException("index disk full");
    });
    assertThatThrownBy(() -> f.catalog.upsert(Fixture.tool("a__x", "One.")))
        .hasMessageContaining("index disk full").hasMessageContaining("the change itself is stored");
    assertThat(f.store.loadCatalog().tools()).extracting(t -> t.fullName()).containsExactly("a__x");
    assertThat(f.catalog.get("a__x")).isPresent();
  }
}
