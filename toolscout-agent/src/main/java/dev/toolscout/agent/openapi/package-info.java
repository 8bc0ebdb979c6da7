/**
 * Tools imported from an OpenAPI 3 document (each operation one tool) and the {@link
 * dev.toolscout.execution.ToolExecutor} that calls them over HTTP with the configured base URL and credentials.
 */
package dev.toolscout.agent.openapi;
