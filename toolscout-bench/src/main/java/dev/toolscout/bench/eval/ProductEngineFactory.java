package dev.toolscout.bench.eval;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.SelectorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens the product's engine for the harness. The harness must index and rank exactly as the product does, but
 * the product's implementations are chosen in one place, toolscout-server's composition root, which depends on
 * this module and not the other way round; so the server implements this interface ({@code
 * dev.toolscout.server.EngineFactory}) and hands it in by hand: {@code toolscout eval} to {@link EvalRunner},
 * the launcher {@code dev.toolscout.server.EvalTools} to each sweep's {@code run(ProductEngineFactory,
 * String...)}. Evaluation tooling, not API.
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
}
