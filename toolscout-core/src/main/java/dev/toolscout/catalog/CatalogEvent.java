package dev.toolscout.catalog;

import java.util.List;

/**
 * A change to the catalog, emitted after it is durable in the store. Indexers subscribe to these rather than
 * being called by the sources. {@link #type()} keeps the names of the design (seed 003). The events live with
 * the catalog, which owns its changes: the bus that delivers them ({@code events.EventBus}) depends on the
 * catalog, never the other way round.
 */
public sealed interface CatalogEvent {
    /** The event name, e.g. {@code interface.registered}. */
    String type();

    /** The catalog version this event brings the catalog to. */
    long version();

    /** A source appeared with its first tools. */
    record InterfaceRegistered(String source, List<CatalogEntry> tools, long version) implements CatalogEvent {
        public InterfaceRegistered {
            tools = List.copyOf(tools);
        }

        @Override
        public String type() {
            return "interface.registered";
        }
    }

    /** A source's last tools went away. */
    record InterfaceUnregistered(String source, List<CatalogEntry> tools, long version) implements CatalogEvent {
        public InterfaceUnregistered {
            tools = List.copyOf(tools);
        }

        @Override
        public String type() {
            return "interface.unregistered";
        }
    }

    /** A tool was added to a source that already had tools. */
    record ActionAdded(CatalogEntry tool, long version) implements CatalogEvent {
        @Override
        public String type() {
            return "interface.action_added";
        }
    }

    /** A tool's definition changed (its content hash differs). */
    record ActionUpdated(CatalogEntry before, CatalogEntry after, long version) implements CatalogEvent {
        @Override
        public String type() {
            return "interface.action_updated";
        }
    }

    /** A tool was removed from a source that keeps other tools. */
    record ActionRemoved(CatalogEntry tool, long version) implements CatalogEvent {
        @Override
        public String type() {
            return "interface.action_removed";
        }
    }
}
