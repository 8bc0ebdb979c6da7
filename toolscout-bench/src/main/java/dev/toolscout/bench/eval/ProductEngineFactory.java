package dev.toolscout.bench.eval;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.SelectorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Opens the product's engine for the harness. The harness must index and rank exactly as the product does, but
 * the product's implementations are chosen in one place, toolscout-server's composition root, which depends on
 * this module and not the other way round; so the server implements this interface ({@code
 * dev.toolscout.server.EngineFactory}). {@code toolscout eval} passes it in; the sweeps' {@code main} methods,
 * launched by class name from {@code toolscout-server/target/toolscout.jar}, find it with {@link
 * #fromClassPath()}. Evaluation tooling, not API.
 */
@FunctionalInterface
public interface ProductEngineFactory {
  /**
   * Opens the product's engine on {@code dataDir} (created if missing) with a catalog that holds exactly {@code
   * tools}, embedded with {@code modelId} (a rerun on a current data directory embeds nothing), its selector
   * configured by {@code selector}, and everything allowed unless the data directory holds an access policy.
   */
  ProductEngine open(Path dataDir, List<ToolSpec> tools, String modelId, SelectorConfig selector)
      throws IOException;

  /**
   * The one implementation registered on the class path ({@code META-INF/services/} of this interface's name;
   * toolscout-server registers its own).
   *
   * @throws IllegalStateException when there is none (the server's jar is not on the class path) or more than one
   */
  static ProductEngineFactory fromClassPath() {
    List<ProductEngineFactory> found =
        ServiceLoader.load(ProductEngineFactory.class).stream().map(ServiceLoader.Provider::get).toList();
    if (found.size() != 1) {
      throw new IllegalStateException("the evaluation harness needs exactly one " + ProductEngineFactory.class
          .getName() + " on the class path (toolscout-server provides it: run with -cp "
          + "toolscout-server/target/toolscout.jar), found " + found.size()
          + (found.isEmpty() ? "" : ": " + found.stream().map(f -> f.getClass().getName()).toList()));
    }
    return found.get(0);
  }
}
