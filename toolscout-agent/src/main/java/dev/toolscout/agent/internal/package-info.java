/** The agent's internals: not API (docs/JAVA.md); they change without notice. */
package dev.toolscout.agent.internal;
