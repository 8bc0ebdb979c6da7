/**
 * The whole store in one ({@link dev.toolscout.state.StateStore}): what the engine opens and hands out in parts.
 * Depends on every concept's package (each holds its own store interface), and none of them depends on it, so a
 * concept's code takes only its own store.
 */
package dev.toolscout.state;
