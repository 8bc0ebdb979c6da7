package dev.toolscout.index;

/** One search result: a catalog ordinal and a retriever's raw score (higher is better). */
public record Hit(int ord, float score) {}
