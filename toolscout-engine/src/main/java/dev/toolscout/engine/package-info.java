/**
 * ToolScout's Java API: {@link dev.toolscout.engine.ToolScout#builder()} opens a data directory; plain records
 * go in and out. Everything here is thread-safe unless its javadoc says otherwise. {@code
 * dev.toolscout.engine.internal} is not API.
 */
package dev.toolscout.engine;
