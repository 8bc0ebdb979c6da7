/**
 * The event bus ({@link dev.toolscout.events.EventBus}): delivers the catalog's, the skills' and the memories' change
 * events to their subscribers (the tools, skills and memory indexers among them), synchronously and in order, on the
 * publishing thread.
 */
package dev.toolscout.events;
