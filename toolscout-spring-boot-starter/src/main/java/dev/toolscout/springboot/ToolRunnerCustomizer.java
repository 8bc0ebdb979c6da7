package dev.toolscout.springboot;

import dev.toolscout.engine.ToolRunner;

/**
 * Adds executors to the auto-configured {@link ToolRunner}: each bean of this type is applied, in order, to the
 * builder before it is built (an MCP upstream's executor for source kind {@code MCP}, an application's own tools).
 */
@FunctionalInterface
public interface ToolRunnerCustomizer {
    void customize(ToolRunner.Builder builder);
}
