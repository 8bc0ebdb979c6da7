/**
 * ToolScout's Java API: {@link dev.toolscout.engine.ToolScout#builder()} opens a data directory; plain records
 * go in and out. Everything here is thread-safe unless its javadoc says otherwise. Only the public types are API:
 * the engine behind them (the composition root, the data directory's lock, the replica sync) is package-private,
 * and {@link dev.toolscout.engine.ToolScout}'s narrow services ({@link dev.toolscout.engine.Maintenance}, {@link
 * dev.toolscout.engine.GatewayParts}, {@link dev.toolscout.engine.RankingParts}) give what the server and the
 * tools built on it need besides selection.
 */
package dev.toolscout.engine;
