package dev.toolscout.eval.calibration;

import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.indexing.ToolIndex;
import dev.toolscout.memory.Memories;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.routing.VectorRouter;
import dev.toolscout.selection.Fusion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The product's parts a calibration routes and ranks through, opened on one data directory for one catalog and
 * embedding model. Handed in by the composition root (toolscout-server's {@code calibrate} command opens the
 * engine), never built here, as {@link dev.toolscout.eval.EvalRunner.Product} is. Closing it closes the engine.
 *
 * @param owner what holds the parts open (the engine)
 */
public record CalibrationEngine(
        Catalog catalog,
        ToolIndex index,
        EmbeddingModel model,
        AccessControl access,
        Fusion fusion,
        VectorRouter router,
        Memories memories,
        AutoCloseable owner)
        implements AutoCloseable {
    /** Opens the product on a data directory with these tools and this embedding model (its model loaded). */
    @FunctionalInterface
    public interface Opener {
        CalibrationEngine open(Path dataDir, List<ToolSpec> tools, String modelId) throws IOException;
    }

    public CalibrationEngine {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(fusion, "fusion");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(memories, "memories");
        Objects.requireNonNull(owner, "owner");
    }

    @Override
    public void close() throws IOException {
        try {
            owner.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
