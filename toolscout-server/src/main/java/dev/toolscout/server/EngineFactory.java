package dev.toolscout.server;

import dev.toolscout.bench.eval.ProductEngine;
import dev.toolscout.bench.eval.ProductEngineFactory;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.SelectorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The evaluation harness's way into this composition root: opens an {@link Engine} on a data directory with
 * exactly the given tools, model and selector configuration, and hands the harness the parts it ranks with.
 * Passed in by hand: {@code toolscout eval} gives it to the harness's {@code EvalRunner}, {@link EvalTools} to
 * the sweep it launches. Stateless and thread-safe.
 */
public final class EngineFactory implements ProductEngineFactory {
  @Override
  public ProductEngine open(Path dataDir, List<ToolSpec> tools, String modelId, SelectorConfig selector)
      throws IOException {
    Engine e = Engine.open(Engine.Options.of(dataDir).withTools(tools).withModel(modelId).withSelector(selector));
    return new ProductEngine(e.catalog(), e.selector(), e.model(), e.index(), e.access(), e.tokens(), e::close);
  }
}
