/**
 * The agent loop: {@code Agent.run(conversation, principal, message)} selects the tools for the message, renders
 * them for an LLM provider with ToolScout's system-prompt section, calls the model, and runs its tool calls
 * through {@link dev.toolscout.execution.ToolExecutor executors}; {@code PROPOSE} calls wait for an approval,
 * {@code BLOCKED} ones never run, and every request leaves a usage record (docs/AGENT.md).
 */
package dev.toolscout.agent;
