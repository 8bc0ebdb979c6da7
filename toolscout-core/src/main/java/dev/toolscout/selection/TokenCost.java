package dev.toolscout.selection;

import dev.toolscout.model.ToolSpec;

/**
 * What a tool's definition costs in tokens, for selections within a token budget. An interface here, rather
 * than the counter itself, so selection does not depend on rendering (the counter renders a definition to count
 * it, and rendering depends on selection). Implementations must be thread-safe.
 */
@FunctionalInterface
public interface TokenCost {
    /** Tokens of {@code spec}'s definition as a model receives it. */
    int definitionTokens(ToolSpec spec);
}
