package dev.toolscout.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.SelectorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepSetTest {
  @Test
  void a_set_opens_its_engine_with_the_factory_it_is_given_on_the_eval_data_directory() {
    List<ToolSpec> specs = List.of(ToolSpec.builder("mail__send", "Send an email message.").build());
    SweepSet set = new SweepSet("mail", Path.of("datasets", "mail", "normalized"), List.of(), specs,
        new String[] {"send"}, Map.of("mail__send", 0));
    Path work = Path.of("work");
    List<Object> asked = new ArrayList<>();
    // the product's engine lives in toolscout-server; this one records what it was asked to open, and refuses
    ProductEngineFactory engines = (dataDir, tools, modelId, selector) -> {
      asked.addAll(List.of(dataDir, tools, modelId, selector));
      throw new IOException("not opened in this test");
    };
    assertThatThrownBy(() -> set.open(engines, work, "some-model")).hasMessage("not opened in this test");
    assertThat(asked).containsExactly(EvalRunner.dataDir(work, set.dir(), "some-model"), specs, "some-model",
        SelectorConfig.DEFAULT);
  }

  @Test
  void the_common_arguments_are_read_and_a_bad_one_is_named() {
    SweepSet.Args a = SweepSet.Args.parse("FusionSweep", "/data", "/work", "3000", "ZSCORE", "--show");
    assertThat(a.datasets()).isEqualTo(Path.of("/data"));
    assertThat(a.work()).isEqualTo(Path.of("/work"));
    assertThat(a.mlimit()).isEqualTo(3000);
    assertThat(a.rest()).containsExactly("ZSCORE", "--show");
    assertThat(SweepSet.Args.parse("PrfSweep", "/data", "/work", "0").rest()).isEmpty();
    assertThatThrownBy(() -> SweepSet.Args.parse("PrfSweep", "/data", "/work"))
        .hasMessage("PrfSweep needs DATASETS WORK METATOOL_LIMIT first, got 2 argument(s): [/data, /work]");
    assertThatThrownBy(() -> SweepSet.Args.parse("PrfSweep", "/data", "/work", "all"))
        .hasMessage("PrfSweep: METATOOL_LIMIT must be a whole number >= 0 (0 keeps every query), got: 'all'");
    assertThatThrownBy(() -> SweepSet.Args.parse("PrfSweep", "/data", "/work", "-5"))
        .hasMessage("PrfSweep: METATOOL_LIMIT must be a whole number >= 0 (0 keeps every query), got: '-5'");
  }
}
