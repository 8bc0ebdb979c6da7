package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.bench.eval.ProductEngine;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.selection.SelectorConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The evaluation harness's way into the composition root ({@code toolscout eval} and EvalTools pass it in). */
class EngineFactoryTest {
  @TempDir Path dir;

  @Test
  void the_opened_engine_holds_exactly_the_given_tools_and_selects_with_the_given_configuration() throws Exception {
    List<ToolSpec> tools = List.of(
        ToolSpec.builder("weather__forecast", "Weather forecast for a city.").build(),
        ToolSpec.builder("mail__send", "Send an email message to a recipient.").build());
    SelectorConfig config = new SelectorConfig(List.of(), 0, Fusion.DEFAULT.withMethod(Fusion.Method.LEXICAL), 10,
        false);
    try (ProductEngine e = new EngineFactory().open(dir, tools, LocalEmbeddingModels.DEFAULT_ID, config)) {
      assertThat(e.catalog().size()).isEqualTo(2);
      assertThat(e.catalog().snapshot().entries()).extracting(CatalogEntry::name)
          .containsExactlyInAnyOrder("weather__forecast", "mail__send");
      assertThat(e.selector().config()).isEqualTo(config);
      assertThat(e.model().modelId()).isEqualTo(LocalEmbeddingModels.DEFAULT_ID);
      Selection s = e.selector().select(Selector.Request.of("send an email to Bob", Principal.ANONYMOUS));
      assertThat(s.selected()).extracting(Selection.SelectedTool::name).containsExactly("mail__send");
    }
    // closed: the data directory is free for the next engine, which embeds nothing again
    try (Engine again = Engine.open(Engine.Options.of(dir).withTools(tools))) {
      assertThat(again.embeddedCount()).isZero();
    }
  }
}
