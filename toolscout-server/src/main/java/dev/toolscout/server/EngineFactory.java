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
 * Registered in {@code META-INF/services/dev.toolscout.bench.eval.ProductEngineFactory}, so the sweeps launched
 * by class name from {@code toolscout.jar} find it; {@code toolscout eval} passes it in. Stateless and
 * thread-safe.
 */
public final class EngineFactory implements ProductEngineFactory {
  /** Public, with no arguments: {@link java.util.ServiceLoader} instantiates it. */
  public EngineFactory() {}

  @Override
  public ProductEngine open(Path dataDir, List<ToolSpec> tools, String modelId, SelectorConfig selector)
      throws IOException {
    Engine e = Engine.open(Engine.Options.of(dataDir).withTools(tools).withModel(modelId).withSelector(selector));
    return new ProductEngine(e.catalog(), e.selector(), e.model(), e.index(), e.access(), e.tokens(), e::close);
  }
}
