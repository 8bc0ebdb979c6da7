package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.bench.eval.ProductEngineFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EvalToolsTest {
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
  /** None of these tests gets as far as opening an engine. */
  private final ProductEngineFactory neverOpened = (dataDir, tools, modelId, selector) -> {
    throw new AssertionError("no engine should be opened, asked for " + dataDir);
  };

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void an_unknown_tool_name_is_refused_with_the_name_and_the_accepted_names() throws Exception {
    assertThat(EvalTools.launch(neverOpened, err, "FusionSweeps", "/datasets", "/work", "300")).isEqualTo(2);
    assertThat(err()).startsWith("EvalTools: the first argument must name the tool to run, one of [")
        .contains("; got: 'FusionSweeps'")
        .contains(EvalTools.TOOLS.toString())
        .contains("usage: java -cp toolscout.jar dev.toolscout.server.EvalTools TOOL ARGS...");
  }

  @Test
  void a_class_that_opens_no_engine_is_not_a_tool_of_the_launcher() throws Exception {
    assertThat(EvalTools.launch(neverOpened, err, "QueryAdapterTrainer", "/datasets")).isEqualTo(2);
    assertThat(err()).contains("got: 'QueryAdapterTrainer'")
        .contains("QueryAdapterTrainer opens no engine and is started by its own class name");
  }

  @Test
  void a_missing_tool_name_is_refused_with_the_accepted_names() throws Exception {
    assertThat(EvalTools.launch(neverOpened, err)).isEqualTo(2);
    assertThat(err()).contains("one of " + EvalTools.TOOLS + "; got no arguments").contains("usage: ");
  }

  @Test
  void every_accepted_name_reaches_its_tool() {
    assertThat(EvalTools.TOOLS).hasSize(10).doesNotHaveDuplicates();
    for (String tool : EvalTools.TOOLS) {
      // given no DATASETS argument, the tool's own argument check refuses it by its name: the launcher passed it on
      assertThatThrownBy(() -> EvalTools.launch(neverOpened, err, tool)).as(tool)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(tool + " needs DATASETS WORK METATOOL_LIMIT first, got 0 argument(s): []");
    }
    assertThat(err()).isEmpty();
  }
}
