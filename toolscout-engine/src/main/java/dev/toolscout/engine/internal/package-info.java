/**
 * Not API: the engine's composition root and its parts, public only so that ToolScout's own modules (the
 * server, the benchmarks) can reach them. They change without notice between versions; please don't depend on
 * them. Use {@link dev.toolscout.engine.ToolScout}.
 */
package dev.toolscout.engine.internal;
