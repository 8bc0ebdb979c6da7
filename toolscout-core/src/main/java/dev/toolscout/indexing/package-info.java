/**
 * The indexer contract ({@link dev.toolscout.indexing.Indexer}) and the embed-and-store step indexers share
 * ({@link dev.toolscout.indexing.CachedEmbeddings}). Depends on the catalog's store and the embedding model only,
 * so every indexer (tools in {@code events}, skills, git, memory) can use it without a package cycle.
 */
package dev.toolscout.indexing;
