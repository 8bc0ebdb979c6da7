package dev.toolscout.engine;

/**
 * What a catalog write changed. A write that changed nothing has all counts 0 and the version unchanged.
 *
 * @param version the catalog's version after the write (it grows with every change)
 * @param added tools that were new
 * @param updated tools whose definition changed (an identical one is not counted)
 * @param removed tools taken out
 */
public record CatalogChange(long version, int added, int updated, int removed) {}
