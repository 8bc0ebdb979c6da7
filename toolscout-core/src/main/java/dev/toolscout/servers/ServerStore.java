package dev.toolscout.servers;

import java.util.List;

/**
 * The registered upstream MCP servers, and the names an admin disabled. Thread-safe.
 */
public interface ServerStore {
    /**
     * Every registered upstream server, in name order ({@link String#compareTo}); empty when none. Thread-safe;
     * sees every save and delete that has returned.
     */
    List<StoredServer> loadServers();

    /**
     * Stores {@code server}, replacing any with the same name (upsert), durable on return. The store does not
     * read the JSON; it keeps it exactly as given. Thread-safe.
     */
    void saveServer(StoredServer server);

    /**
     * Removes the server named {@code name} (exact match), durable on return. Thread-safe.
     *
     * @return true when a server was removed, false when none had that name
     */
    boolean deleteServer(String name);

    /**
     * The names of the upstream servers an admin disabled, in name order ({@link String#compareTo}); a name need not
     * be a stored server's (a server of a {@code --servers} file is not stored). Thread-safe.
     */
    List<String> loadDisabledServers();

    /**
     * Marks the server named {@code name} disabled, or enabled again, durable on return. Thread-safe.
     *
     * @return true when the flag changed, false when it already was so
     */
    boolean setServerDisabled(String name, boolean disabled);

    /**
     * One registered upstream server as stored.
     *
     * @param name the server's unique name (the key; upserts and deletes go by it)
     * @param configJson the server's configuration, opaque to the store: the module that registers servers
     *     owns its format, and any secrets in it are already sealed
     */
    record StoredServer(String name, String configJson) {
        public StoredServer {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("stored server name must not be blank, got: '" + name + "'");
            }
            if (configJson == null) {
                throw new IllegalArgumentException("stored server '" + name + "': configJson must not be null");
            }
        }

        /** Leaves the JSON out: it may hold sealed secrets, and is long. */
        @Override
        public String toString() {
            return "StoredServer[name=" + name + ", configJson=(" + configJson.length() + " chars)]";
        }
    }
}
