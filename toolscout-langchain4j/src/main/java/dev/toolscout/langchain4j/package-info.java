/**
 * LangChain4j's tool hooks backed by ToolScout (docs/LANGCHAIN4J.md): {@link
 * dev.toolscout.langchain4j.ToolScoutToolProvider} (the tools {@code ToolScout.select} picks for the user message,
 * run through ToolScout's call gate) and {@link dev.toolscout.langchain4j.ToolScoutToolSearchStrategy} (the model's
 * tool search answered by {@code ToolScout.find}). Built on the engine's public API only.
 */
package dev.toolscout.langchain4j;
