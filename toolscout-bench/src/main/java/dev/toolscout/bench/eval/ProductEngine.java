package dev.toolscout.bench.eval;

import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.lucene.LuceneToolIndex;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.selection.Selector;
import java.util.Objects;

/**
 * The product's engine opened on one data directory, as the harness uses it: the parts it ranks and measures
 * with, exactly as the product built them (toolscout-server's composition root chooses and wires them; the
 * harness never does). Opened by a {@link ProductEngineFactory}; close it to close the engine. Thread safety is
 * the parts' own.
 *
 * @param onClose closes the engine (its index and store)
 */
public record ProductEngine(
    Catalog catalog, Selector selector, EmbeddingModel model, LuceneToolIndex index, AccessControl access,
    TokenCounter tokens, Runnable onClose) implements AutoCloseable {
  public ProductEngine {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(tokens, "tokens");
    Objects.requireNonNull(onClose, "onClose");
  }

  @Override
  public void close() {
    onClose.run();
  }
}
