package dev.toolscout.engine;

import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.indexing.ToolIndex;
import dev.toolscout.learning.UsageMemory;
import dev.toolscout.memory.Memories;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.routing.VectorRouter;
import dev.toolscout.selection.Selector;

/**
 * The parts selection is made of, in core's types, for what measures or tunes it rather than asks it (an
 * evaluation, a calibration, {@code toolscout learn}, a benchmark): the same instances {@link ToolScout#select}
 * uses. Thread-safe.
 */
public interface RankingParts {
    Catalog catalog();

    /** The search index (a cache of the store). */
    ToolIndex index();

    /** The embedding model (loaded on first use unless preloaded). */
    EmbeddingModel model();

    AccessControl access();

    Selector selector();

    TokenCounter tokens();

    /** What selection learned from use ({@code toolscout learn}). */
    UsageMemory learned();

    /** The router: a route for a message before any LLM is called. */
    VectorRouter router();

    /** The memories the router and the memory tools read. */
    Memories memories();
}
